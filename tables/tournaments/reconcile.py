"""Tournaments' part of the ledger reconciliation (``reconcile_ledger``).

* pot facts (``ledger.reconcile``): every tournament that took money has a pot
  ``tournament:<id>``; finished, it was paid out once and holds 0; cancelled, it was refunded
  (no payout) and holds 0;
* ``tournament_entries``: every registration that paid has exactly one entry fee of its amount
  in the pot, and a player who unregistered got exactly that back;
* ``tournament_money``: a finished tournament's payout gave each player the prize recorded on
  their registration and the house the fee frozen at the start; the guarantee's top-ups into
  the pot net to the frozen top-up (finished) or to 0 (cancelled).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from ledger.models import AccountKind, Entry, TransactionKind
from ledger.reconcile import (
    Discrepancy,
    PotFacts,
    pot_facts_provider_register,
    reconcile_check_register,
)
from tables.tournaments.models import Registration, RegistrationStatus, Tournament, TournamentStatus

PROVIDER_NAME = "tournaments"


def _money_tournaments() -> list[Tournament]:
    return [
        t
        for t in Tournament.objects.order_by("pk")
        if t.entry_fee > 0 or t.guarantee > 0 or (t.frozen or {}).get("top_up")
    ]


def tournament_pot_facts() -> Iterator[PotFacts]:
    for t in _money_tournaments():
        finished = t.status == TournamentStatus.FINISHED and bool(
            (t.frozen or {}).get("gross") or (t.frozen or {}).get("top_up")
        )
        yield PotFacts(
            ref=t.pot_ref,
            seat_user_ids=(),
            finished=finished,
            cancelled=t.status == TournamentStatus.CANCELLED,
        )


def _legs(ref: str) -> list[tuple[str, str, str, int | None, int]]:
    """(kind, idempotency key, account kind, user id, amount) of every unreversed leg."""
    return list(
        Entry.objects.filter(
            transaction__ref=ref, transaction__reversed_by__isnull=True
        ).values_list(
            "transaction__kind",
            "transaction__idempotency_key",
            "account__kind",
            "account__user_id",
            "amount",
        )
    )


def check_tournament_entries() -> Iterator[Discrepancy]:
    for t in _money_tournaments():
        legs = _legs(t.pot_ref)
        wallet_by_key = {
            key: amount for kind, key, acc, _, amount in legs if acc == AccountKind.WALLET
        }
        for reg in Registration.objects.filter(tournament=t, entry_paid__gt=0):
            entry = wallet_by_key.get(f"entry:tournament:{t.pk}:reg:{reg.pk}")
            if entry != -reg.entry_paid:
                yield Discrepancy(
                    "tournament_entries",
                    f"{t.pot_ref}: registration {reg.pk} paid {reg.entry_paid} but the ledger "
                    f"holds {entry and -entry}",
                )
            refund = wallet_by_key.get(f"refund:tournament:{t.pk}:reg:{reg.pk}")
            expected = reg.entry_paid if reg.status == RegistrationStatus.UNREGISTERED else None
            if refund != expected:
                yield Discrepancy(
                    "tournament_entries",
                    f"{t.pot_ref}: registration {reg.pk} ({reg.status}) was refunded {refund}, "
                    f"expected {expected}",
                )


def check_tournament_money() -> Iterator[Discrepancy]:
    for t in _money_tournaments():
        legs = _legs(t.pot_ref)
        frozen = t.frozen or {}
        top_up = sum(
            amount
            for kind, _, acc, _, amount in legs
            if kind == TransactionKind.GUARANTEE and acc == AccountKind.POT
        )
        expected_top_up = (
            int(frozen.get("top_up", 0)) if t.status != TournamentStatus.CANCELLED else 0
        )
        if top_up != expected_top_up:
            yield Discrepancy(
                "tournament_money",
                f"{t.pot_ref}: the house put {top_up} into the pot, expected {expected_top_up}",
            )
        if t.status != TournamentStatus.FINISHED:
            continue
        paid: dict[int, int] = defaultdict(int)
        fee = 0
        for kind, _, acc, user_id, amount in legs:
            if kind != TransactionKind.PAYOUT:
                continue
            if acc == AccountKind.WALLET and user_id is not None:
                paid[user_id] += amount
            elif acc == AccountKind.FEES:
                fee += amount
        expected: dict[int, int] = defaultdict(int)
        for user_id, prize in Registration.objects.filter(tournament=t, prize__gt=0).values_list(
            "user_id", "prize"
        ):
            expected[user_id] += prize or 0  # (prize__gt=0: never None here)
        if dict(paid) != dict(expected):
            yield Discrepancy(
                "tournament_money",
                f"{t.pot_ref}: prizes paid {dict(paid)} differ from the ranks' {dict(expected)}",
            )
        if fee != int(frozen.get("fee", 0)):
            yield Discrepancy(
                "tournament_money", f"{t.pot_ref}: fee paid {fee}, frozen {frozen.get('fee')}"
            )


def register() -> None:
    pot_facts_provider_register(name=PROVIDER_NAME, provider=tournament_pot_facts)
    reconcile_check_register(name="tournament_entries", check=check_tournament_entries)
    reconcile_check_register(name="tournament_money", check=check_tournament_money)
