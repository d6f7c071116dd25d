"""Fixtures for the ledger tests."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest

from ledger import services
from ledger.models import Account, Entry, Transaction

_refs = itertools.count(1)
_keys = itertools.count(1)


def ledger_snapshot() -> tuple[Any, ...]:
    """Everything a posting could change: rows and every account's state."""
    return (
        Transaction.objects.count(),
        Entry.objects.count(),
        sorted(
            Account.objects.values_list(
                "id", "kind", "currency", "user_id", "ref", "balance", "closed_at"
            )
        ),
    )


@pytest.fixture
def payments_sandbox(settings: Any) -> None:
    """Money games on, paid through the sandbox provider: signed with a known secret, every
    callback on time and sent once."""
    settings.PAYMENTS_SANDBOX_SECRET = "test-secret"
    settings.PAYMENTS_SANDBOX_LATE_RATE = 0.0
    settings.PAYMENTS_SANDBOX_DUPLICATE_RATE = 0.0
    settings.MONEY_GAMES = True


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    """The ledger tests create many users; the real hasher is deliberately slow."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _ledger_checks_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ledger tests use made-up game references ("game:1") that no game owner knows of:
    reconcile them with the ledger's own checks and the providers a test registers itself."""
    from django.dispatch import Signal

    from ledger import reconcile

    monkeypatch.setattr(reconcile, "reconcile_check_signal", Signal())
    monkeypatch.setattr(reconcile, "pot_facts_signal", Signal())


@pytest.fixture
def snapshot() -> Callable[[], tuple[Any, ...]]:
    return ledger_snapshot


@pytest.fixture
def staff(user_factory: Callable[..., Any]) -> Any:
    return user_factory(is_staff=True)


@pytest.fixture
def new_ref() -> Callable[[], str]:
    return lambda: f"game:{next(_refs)}"


@pytest.fixture
def key() -> Callable[[str], str]:
    def make(prefix: str = "k") -> str:
        return f"{prefix}:{next(_keys)}"

    return make


@pytest.fixture
def fund(key: Callable[[str], str]) -> Callable[..., Transaction]:
    def do(user: Any, amount: int, currency: str = "cash") -> Transaction:
        return services.wallet_deposit(
            user=user, currency=currency, amount=amount, idempotency_key=key("deposit")
        )

    return do
