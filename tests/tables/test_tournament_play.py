"""Tournaments through the services with planted shoes: a tie at the cut (a tie-breaker game at
the same table), shared places and their leftover unit, a tie for 1st (the final's tie-breaker
deal), a guarantee topped up by the house, and a director that dies in the middle of a step and
resumes with nothing done or paid twice."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from tables_testkit import balance
from tourney_kit import advance, chips, deals_template, fixed_draw, plant, play_deal, table_game

from ledger import selectors as ledger_selectors
from ledger.models import Account, AccountKind, Transaction, TransactionKind
from tables.models import GameStatus
from tables.services import game_arranged
from tables.tournaments import director
from tables.tournaments import services as tourney
from tables.tournaments.models import (
    Registration,
    Round,
    RoundGame,
    RoundSeat,
    RoundTable,
    TournamentStatus,
)

pytestmark = pytest.mark.django_db


def _sit_and_go(n: int, **fields: Any) -> Any:
    if "template" not in fields:
        fields["template"] = deals_template()
    fields.setdefault("fee_bps", 0)
    return tourney.tournament_create_sit_and_go(
        name=f"Sit & go of {n}", players_min=n, players_max=n, **fields
    )


def _ranks(t: Any) -> dict[int, tuple[int | None, int | None, int | None]]:
    return {
        r.user_id: (r.rank_first, r.rank_last, r.prize)
        for r in Registration.objects.filter(tournament=t)
    }


def test_tie_at_the_cut_and_shared_places(
    players: list[Any], user_factory: Any, clock: Any, planter: Any, monkeypatch: Any, client: Any
) -> None:
    """5 players, S = 4, Q = 2, one deal a round: tables of 3 and a bye of 2. At the table of 3
    the 2nd and 3rd finish equal: they play a tie-breaker at that table. The final of 4 leaves
    two players equal at 2nd, who share the 2nd and 3rd prizes."""
    fixed_draw(monkeypatch)
    users = players[:5]
    t = _sit_and_go(
        5,
        entry_fee=999,
        seats_per_table=4,
        qualifiers_per_table=2,
        deals_per_round=1,
        prize_table=[{"players": [5, 5], "shares": [50, 30, 20]}],
    )
    for user in users[:4]:
        tourney.tournament_register(tournament=t, user=user)
    plant(planter, {1: 0, 2: 30, 3: 30})
    tourney.tournament_register(tournament=t, user=users[4])
    advance(t, clock)
    table1, bye = RoundTable.objects.filter(round__tournament=t).order_by("number")
    assert (table1.seats.count(), table1.is_bye, bye.seats.count(), bye.is_bye) == (
        3,
        False,
        2,
        True,
    )
    g = table_game(t, 1, 1)
    play_deal(g, planter, clock, {1: 0, 2: 30, 3: 30})
    assert chips(g) == {1: 140, 2: 50, 3: 50}
    plant(planter, {1: 0, 2: 40})  # the tie-breaker: users[1] shows, users[2] counts 40
    advance(t, clock)
    tiebreak = RoundGame.objects.get(table=table1, kind="tiebreak")
    assert tiebreak.game.table_id == g.table_id  # at the same table
    assert tiebreak.players == [
        Registration.objects.get(tournament=t, user=users[1]).pk,
        Registration.objects.get(tournament=t, user=users[2]).pk,
    ]
    assert tiebreak.game.settings["deals_count"] == 1
    assert Round.objects.get(tournament=t, number=1).status == "playing"
    play_deal(tiebreak.game, planter, clock, {1: 0, 2: 40})
    advance(t, clock)
    through = {
        s.registration.user_id: s.went_through
        for s in RoundSeat.objects.filter(table=table1).select_related("registration")
    }
    assert through == {users[0].pk: True, users[1].pk: True, users[2].pk: False}
    # The tie-breaker's chips count in the round: users[1] 50 + 40, users[2] 50 - 40.
    recorded = {
        s.registration.user_id: s.chips
        for s in RoundSeat.objects.filter(table=table1).select_related("registration")
    }
    assert recorded == {users[0].pk: 140, users[1].pk: 90, users[2].pk: 10}
    # The final of 4 (users 0, 1, 3, 4 in registration order) plays 4 deals (one a player,
    # whatever the rounds' setting of 1): users[0] shows each time, users[1] and users[3]
    # count 30 each (equal: 2nd and 3rd shared), users[4] 50.
    plant(planter, {1: 0, 2: 30, 3: 30, 4: 50})
    clock.advance(61)
    advance(t, clock)
    final = table_game(t, 2, 1)
    assert final.settings["deals_count"] == 4
    for _ in range(4):
        play_deal(final, planter, clock, {1: 0, 2: 30, 3: 30, 4: 50})
    assert chips(final) == {1: 760, 2: 200, 3: 200, 4: 120}
    advance(t, clock)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    # Pool 4,995: 50 % 2,497 (+1 left over), 30 % 1,498, 20 % 999; 2nd and 3rd share 2,497:
    # 1,249 to users[1] (registered first), 1,248 to users[3].
    assert _ranks(t) == {
        users[0].pk: (1, 1, 2_498),
        users[1].pk: (2, 3, 1_249),
        users[3].pk: (2, 3, 1_248),
        users[4].pk: (4, 4, 0),
        users[2].pk: (5, 5, 0),
    }
    assert ledger_selectors.pot_balance(pot_ref=t.pot_ref, currency="cash") == 0
    # The results say what decided each place.
    client.force_login(users[2])
    results = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert "Won the final with 760 chips" in results
    assert "The final: 200 chips (equal: the places are shared)" in results
    assert "Out in round 1: place 3 at table 1, 10 chips" in results
    # My games and the statistics: places by chips, and the tournament's money (the entry, the
    # prize) on the player's last game of it, as the ledger has it.
    from tables.history import selectors as history

    def rows(user: Any) -> list[dict[str, Any]]:
        return history.game_rows(user=user, games=history.games_of_player(user=user))

    out = rows(users[2])  # newest first: the tie-breaker, then the round's game
    assert [(r["place"], r["chips"], r["paid_in"], r["paid_out"]) for r in out] == [
        (2, 40, 999, 0),
        (2, 50, 0, 0),
    ]
    winner = rows(users[0])
    assert [(r["place"], r["chips"], r["paid_in"], r["paid_out"]) for r in winner] == [
        (1, 760, 999, 2_498),
        (1, 140, 0, 0),
    ]
    for user in users:
        (stats,) = history.player_stats(user=user)
        registration = Registration.objects.get(tournament=t, user=user)
        won = (registration.prize or 0) - registration.entry_paid
        assert stats.money_won - stats.money_lost == won == balance(user) - 100_000


def test_a_round_table_whose_leaders_tie_with_the_cut_clear_plays_no_tie_breaker(
    players: list[Any], clock: Any, planter: Any, monkeypatch: Any, client: Any
) -> None:
    """Section 10: a round table plays a tie-breaker only for the cut. Two leaders equal at
    1st with Q = 2 both go through (sharing 1st place at the table); nothing more is played."""
    fixed_draw(monkeypatch)
    users = players[:5]
    t = _sit_and_go(5, seats_per_table=4, qualifiers_per_table=2, deals_per_round=2)
    for user in users[:4]:
        tourney.tournament_register(tournament=t, user=user)
    plant(planter, {1: 0, 2: 40, 3: 40})
    tourney.tournament_register(tournament=t, user=users[4])
    advance(t, clock)
    table1 = RoundTable.objects.get(round__tournament=t, number=1)
    g = table_game(t, 1, 1)
    play_deal(g, planter, clock, {1: 0, 2: 40, 3: 40})
    play_deal(g, planter, clock, {1: 40, 2: 0, 3: 40})
    assert chips(g) == {1: 200, 2: 200, 3: 80}
    g.refresh_from_db()
    assert g.status == GameStatus.FINISHED  # no tie-breaker deal in the game
    advance(t, clock)
    assert not RoundGame.objects.filter(table=table1, kind="tiebreak").exists()
    seats = {
        s.registration.user_id: (s.went_through, s.place, s.chips)
        for s in RoundSeat.objects.filter(table=table1).select_related("registration")
    }
    assert seats == {
        users[0].pk: (True, 1, 200),
        users[1].pk: (True, 1, 200),
        users[2].pk: (False, 3, 80),
    }
    # The table's result speaks of the tournament: the knocked-out player's verdict and
    # place, who went through, and when the next round starts (no money, no "Game over").
    url = reverse("tournaments:table_result", args=[g.table_id])
    client.force_login(users[2])
    out = client.get(url).content.decode()
    assert "You are out of the tournament: place 3 at this table with 80 chips." in out
    assert out.count(">through<") == 2 and "The next round starts in" in out
    assert "Winnings" not in out and reverse("tournaments:detail", args=[t.pk]) in out
    client.force_login(users[0])
    assert "You go through to round 2." in client.get(url).content.decode()
    page = client.get(reverse("table", args=[g.table_id])).content.decode()
    assert "This table's game is over" in page and "Game over" not in page
    assert "Winnings are in your wallet" not in page


def _heads_up(players: list[Any], planter: Any, clock: Any, **fields: Any) -> Any:
    """Two players, S = 2, Q = 1, 2 deals: the final at once. The first deal is planted."""
    t = _sit_and_go(2, seats_per_table=2, qualifiers_per_table=1, deals_per_round=2, **fields)
    tourney.tournament_register(tournament=t, user=players[0])
    plant(planter, {1: 0, 2: 40})
    tourney.tournament_register(tournament=t, user=players[1])
    advance(t, clock)
    return t


def test_tie_for_first_plays_tie_breaker_deals_and_the_guarantee_tops_up(
    players: list[Any], clock: Any, planter: Any, monkeypatch: Any
) -> None:
    fixed_draw(monkeypatch)
    t = _heads_up(players, planter, clock, entry_fee=1_000, fee_bps=1_000, guarantee=5_000)
    t.refresh_from_db()
    # Entries 2,000, fee 200, 1,800 left: the house tops the pool up by 3,200 to 5,000.
    assert (t.frozen["gross"], t.frozen["fee"], t.frozen["top_up"], t.frozen["pool"]) == (
        2_000,
        200,
        3_200,
        5_000,
    )
    assert ledger_selectors.pot_balance(pot_ref=t.pot_ref, currency="cash") == 5_200
    promotions = Account.objects.get(kind=AccountKind.PROMOTIONS, currency="cash")
    assert promotions.balance == -3_200
    g = table_game(t, 1, 1)
    play_deal(g, planter, clock, {1: 0, 2: 40})
    play_deal(g, planter, clock, {1: 40, 2: 0})
    assert chips(g) == {1: 160, 2: 160}
    g.refresh_from_db()
    assert g.status == GameStatus.RUNNING  # equal at the top: a tie-breaker deal
    play_deal(g, planter, clock, {1: 30, 2: 0})
    g.refresh_from_db()
    assert g.status == GameStatus.FINISHED
    advance(t, clock)
    assert _ranks(t) == {players[1].pk: (1, 1, 5_000), players[0].pk: (2, 2, 0)}
    assert balance(players[1]) == 100_000 - 1_000 + 5_000
    assert ledger_selectors.pot_balance(pot_ref=t.pot_ref, currency="cash") == 0
    fees = Account.objects.get(kind=AccountKind.FEES, currency="cash")
    assert fees.balance == 200
    # The tournament's table is an ordinary one: each of its deals (the tie-breaker too)
    # exports and verifies with the pure engine alone.
    import json

    from tables.management.commands.verify_deal import verify_export
    from tables.models import Deal
    from tables.support.export import deal_export

    deals = list(Deal.objects.filter(game=g).order_by("number"))
    assert len(deals) == 3
    for deal in deals:
        doc = json.loads(json.dumps(deal_export(deal=deal), default=str))
        problems, replayed = verify_export(doc)
        assert problems == [] and replayed > 0


class WorkerKilled(RuntimeError):
    pass


def test_a_director_killed_mid_step_resumes_and_pays_once(
    players: list[Any],
    clock: Any,
    planter: Any,
    monkeypatch: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    fixed_draw(monkeypatch)
    t = _heads_up(players, planter, clock, entry_fee=1_000, fee_bps=1_000)
    g = table_game(t, 1, 1)
    play_deal(g, planter, clock, {1: 0, 2: 40})
    with django_capture_on_commit_callbacks(execute=True):
        play_deal(g, planter, clock, {1: 0, 2: 20})  # the game ends: its tournament is woken
    t.refresh_from_db()
    assert t.next_step_at is not None and t.next_step_at.timestamp() <= clock.t
    pay = tourney.prizes_pay_out

    def pay_then_die(*args: Any, **kwargs: Any) -> None:
        pay(*args, **kwargs)
        raise WorkerKilled("the worker was killed after posting the prizes")

    monkeypatch.setattr(tourney, "prizes_pay_out", pay_then_die)
    with pytest.raises(WorkerKilled):
        advance(t, clock)
    t.refresh_from_db()
    # The step's transaction rolled back: no prize, no rank, the pot still full.
    assert t.status == TournamentStatus.RUNNING
    assert not Transaction.objects.filter(ref=t.pot_ref, kind=TransactionKind.PAYOUT).exists()
    assert ledger_selectors.pot_balance(pot_ref=t.pot_ref, currency="cash") == 2_000
    assert Registration.objects.filter(tournament=t, prize__isnull=False).count() == 0
    monkeypatch.setattr(tourney, "prizes_pay_out", pay)
    # The sweep finds it due (woken when the game ended) and finishes it; twice does nothing.
    assert director.tournaments_sweep(now=clock.t) >= 1
    assert director.tournaments_sweep(now=clock.t + 3_600) == 0
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    assert Transaction.objects.filter(ref=t.pot_ref, kind=TransactionKind.PAYOUT).count() == 1
    assert balance(players[0]) == 100_000 - 1_000 + 1_800


def test_a_director_killed_while_seating_a_round_seats_it_once(
    players: list[Any], clock: Any, planter: Any, monkeypatch: Any
) -> None:
    fixed_draw(monkeypatch)
    t = _sit_and_go(4, entry_fee=500, seats_per_table=2, qualifiers_per_table=1)
    for user in players[:4]:
        tourney.tournament_register(tournament=t, user=user)
    opened = game_arranged  # what the director calls (it imports the service by name)
    calls: list[int] = []

    def die_on_second(**kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 2:
            raise WorkerKilled("killed between the two tables of round 1")
        return opened(**kwargs)

    monkeypatch.setattr(director, "game_arranged", die_on_second)
    with pytest.raises(WorkerKilled):
        advance(t, clock)
    t.refresh_from_db()
    assert t.status == TournamentStatus.REGISTERING
    assert not Round.objects.filter(tournament=t).exists()
    assert not RoundGame.objects.filter(table__round__tournament=t).exists()
    monkeypatch.setattr(director, "game_arranged", opened)
    advance(t, clock)
    advance(t, clock)
    assert Round.objects.filter(tournament=t).count() == 1
    assert RoundGame.objects.filter(table__round__tournament=t).count() == 2
    # Both games are running, nothing in the pot moved but the four entries.
    assert ledger_selectors.pot_balance(pot_ref=t.pot_ref, currency="cash") == 2_000
    staff = players[5]
    staff.is_staff = True
    staff.save()
    tourney.tournament_cancel(tournament=t, staff_user=staff, reason="test over")


def test_staff_cancel_a_running_guaranteed_tournament(
    players: list[Any], clock: Any, planter: Any, monkeypatch: Any
) -> None:
    fixed_draw(monkeypatch)
    t = _heads_up(players, planter, clock, entry_fee=1_000, fee_bps=1_000, guarantee=5_000)
    promotions = Account.objects.get(kind=AccountKind.PROMOTIONS, currency="cash")
    assert promotions.balance == -3_200
    staff = players[5]
    staff.is_staff = True
    staff.save()
    tourney.tournament_cancel(tournament=t, staff_user=staff, reason="Server fault")
    promotions.refresh_from_db()
    assert promotions.balance == 0  # the top-up went back to the house
    assert balance(players[0]) == 100_000 and balance(players[1]) == 100_000
    assert ledger_selectors.pot_balance(pot_ref=t.pot_ref, currency="cash") == 0
    assert table_game(t, 1, 1).status == GameStatus.CANCELLED


def test_the_reconciliation_finds_a_prize_that_was_not_paid(
    players: list[Any], clock: Any, planter: Any, monkeypatch: Any, allow_discrepancies: None
) -> None:
    from tables.reconcile import reconcile

    fixed_draw(monkeypatch)
    t = _heads_up(players, planter, clock, entry_fee=1_000, fee_bps=1_000)
    g = table_game(t, 1, 1)
    play_deal(g, planter, clock, {1: 0, 2: 40})
    play_deal(g, planter, clock, {1: 0, 2: 20})
    advance(t, clock)
    assert reconcile().ok
    Registration.objects.filter(tournament=t, user=players[1]).update(prize=1)
    found = [d for d in reconcile().discrepancies if d.check == "tournament_money"]
    assert found and "differ from the ranks" in found[0].message
