"""One kind of refusal (issue 33): every refusal class of the project, whichever layer raises it
(the engine's ``RulesError``, the tables' ``TableError``, the ledger's ``LedgerError``, the
accounts' ``AccountRefused``, a typed amount's ``AmountRefused``, an input's ``InputRefused``),
carries a ``code``, its ``params`` and an HTTP ``status``, and its words come from its app's one
catalogue keyed by code, in the language active when it is shown.

The layers forbid one shared base class (``tables.rules`` imports nothing of the project,
``ledger`` and ``accounts`` nothing of the tables), so the shape is checked here, on every
subclass found after importing the apps."""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterator, Mapping
from enum import StrEnum

import pytest
from django.conf import settings
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from accounts.errors import ACCOUNT_WORDS, AccountRefusal, AccountRefused
from accounts.friends.errors import FRIEND_MESSAGES, FriendRefusal, FriendRefused
from ledger.currencies import AMOUNT_WORDS, AmountProblem, AmountRefused
from ledger.errors import LEDGER_HINTS, LEDGER_WORDS, LedgerError, LedgerRefusal
from tables.rules.errors import InvalidCard, Refusal, RulesError
from tables.services.errors import StaleAction, TableError, TableRefusal, TimeRanOut
from tables.web.inputs import INPUT_WORDS, InputRefusal, InputRefused

ROOTS: tuple[type[Exception], ...] = (
    RulesError,
    TableError,
    LedgerError,
    AccountRefused,
    AmountRefused,
    InputRefused,
)
STATUSES = {400, 403, 404, 409, 429, 503}
PACKAGES = ("accounts", "ledger", "tables")


def _import_the_apps() -> None:
    """Every module of the apps (migrations aside), so every refusal class is defined."""
    for name in PACKAGES:
        package = importlib.import_module(name)
        for module in pkgutil.walk_packages(package.__path__, prefix=f"{name}."):
            if ".migrations" not in module.name:
                importlib.import_module(module.name)


def _subclasses(cls: type[Exception]) -> Iterator[type[Exception]]:
    yield cls
    for sub in cls.__subclasses__():
        yield from _subclasses(sub)


def _refusal_classes() -> list[type[Exception]]:
    _import_the_apps()
    found = {c for root in ROOTS for c in _subclasses(root)}
    # Only the project's own: a test may define a subclass of its own.
    return sorted(
        (c for c in found if c.__module__.split(".")[0] in PACKAGES),
        key=lambda c: f"{c.__module__}.{c.__qualname__}",
    )


def _build(cls: type[Exception]) -> Exception:
    """An instance of the refusal class ``cls``, with a code of its own kind."""
    if issubclass(cls, InvalidCard):
        return cls("ZZ")
    if issubclass(cls, RulesError):
        return cls(Refusal.NOT_YOUR_TURN)
    if issubclass(cls, StaleAction):
        return cls(expected=3, current=4)
    if issubclass(cls, TimeRanOut):
        return cls(["turn"])
    if issubclass(cls, TableError):
        return cls(TableRefusal.NO_SUCH_TABLE)
    if issubclass(cls, LedgerError):
        return cls()  # its default code
    if issubclass(cls, FriendRefused):
        return cls(FriendRefusal.NO_SUCH_PLAYER)
    if issubclass(cls, AccountRefused):
        return cls(AccountRefusal.LIMIT_PERIOD)
    if issubclass(cls, AmountRefused):
        return cls(AmountProblem.TOO_LARGE, currency="cash")
    if issubclass(cls, InputRefused):
        return cls(InputRefusal.TOO_LONG, what="card groups", count=2000)
    raise AssertionError(f"no way to build {cls}")


REFUSAL_CLASSES = _refusal_classes()


def test_the_refusal_classes_are_found():
    names = {c.__name__ for c in REFUSAL_CLASSES}
    assert {
        "InvalidMove",
        "TournamentRefused",
        "InsufficientFunds",
        "CallbackRefused",
        "DepositRefused",
        "PracticeTopUpRefused",
        "FriendRefused",
        "AmountRefused",
        "InputRefused",
    } <= names, names


# --- (a) the shape, on every class ----------------------------------------------------------


@pytest.mark.parametrize("cls", REFUSAL_CLASSES, ids=lambda c: c.__qualname__)
def test_every_refusal_carries_a_code_its_params_a_status_and_words(cls):
    exc = _build(cls)
    assert isinstance(exc, ValueError)
    code = exc.code
    assert isinstance(code, StrEnum), code
    assert isinstance(exc.params, Mapping)
    assert exc.status in STATUSES
    for language in ("en", "hi"):
        with translation.override(language):
            words = str(exc)
        assert words.strip() and words != code.value, (cls, language, words)


# --- (b) every code has words, translated ---------------------------------------------------

_PLACEHOLDER = re.compile(r"%\(([a-z_]+)\)[sd]")


def _names(words: object) -> set[str]:
    """The params the English words use."""
    with translation.override("en"):
        return set(_PLACEHOLDER.findall(str(words)))


def _ledger(code: LedgerRefusal) -> LedgerError:
    names = _names(LEDGER_WORDS[code])
    if code in LEDGER_HINTS:
        param, hint = LEDGER_HINTS[code]
        names |= _names(LEDGER_WORDS[hint]) | {param}
    return LedgerError(code, **{name: f"<{name}>" for name in names})


def _account(code: AccountRefusal) -> AccountRefused:
    return AccountRefused(code, **{name: f"<{name}>" for name in _names(ACCOUNT_WORDS[code])})


def _friend(code: FriendRefusal) -> FriendRefused:
    return FriendRefused(code, **{name: f"<{name}>" for name in _names(FRIEND_MESSAGES[code])})


def _input(code: InputRefusal) -> InputRefused:
    return InputRefused(code, **{name: f"<{name}>" for name in _names(INPUT_WORDS[code])})


CASES = (
    [("ledger", code, _ledger) for code in LedgerRefusal]
    + [("accounts", code, _account) for code in AccountRefusal]
    + [("friends", code, _friend) for code in FriendRefusal]
    + [("inputs", code, _input) for code in InputRefusal]
)


@pytest.mark.parametrize(
    ("catalogue", "code", "build"), CASES, ids=[f"{c}-{code}" for c, code, _ in CASES]
)
def test_every_code_has_words_and_they_are_translated(catalogue, code, build):
    exc = build(code)
    assert exc.code == code
    with translation.override("en"):
        english = str(exc)
    with translation.override("hi"):
        hindi = str(exc)
    assert english.strip() and hindi.strip()
    assert hindi != english, f"{catalogue}: no Hindi for {english!r}"
    for name, value in exc.params.items():
        assert value in english and value in hindi, (name, english, hindi)


def test_every_catalogue_words_every_code():
    assert set(LEDGER_WORDS) == set(LedgerRefusal)
    assert set(ACCOUNT_WORDS) == set(AccountRefusal)
    assert set(FRIEND_MESSAGES) == set(FriendRefusal)
    assert set(AMOUNT_WORDS) == set(AmountProblem)
    assert set(INPUT_WORDS) == set(InputRefusal)


@pytest.mark.parametrize("problem", list(AmountProblem))
@pytest.mark.parametrize("currency", ["cash", "practice"])
def test_a_typed_amount_refusal_is_worded_by_its_code_in_both_languages(problem, currency):
    exc = AmountRefused(problem, currency=currency)
    assert exc.code == problem == exc.problem and exc.status == 400
    with translation.override("en"):
        english = str(exc)
    with translation.override("hi"):
        hindi = str(exc)
    assert english and hindi and english != hindi


def test_the_words_are_worded_when_shown_not_when_raised():
    """A refusal raised in one language reads in the language active when it is shown, its
    amounts in the refusal's currency and its moments in the local time."""
    with translation.override("en"):
        exc = LedgerError(
            LedgerRefusal.WALLET_SHORT, currency="cash", balance=100_000, required=250_000
        )
    assert str(exc) == (
        "Not enough money in the wallet: it holds ₹1,000.00 and this needs ₹2,500.00."
    )
    assert exc.message == str(exc) and exc.details["balance"] == 100_000
    with translation.override("hi"):
        assert "₹1,000.00" in str(exc) and "वॉलेट" in str(exc)


def test_a_refusal_says_its_status():
    assert LedgerError(LedgerRefusal.STAFF_REQUIRED).status == 403
    assert LedgerError(LedgerRefusal.ALREADY_REVERSED).status == 409
    assert LedgerError(LedgerRefusal.NO_SUCH_DEPOSIT).status == 404
    assert LedgerError(LedgerRefusal.PAYMENTS_UNAVAILABLE).status == 503
    assert LedgerError(LedgerRefusal.AMOUNT_ZERO).status == 400
    assert AccountRefused(AccountRefusal.ALREADY_EXCLUDED, until="x").status == 409
    assert FriendRefused(FriendRefusal.NO_SUCH_REQUEST).status == 404
    assert StaleAction(expected=1, current=2).status == 409


# --- (c) any code, any text ------------------------------------------------------------------


@given(
    code=st.sampled_from(list(LedgerRefusal)),
    text=st.text(max_size=40),
    extra=st.dictionaries(st.from_regex(r"[a-z_]{1,12}", fullmatch=True), st.text(max_size=20)),
)
def test_a_ledger_refusal_with_any_text_params_renders_in_both_languages(code, text, extra):
    names = _names(LEDGER_WORDS[code])
    if code in LEDGER_HINTS:
        param, hint = LEDGER_HINTS[code]
        names |= _names(LEDGER_WORDS[hint]) | {param}
    exc = LedgerError(code, **{**extra, **{name: text for name in names}})
    for language in ("en", "hi"):
        with translation.override(language):
            words = str(exc)
        assert words.strip()
        if names:
            assert text in words


# --- (d) no free text: a sentence is not a code ---------------------------------------------


@pytest.mark.parametrize(
    "cls", [c for c in REFUSAL_CLASSES if issubclass(c, LedgerError)], ids=lambda c: c.__name__
)
def test_a_ledger_refusal_cannot_be_raised_with_a_sentence(cls):
    """The type checker refuses ``raise X("some sentence")`` (the code is a ``LedgerRefusal``);
    at run time such a sentence is not a code and fails as a fault, never shown as a reason."""
    with pytest.raises(ValueError, match="is not a valid LedgerRefusal"):
        cls("The pot kept changing; try again.")


def test_the_project_speaks_the_languages_tested():
    assert {"en", "hi"} <= dict(settings.LANGUAGES).keys()
