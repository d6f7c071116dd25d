"""The active language's words, each looked up once a process.

A presenter that words many values per render (every seat's totals on the felt, the drop's
confirmation) asks ``Words`` for them: one read of the active language when it is made, then a
dictionary lookup per word. Django's ``gettext`` reads the active language, a context-local
value, on every call; at a dozen words a seat and six seats a felt that was a measurable share
of a move's push (``docs/benchmarks.md``).
"""

from __future__ import annotations

from functools import cache

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.translation import get_language, gettext, ngettext

# A plural is kept for counts below this (cards, drops, points of a drop); larger ones are
# translated on each call, so the memo stays small whatever the counts.
PLURAL_KEPT_BELOW = 1000

_Key = tuple[str, str, int]


@cache
def _memo(language: str | None) -> dict[_Key, str]:
    return {}


@receiver(setting_changed)
def _settings_changed(*, setting: str, **_kwargs: object) -> None:
    """Another catalog, another default language: forget every word (tests' overrides)."""
    if setting in ("LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS"):
        _memo.cache_clear()


class Words:
    """The words of the language active when it is made; use it while that language stays
    active (within one render)."""

    __slots__ = ("_memo",)

    def __init__(self) -> None:
        self._memo = _memo(get_language())

    def gettext(self, message: str) -> str:
        """Django's ``gettext(message)``: the same name, so ``makemessages`` finds the
        message."""
        key = (message, "", -1)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = gettext(message)
        return found

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        """Django's ``ngettext(singular, plural, count)``."""
        if not 0 <= count < PLURAL_KEPT_BELOW:
            return ngettext(singular, plural, count)
        key = (singular, plural, count)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = ngettext(singular, plural, count)
        return found
