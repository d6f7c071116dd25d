"""Deal exports (docs/deal-export.md) and ``manage.py verify_deal``: every deal of a played pool
game (with a rejoin and the prizes), a points game and a classic ring game exports and verifies
with the pure engine alone; one card changed in the shoe, a changed commitment, a changed move
or a changed amount makes the check fail."""

from __future__ import annotations

import copy
import io
import itertools
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from classic_helpers import ClassicPlanter
from django.core.management import CommandError, call_command
from django.urls import reverse
from tables_testkit import Planter, TableDriver, plant, plant_and_play, play

from accounts.services import user_add_to_support
from tables import services
from tables.management.commands.verify_deal import verify_export
from tables.models import Deal, DealAccess, GameStatus, TableTemplate
from tables.rules.replay import events_match
from tables.services import _context
from tables.support.export import deal_export

ROOT = Path(__file__).resolve().parents[2]

RUMMY_HAND = "4H 5H 6H 7H 9S 9D 9C JC QC KC"
RUMMY_MELDS = [["4H", "5H", "6H", "7H"], ["9S", "9D", "9C"], ["JC", "QC", "KC"]]


def exports(game: Any) -> list[dict[str, Any]]:
    """Every deal of ``game`` exported, through JSON text as a download would be."""
    return [
        json.loads(json.dumps(deal_export(deal=deal), default=str))
        for deal in Deal.objects.filter(game=game).order_by("number")
    ]


def verify_file(tmp_path: Path, doc: dict[str, Any]) -> str:
    path = tmp_path / f"deal-{doc['deal']['id']}.json"
    path.write_text(json.dumps(doc))
    out = io.StringIO()
    call_command("verify_deal", str(path), stdout=out)
    return out.getvalue()


@pytest.fixture
def pool_game(
    seated: Callable[..., TableDriver], planter: Planter, toss: Callable[[int], None]
) -> TableDriver:
    """A 101 pool game of three deals: seat 3 goes out and rejoins, then seat 1 wins."""
    toss(1)
    first = {1: 0, 2: 34, 3: 61}
    planned = plant(planter, first)
    t = seated(3)
    play(t, *planned, first)
    plant_and_play(t, planter, {1: 0, 2: 20, 3: 40})
    t.act(3, "rejoin")
    plant_and_play(t, planter, {1: 0, 2: 50, 3: 50})
    assert t.game().status == GameStatus.FINISHED
    return t


def test_every_deal_of_a_pool_game_exports_and_verifies(
    pool_game: TableDriver, tmp_path: Path
) -> None:
    game = pool_game.game()
    docs = exports(game)
    assert [d["deal"]["number"] for d in docs] == [1, 2, 3]
    for doc in docs:
        assert verify_export(doc)[0] == []
        assert "OK: deal" in verify_file(tmp_path, doc)
    # The parts join up: each deal's state after is the next deal's state before.
    for before, after in itertools.pairwise(docs):
        assert before["state_after"] == after["deal"]["state_before"]
    # What the export holds: settings, shoe, secret, moves with time and actor, results, ledger.
    last = docs[-1]
    assert last["game"]["settings"] == game.settings and last["deal"]["last_of_game"]
    assert last["game"]["result"]["settlement"] == {"payouts": {"1": 3600}, "fee": 400}
    assert len(last["deal"]["shoe"]["shoe"]["cards"]) == 106
    assert len(last["deal"]["shoe_secret"]) == 64 and len(last["deal"]["shoe_commitment"]) == 64
    actions = [m["action"] for m in last["moves"]]
    assert actions[0] == "start_deal" and "declare" in actions
    assert all(isinstance(m["clock"], float) and m["at"] for m in last["moves"])
    declare = next(m for m in last["moves"] if m["action"] == "declare")
    assert declare["actor"] == pool_game.users[1].username and declare["seat"] == 1
    keys = {tx["key"] for tx in last["ledger"]}
    assert f"settle:game:{game.pk}" in keys and f"rejoin:game:{game.pk}:seat:3:1" in keys
    # Deal 2's part of the log ends with seat 3's rejoin (its money is checked there).
    rejoin_move = docs[1]["moves"][-1]
    assert rejoin_move["action"] == "rejoin" and rejoin_move["seat"] == 3


def test_a_deal_logged_before_the_shows_verdict_had_a_code_still_verifies(
    pool_game: TableDriver,
) -> None:
    """A show logged before the engine gave its verdict a code (the ``declared`` event without
    ``code``, ``held``, ``group``) replays to the same events but for those fields: the export
    verifies (support's replay compares the same way: ``events_match``); any other difference
    is still one."""
    doc = exports(pool_game.game())[-1]
    old = copy.deepcopy(doc)
    stripped = 0
    for move in old["moves"]:
        for event in move.get("events") or []:
            if event.get("type") == "declared":
                for name in ("code", "held", "group"):
                    stripped += event.pop(name, None) is not None
    assert stripped >= 1
    assert verify_export(old)[0] == []
    changed = copy.deepcopy(old)
    declared = next(
        e for m in changed["moves"] for e in m.get("events") or [] if e["type"] == "declared"
    )
    declared["valid"] = not declared["valid"]
    assert any("events differ from the log" in p for p in verify_export(changed)[0])
    replayed = [dict(e) for m in doc["moves"] for e in m.get("events") or []]
    logged = [e for m in old["moves"] for e in m.get("events") or []]
    assert events_match(replayed, logged) and events_match(replayed, replayed)
    assert not events_match(replayed, logged[:-1])


def test_a_points_game_and_a_classic_game_export_and_verify(
    seated: Callable[..., TableDriver],
    planter: Planter,
    toss: Callable[[int], None],
    template_factory: Callable[..., TableTemplate],
    players: list[Any],
    clock: Any,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    toss(1)
    first = {1: 0, 2: 34, 3: 48}
    planned = plant(planter, first)
    points = seated(3, variant="points", point_value=10)
    play(points, *planned, first)
    game = points.game()
    assert game.status == GameStatus.FINISHED
    (doc,) = exports(game)
    assert verify_export(doc)[0] == []
    assert "OK: deal 1" in verify_file(tmp_path, doc)

    classic_planter = ClassicPlanter()
    monkeypatch.setattr(_context, "deal_shoe_new", classic_planter)
    for seat in (1, 2):
        others = "2S 2H 2C 3S 3H 3D 3C 4S 4D 4C" if seat == 1 else "2S 2H 2D 3S 3H 3D 3C 4H 4S 4D"
        hands = {seat: RUMMY_HAND, 3 - seat: others}
        classic_planter.add(hands=hands, open_card="8S", stock_top="KD")
    template = template_factory(variant="classic", seats_max=2, entry_fee=1000, hands_count=2)
    table = services.table_create(template=template)
    for i in (0, 1):
        services.table_join(table=table, user=players[3 + i], seat_no=i + 1)
    t = TableDriver(table, {1: players[3], 2: players[4]}, clock)
    for seat in (1, 2):
        if seat == 2:
            t.fire()
        t.act(seat, "pick_closed")
        t.act(seat, "lay_down", melds=RUMMY_MELDS)
        t.act(seat, "discard", card="KD")
    assert t.game().status == GameStatus.FINISHED
    docs = exports(t.game())
    assert len(docs) == 2
    for doc in docs:
        assert verify_export(doc)[0] == []
    assert "seed" in docs[0]["deal"]["shoe"]


def _tamper_card(doc: dict[str, Any]) -> dict[str, Any]:
    bad = copy.deepcopy(doc)
    cards = bad["deal"]["shoe"]["shoe"]["cards"]
    i = next(i for i, c in enumerate(cards) if c != cards[0])
    cards[0], cards[i] = cards[i], cards[0]  # the same cards, two of them swapped
    return bad


def test_one_card_changed_in_the_shoe_fails(pool_game: TableDriver, tmp_path: Path) -> None:
    doc = exports(pool_game.game())[0]
    problems, _ = verify_export(_tamper_card(doc))
    assert "the shoe commitment does not match the revealed shoe and secret" in problems
    assert any("events differ" in p or "refuses" in p for p in problems)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_tamper_card(doc)))
    out = io.StringIO()
    with pytest.raises(CommandError, match="difference"):
        call_command("verify_deal", str(path), stdout=out)
    assert "DIFFERENCE: the shoe commitment does not match" in out.getvalue()


def test_a_changed_commitment_secret_move_or_amount_fails(pool_game: TableDriver) -> None:
    doc = exports(pool_game.game())[-1]
    bad = copy.deepcopy(doc)
    bad["deal"]["shoe_commitment"] = "0" * 64
    assert verify_export(bad)[0] == [
        "the shoe commitment does not match the revealed shoe and secret"
    ]
    bad = copy.deepcopy(doc)
    bad["deal"]["shoe_secret"] = "f" * 64
    assert verify_export(bad)[0] == [
        "the shoe commitment does not match the revealed shoe and secret"
    ]
    bad = copy.deepcopy(doc)
    discard = next(m for m in bad["moves"] if m["action"] == "discard")
    discard["events"][0]["card"] = "2C" if discard["events"][0]["card"] != "2C" else "3C"
    assert any("events differ from the log" in p for p in verify_export(bad)[0])
    bad = copy.deepcopy(doc)
    settle = next(tx for tx in bad["ledger"] if tx["key"].startswith("settle:"))
    wallet = next(e for e in settle["entries"] if e["account_kind"] == "wallet")
    wallet["amount"] += 1
    assert any("the ledger paid" in p for p in verify_export(bad)[0])
    bad = copy.deepcopy(doc)
    bad["game"]["result"]["settlement"]["fee"] = 0
    assert any("stored settlement differs" in p for p in verify_export(bad)[0])


def test_the_check_deal_script_recomputes_the_commitment(
    pool_game: TableDriver, tmp_path: Path
) -> None:
    doc = exports(pool_game.game())[0]
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(doc))
    bad.write_text(json.dumps(_tamper_card(doc)))
    script = [sys.executable, str(ROOT / "scripts" / "check_deal")]
    ok = subprocess.run([*script, str(good)], capture_output=True, text=True, check=False)
    assert ok.returncode == 0 and "MATCH" in ok.stdout
    assert doc["deal"]["shoe_commitment"] in ok.stdout
    no = subprocess.run([*script, str(bad)], capture_output=True, text=True, check=False)
    assert no.returncode == 1 and "MISMATCH" in no.stdout
    shoe = doc["deal"]["shoe"]["shoe"]
    pasted = [
        "--cards",
        " ".join(shoe["cards"]),
        "--keys",
        ";".join(",".join(map(str, row)) for row in shoe["reshuffle_keys"]),
        "--secret",
        doc["deal"]["shoe_secret"],
        "--commitment",
        doc["deal"]["shoe_commitment"],
    ]
    assert subprocess.run([*script, *pasted], capture_output=True, check=False).returncode == 0


def test_support_downloads_a_finished_deal_and_the_download_is_logged(
    pool_game: TableDriver, client: Any, user_factory: Callable[..., Any]
) -> None:
    agent = user_factory(username="exporter")
    user_add_to_support(user=agent)
    client.force_login(agent)
    deal = Deal.objects.get(game=pool_game.game(), number=2)
    response = client.get(reverse("support_deal_export", args=[deal.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="deal-{deal.pk}.json"'
    doc = json.loads(response.content)
    assert doc["format"] == "rummy-deal-export" and verify_export(doc)[0] == []
    assert DealAccess.objects.filter(deal=deal, user=agent, kind="export").count() == 1
    client.force_login(pool_game.users[1])
    assert client.get(reverse("support_deal_export", args=[deal.pk])).status_code == 403


def test_a_live_deal_is_not_exported(
    seated: Callable[..., TableDriver], client: Any, user_factory: Callable[..., Any]
) -> None:
    t = seated(2)
    deal = Deal.objects.get(game=t.game())
    with pytest.raises(ValueError, match="still being played"):
        deal_export(deal=deal)
    agent = user_factory()
    user_add_to_support(user=agent)
    client.force_login(agent)
    assert client.get(reverse("support_deal_export", args=[deal.pk])).status_code == 409
    assert not DealAccess.objects.exists()


def test_an_entry_fee_changed_by_minus_100_fails(pool_game: TableDriver, tmp_path: Path) -> None:
    """Issue 21, point 7: one entry fee's wallet leg changed by -100 minor units (the
    transaction no longer balances), and both legs changed (it balances, but is not the
    stake the settings give): each is a difference, and the command exits non-zero."""
    doc = exports(pool_game.game())[0]
    assert verify_export(doc)[0] == []
    unbalanced = copy.deepcopy(doc)
    entry = next(tx for tx in unbalanced["ledger"] if tx["kind"] == "entry_fee")
    wallet = next(e for e in entry["entries"] if e["account_kind"] == "wallet")
    wallet["amount"] -= 100
    problems = verify_export(unbalanced)[0]
    assert any("does not balance: its entries sum to -100" in p for p in problems), problems
    assert any("paid 1100, the stake is 1000" in p for p in problems), problems
    path = tmp_path / "unbalanced.json"
    path.write_text(json.dumps(unbalanced))
    out = io.StringIO()
    with pytest.raises(CommandError, match="difference"):
        call_command("verify_deal", str(path), stdout=out)
    assert "does not balance" in out.getvalue() and "OK" not in out.getvalue()

    balanced = copy.deepcopy(doc)
    entry = next(tx for tx in balanced["ledger"] if tx["kind"] == "entry_fee")
    for leg in entry["entries"]:
        leg["amount"] += 100 if leg["account_kind"] == "wallet" else -100
    problems = verify_export(balanced)[0]
    assert not any("does not balance" in p for p in problems)
    assert any("paid 900, the stake is 1000" in p for p in problems), problems
    assert any("the pot took 900" in p for p in problems), problems
    # The stake itself must follow from the settings.
    restaked = copy.deepcopy(doc)
    restaked["game"]["stake"] = 900
    assert any("its settings give 1000" in p for p in verify_export(restaked)[0])
