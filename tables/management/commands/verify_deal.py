"""``manage.py verify_deal FILE``: check a deal export (docs/deal-export.md) with the pure rules
engine alone, no database: the shoe commitment, every move replayed from the state before the
deal and the stored shoe (versions, events, the state after), the deal's result, the game's
result and every amount against the exported ledger transactions: every transaction balances,
the stake follows from the settings, every entry fee is the stake, the rejoin fees, payouts
and the fee are the engine's. Prints each difference and exits non-zero when there is any."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tables.rules import fairness
from tables.rules.errors import RulesError
from tables.rules.replay import LoggedMove, events_match, replay_moves
from tables.rules.variants import engine_for

FORMAT = "rummy-deal-export"


def _by_seat(mapping: Any) -> dict[int, int]:
    return {int(k): int(v) for k, v in dict(mapping or {}).items()}


def _wallet_amounts(tx: Mapping[str, Any]) -> dict[int, int]:
    """user id -> the amount the transaction moved on that user's wallet."""
    amounts: dict[int, int] = {}
    for entry in tx.get("entries", []):
        if entry.get("account_kind") == "wallet" and entry.get("user_id") is not None:
            user = int(entry["user_id"])
            amounts[user] = amounts.get(user, 0) + int(entry["amount"])
    return amounts


def _fee_amount(tx: Mapping[str, Any]) -> int:
    return sum(int(e["amount"]) for e in tx.get("entries", []) if e.get("account_kind") == "fees")


def verify_export(doc: Mapping[str, Any]) -> tuple[list[str], int]:
    """The differences found in an export (empty: everything follows) and the number of moves
    replayed."""
    if doc.get("format") != FORMAT or doc.get("format_version") != 1:
        return [f"not a {FORMAT} document of format_version 1"], 0
    problems: list[str] = []
    game, deal = doc["game"], doc["deal"]
    users = {int(p["seat"]): int(p["user_id"]) for p in doc.get("players", [])}

    # 1. The commitment: the revealed shoe and secret hash to what was published.
    if not deal.get("shoe_commitment"):
        problems.append("the deal has no shoe commitment")
    elif not fairness.commitment_matches(
        deal["shoe"], deal.get("shoe_secret", ""), deal["shoe_commitment"]
    ):
        problems.append("the shoe commitment does not match the revealed shoe and secret")

    # 2. Every move replayed by the engine from the state before the deal.
    engine = engine_for(game["variant"])
    try:
        settings = engine.settings_from_json(game["settings"])
        state = engine.state_from_json(deal["state_before"])
    except (RulesError, KeyError, TypeError) as exc:
        return [*problems, f"the settings or the state before the deal do not load: {exc}"], 0
    if state.settings != settings:
        problems.append("the state before the deal was not played with the game's settings")
    version = int(deal["version_before"])
    replayed: list[dict[str, Any]] = []
    count = 0
    logged: list[LoggedMove] = []
    for move in doc.get("moves", []):
        if int(move["version"]) != version + 1:
            problems.append(f"v{move['version']}: expected version {version + 1}")
        version = int(move["version"])
        payload = move.get("payload") or {}
        starts = move["action"] == "start_deal" and payload.get("deal") is not None
        if starts and int(payload["deal"]) != int(deal["number"]):
            problems.append(f"v{version}: deals deal {payload['deal']}, not this one")
        logged.append(
            LoggedMove(
                version=version,
                action=str(move["action"]),
                payload=payload,
                clock=float(move["clock"]),
                extra={"events": list(move.get("events") or [])},
            )
        )
    steps = replay_moves(engine, state, deal["shoe"], logged)
    for index in range(len(logged)):
        try:
            step = next(steps)
        except (RulesError, KeyError, TypeError, ValueError) as exc:
            failed = logged[index]
            problems.append(f"v{failed.version} {failed.action}: the engine refuses it: {exc}")
            return problems, count
        if not step.applied:
            continue
        count += 1
        state = step.state
        events = list(step.events)
        if not events_match(events, step.move.extra["events"]):
            where = f"v{step.move.version} {step.move.action}"
            problems.append(f"{where}: the events differ from the log")
        replayed.extend(dict(e) for e in events)
    after = doc.get("state_after")
    if after is not None and state.to_json() != after:
        problems.append("the state after the last move differs from the stored state")

    # 3. Results: the deal's and, on the game's last deal, the game's.
    ended = [e for e in replayed if e.get("type") == "deal_ended"]
    result = deal.get("result") or {}
    if result.get("type") == "deal_ended" and (not ended or ended[0] != result):
        problems.append("the deal's stored result is not what the replay gives")
    game_ended = [e for e in replayed if e.get("type") == "game_ended"]
    if deal.get("last_of_game") and game.get("result") and game.get("status") == "finished":
        stored = {k: v for k, v in game["result"].items() if k != "settlement"}
        if not game_ended or game_ended[0] != stored:
            problems.append("the game's stored result is not what the replay gives")

    # 4. Money: rejoin fees and the settlement against the ledger transactions.
    ledger = [tx for tx in doc.get("ledger", []) if tx.get("reverses") is None]
    used: set[int] = set()
    prefix = f"rejoin:game:{game['id']}:seat:"
    for event in (e for e in replayed if e.get("type") == "rejoined"):
        seat, amount = int(event["seat"]), int(event["amount"])
        match = next(
            (
                tx
                for tx in ledger
                if tx["id"] not in used
                and tx["kind"] == "rejoin_fee"
                and str(tx["key"]).startswith(f"{prefix}{seat}:")
                and _wallet_amounts(tx).get(users.get(seat, -1)) == -amount
            ),
            None,
        )
        if match is None:
            problems.append(f"no rejoin fee of {amount} for seat {seat} in the ledger")
        else:
            used.add(match["id"])
    if game_ended:
        problems.extend(_check_settlement(doc, replayed, game_ended[0], ledger, users))
    problems.extend(_check_transactions(doc, settings, users))
    return problems, count


def _stake_from(variant: str, settings: Any) -> int:
    """What each seat pays into the pot by the rules and the settings: the points buy-in at
    points tables, else the entry fee."""
    if variant == "points":
        return int(settings.points_buy_in)
    return int(settings.entry_fee)


def _check_transactions(
    doc: Mapping[str, Any], settings: Any, users: Mapping[int, int]
) -> list[str]:
    """Every exported transaction balances (its entries sum to zero, as double entry needs),
    the game's stake follows from its settings, and every entry fee moves exactly the stake
    from the seat's player into the pot (a refund gives exactly that back)."""
    game = doc["game"]
    problems: list[str] = []
    stake = _stake_from(game["variant"], settings)
    if int(game["stake"]) != stake:
        problems.append(f"the game's stake is {game['stake']}, its settings give {stake}")
    entry_prefix = f"entry:game:{game['id']}:seat:"
    for tx in doc.get("ledger", []):
        entries = tx.get("entries", [])
        total = sum(int(e["amount"]) for e in entries)
        label = f"transaction #{tx.get('id')} ({tx.get('kind')}, {tx.get('key')})"
        if total != 0:
            problems.append(f"{label} does not balance: its entries sum to {total}")
        if tx.get("reverses") is not None or tx.get("kind") != "entry_fee":
            continue
        key = str(tx.get("key", ""))
        if not key.startswith(entry_prefix):
            problems.append(f"{label}: an entry fee of another game")
            continue
        seat = int(key[len(entry_prefix) :].split(":")[0])
        wallets = _wallet_amounts(tx)
        pot = sum(int(e["amount"]) for e in entries if e.get("account_kind") == "pot")
        player = users.get(seat)
        if player is not None and wallets.get(player) != -stake:
            problems.append(
                f"{label}: seat {seat} paid {-wallets.get(player, 0)}, the stake is {stake}"
            )
        if pot != stake:
            problems.append(f"{label}: the pot took {pot}, the stake is {stake}")
    return problems


def _check_settlement(
    doc: Mapping[str, Any],
    replayed: list[dict[str, Any]],
    ended: Mapping[str, Any],
    ledger: list[dict[str, Any]],
    users: Mapping[int, int],
) -> list[str]:
    game = doc["game"]
    settled = [e for e in replayed if e.get("type") == "points_settled"]
    if settled:  # points: every seat gets its buy-in back plus its net
        nets = _by_seat(settled[0].get("nets"))
        payouts = {seat: int(game["stake"]) + nets.get(seat, 0) for seat in users}
        fee = int(settled[0].get("fee") or 0)
    else:
        payouts, fee = _by_seat(ended.get("payouts")), int(ended.get("fee") or 0)
    problems: list[str] = []
    stored = (game.get("result") or {}).get("settlement")
    if stored is not None and (_by_seat(stored.get("payouts")) != payouts or stored["fee"] != fee):
        problems.append("the game's stored settlement differs from the engine's amounts")
    expected: dict[int, int] = {}
    for seat, amount in payouts.items():
        if amount:
            expected[users[seat]] = expected.get(users[seat], 0) + amount
    tx = next((t for t in ledger if t["key"] == f"settle:game:{game['id']}"), None)
    if tx is None:
        if expected or fee:
            problems.append("the game ended but the ledger has no settlement")
        return problems
    paid = {u: a for u, a in _wallet_amounts(tx).items() if a}
    if paid != expected:
        problems.append(f"the ledger paid {paid}, the engine's amounts are {expected} (by user)")
    if _fee_amount(tx) != fee:
        problems.append(f"the ledger's fee is {_fee_amount(tx)}, the engine's is {fee}")
    return problems


class Command(BaseCommand):
    help = "Replay a deal export with the pure engine and check every state, result and amount."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a deal export (JSON), or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["file"]
        try:
            text = self.stdin.read() if name == "-" else Path(name).read_text()
            doc = json.loads(text)
        except (OSError, ValueError) as exc:
            raise CommandError(f"cannot read {name}: {exc}") from exc
        if not isinstance(doc, dict):
            raise CommandError(f"{name} is not a deal export")
        problems, count = verify_export(doc)
        where = f"deal {doc.get('deal', {}).get('number')} of game {doc.get('game', {}).get('id')}"
        if problems:
            for problem in problems:
                self.stdout.write(f"DIFFERENCE: {problem}")
            raise CommandError(f"{where}: {len(problems)} difference(s)")
        self.stdout.write(f"OK: {where}: commitment, {count} moves, results and amounts all follow")

    @property
    def stdin(self) -> Any:
        import sys

        return sys.stdin
