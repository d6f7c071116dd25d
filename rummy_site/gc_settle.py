"""The web process's garbage collector, settled once the app is loaded (``rummy_site/asgi.py``).

Measured in process (``benchmarks/bench_socket.py`` with the collector's callbacks timed), the
collector took 0.6-0.85 ms of a move's 8-13 ms: about one young collection a move, and now and
then a full one of 90-118 ms walking the 178,000 objects that loading Django, the apps and the
templates left behind, none of which ever becomes garbage. So, once everything is loaded (the
table page's templates compiled too), those objects are moved out of the collector's sight
(``gc.freeze``) and a young collection waits for ``GC_GEN0_THRESHOLD`` new objects instead of
Python's 700: the same 208 moves then cost it 2 collections and 7 ms. Reference cycles are
still collected, later and in fewer passes.
"""

from __future__ import annotations

import gc

from django.conf import settings
from django.template.loader import get_template

# What the first page and the first push would otherwise compile after the freeze.
WARM_TEMPLATES = ("tables/table.html", "tables/lobby.html", "base.html")


def gc_settle() -> None:
    """Compile the hot templates, collect once, freeze what is left, and raise the young
    generation's threshold (``GC_GEN0_THRESHOLD``; 0 leaves the collector as Python sets it)."""
    threshold = int(settings.GC_GEN0_THRESHOLD)
    if threshold <= 0:
        return
    for name in WARM_TEMPLATES:
        get_template(name)
    gc.collect()
    gc.freeze()
    _, second, third = gc.get_threshold()
    gc.set_threshold(threshold, second, third)
