"""The project's templates (``templates/``), the live table's with their layout's white space
collapsed once, when they are loaded.

The table page's templates are indented for the people who edit them, and a push sends what
they render to every socket of a table many times a minute: runs of white space with a line
break in them would be most of a frame's bytes. One line break does what each run did (none of
these templates holds preformatted text: the shoe's preimage is in ``tables/_commitment.html``,
left as written), so the run is cut from the template's source as it is loaded and compiled,
not from every render's output."""

from __future__ import annotations

import re

from django.template.base import Origin
from django.template.loaders.filesystem import Loader as FilesystemLoader

# A run of spaces and tabs, a line break, and any white space after it.
LAYOUT_SPACE = re.compile(r"[ \t]*\n\s*")
# A line of template tags and comments only, then its line break: the line that follows joins
# it, so a tag that shows nothing leaves no empty line.
TAGS_LINE = re.compile(r"(?<=\n)((?:\{%.*?%\}|\{#.*?#\})+)\n")

COLLAPSED = frozenset(
    {
        "tables/table.html",
        "tables/_waiting_for_people.html",
        "_header_balance.html",
    }
)


def layout_collapsed(source: str) -> str:
    """``source`` with each run of layout white space made one line break, and none after a
    line of tags."""
    return TAGS_LINE.sub(r"\1", LAYOUT_SPACE.sub("\n", source))


class Loader(FilesystemLoader):
    """Django's file system loader, with the templates of ``COLLAPSED`` collapsed."""

    def get_contents(self, origin: Origin) -> str:
        contents = super().get_contents(origin)
        if origin.template_name in COLLAPSED:
            return layout_collapsed(contents)
        return contents
