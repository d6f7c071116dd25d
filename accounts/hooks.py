"""Hooks other parts of the product hang on the accounts' pages without ``accounts`` importing
them (it imports no other app):

* ``profile_section_register(fn)``: ``fn(request)`` returns a section of HTML (rendered from a
  template) shown on the player's profile page (the ratings: ``tables.ratings``).

A Django signal, the project's one observer mechanism; registered once at start-up
(``AppConfig.ready()``); registering the same function twice is a no-op. A failing section is
logged and left out: the profile page still shows.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.dispatch import Signal
from django.http import HttpRequest
from django.utils.safestring import SafeString

logger = logging.getLogger(__name__)

ProfileSection = Callable[[HttpRequest], SafeString]

# Sent with ``request``; each receiver answers a rendered section.
profile_section_signal = Signal()


def profile_section_register(fn: ProfileSection) -> None:
    def receiver(sender: object, *, request: HttpRequest, **kwargs: object) -> SafeString:
        return fn(request)

    profile_section_signal.connect(
        receiver, weak=False, dispatch_uid=f"{fn.__module__}.{fn.__qualname__}"
    )


def profile_sections(request: HttpRequest) -> list[SafeString]:
    """The registered sections of the profile page, in the order registered."""
    sections: list[SafeString] = []
    for receiver, answer in profile_section_signal.send_robust(sender=None, request=request):
        if isinstance(answer, Exception):
            logger.error("profile section %r failed", receiver, exc_info=answer)
        elif answer:
            sections.append(answer)
    return sections
