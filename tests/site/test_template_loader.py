"""The project's template loader (``rummy_site/template_loader.py``): the live table's
templates are compiled with their layout's white space collapsed, every other one as written."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings
from django.template import engines
from django.template.backends.django import Template

from rummy_site.template_loader import COLLAPSED, layout_collapsed

TEMPLATES = Path(settings.BASE_DIR) / "templates"


def _source(name: str) -> str:
    template = engines["django"].get_template(name)
    assert isinstance(template, Template)
    return template.template.source


def test_the_live_tables_templates_are_compiled_with_their_layout_collapsed() -> None:
    for name in COLLAPSED:
        written = (TEMPLATES / name).read_text()
        source = _source(name)
        assert source == layout_collapsed(written)
        assert not re.search(r"[ \t]\n|\n\s", source), name
    assert len(_source("tables/table.html")) < len((TEMPLATES / "tables/table.html").read_text())


def test_every_other_template_is_compiled_as_written() -> None:
    # The shoe's preimage is shown byte for byte: its template keeps its lines.
    for name in ("tables/_commitment.html", "tables/lobby.html", "base.html"):
        assert _source(name) == (TEMPLATES / name).read_text()


def test_what_the_table_renders_carries_no_layout_runs() -> None:
    from django.template.loader import render_to_string

    for part in ("seat-top", "my-area", "seat-foot"):
        html = render_to_string(f"tables/table.html#{part}", {"s": None, "oob": True})
        assert "<div" in html, part
        assert not re.search(r"[ \t]\n|\n[ \t]|\n\n\n", html), part
