"""Hooks other parts of the product hang on the accounts' pages without ``accounts`` importing
them (it imports no other app):

* ``page_section_register(page, fn)``: ``fn(request)`` returns a section of HTML (rendered
  from a template) shown on the accounts' page ``page``: ``"profile"`` (the ratings:
  ``tables.ratings``) or ``"friends"`` (the invites to private tables: ``tables.web``).

A Django signal, the project's one observer mechanism; registered once at start-up
(``AppConfig.ready()``); registering the same function twice is a no-op. A failing section is
logged and left out: the page still shows.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.core.exceptions import ImproperlyConfigured
from django.dispatch import Signal
from django.http import HttpRequest
from django.utils.safestring import SafeString

logger = logging.getLogger(__name__)

PageSection = Callable[[HttpRequest], SafeString]
PAGES = ("profile", "friends")

# Sent with ``page`` and ``request``; each receiver of that page answers a rendered section.
page_section_signal = Signal()


def page_section_register(page: str, fn: PageSection) -> None:
    if page not in PAGES:
        raise ImproperlyConfigured(f"no accounts page {page!r} takes sections")

    def receiver(
        sender: object, *, page: str, request: HttpRequest, **kwargs: object
    ) -> SafeString | None:
        return fn(request) if page == wanted else None

    wanted = page
    page_section_signal.connect(
        receiver, weak=False, dispatch_uid=f"{page}:{fn.__module__}.{fn.__qualname__}"
    )


def page_sections(page: str, request: HttpRequest) -> list[SafeString]:
    """The registered sections of the accounts' page ``page``, in the order registered."""
    sections: list[SafeString] = []
    for receiver, answer in page_section_signal.send_robust(
        sender=None, page=page, request=request
    ):
        if isinstance(answer, Exception):
            logger.error("%s section %r failed", page, receiver, exc_info=answer)
        elif answer:
            sections.append(answer)
    return sections
