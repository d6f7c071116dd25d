"""Presented parts of the felt kept for the moves that show them again unchanged.

The last deal's result sheet and the scoreboard stay the same through a whole deal, while the
felt is presented again for every move of it (``tables.presenters.table``). Each is kept here
as presented, by everything it reads (the engine view's JSON of the last deal or of the
history, the running totals, the names, the rules, the money, the viewer's seat and the
language): the same inputs give back the same object, which the felt's template remembers its
markup by (``{% remember %}``). The least recently used are dropped first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TypeVar, cast

KEPT_PRESENTED = 4096
_kept: OrderedDict[Hashable, object] = OrderedDict()
_kept_lock = threading.Lock()
_T = TypeVar("_T")


def kept_presented(key: tuple[Hashable, ...], make: Callable[[], _T]) -> _T:
    """What ``make`` presents for ``key``, presented once while it is kept."""
    with _kept_lock:
        if key in _kept:
            _kept.move_to_end(key)
            return cast(_T, _kept[key])
    made = make()
    with _kept_lock:
        _kept[key] = made
        while len(_kept) > KEPT_PRESENTED:
            _kept.popitem(last=False)
    return made
