"""What the accounts' services refuse: ``AccountRefused`` with a ``code`` (``AccountRefusal``),
its ``params`` and an HTTP ``status``; ``str(exc)`` is the sentence, worded from the code by
``ACCOUNT_WORDS`` in the language active when it is shown (a ``datetime`` param in the local
time). Whenever one is raised, nothing was changed.

The friends (``accounts.friends``) refuse with ``FriendRefused``, an ``AccountRefused`` with
codes and words of its own, so whatever shows accounts' refusals shows theirs."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from enum import StrEnum
from types import MappingProxyType
from typing import Final

from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

__all__ = ["ACCOUNT_STATUS", "ACCOUNT_WORDS", "AccountRefusal", "AccountRefused", "words_shown"]


class AccountRefusal(StrEnum):
    """What the accounts' services refuse, one code per sentence of ``ACCOUNT_WORDS``."""

    LANGUAGE_NOT_OFFERED = "language_not_offered"
    LIMIT_PERIOD = "limit_period"
    LIMIT_AMOUNT = "limit_amount"
    EXCLUSION_PERIOD = "exclusion_period"
    ALREADY_EXCLUDED = "already_excluded"


A = AccountRefusal
ACCOUNT_WORDS: Final[Mapping[AccountRefusal, StrOrPromise]] = MappingProxyType(
    {
        A.LANGUAGE_NOT_OFFERED: _("That language is not offered."),
        A.LIMIT_PERIOD: _("Choose a daily or a monthly limit."),
        A.LIMIT_AMOUNT: _("That limit is not a valid amount."),
        A.EXCLUSION_PERIOD: _("Choose 1 day, 7 days, 30 days or 6 months."),
        A.ALREADY_EXCLUDED: _("You are already excluded until %(until)s."),
    }
)
# The HTTP status a page answers a refusal with: 400 unless named here.
ACCOUNT_STATUS: Final[Mapping[AccountRefusal, int]] = MappingProxyType({A.ALREADY_EXCLUDED: 409})
del A


def words_shown(words: StrOrPromise, params: Mapping[str, object]) -> str:
    """``words`` with ``params`` in the active language (a ``datetime`` as local time)."""
    shown = {
        name: formats.date_format(timezone.localtime(value), "DATETIME_FORMAT")
        if isinstance(value, datetime)
        else value
        for name, value in params.items()
    }
    return words % shown


class AccountRefused(ValueError):
    """A refused account change: a ``code``, its ``params`` and the HTTP ``status``;
    ``str(exc)`` is the sentence for the player. Nothing was changed."""

    code: StrEnum  # an ``AccountRefusal`` here; a ``FriendRefusal`` for the friends

    def __init__(self, code: AccountRefusal, /, **params: object) -> None:
        self.code = code
        self.params: dict[str, object] = params
        super().__init__(code.value)

    def words(self) -> StrOrPromise:
        """The sentence of the code, not yet worded (a lazy translation)."""
        return ACCOUNT_WORDS[AccountRefusal(self.code)]

    @property
    def status(self) -> int:
        return ACCOUNT_STATUS.get(AccountRefusal(self.code), 400)

    def __str__(self) -> str:
        return words_shown(self.words(), self.params)
