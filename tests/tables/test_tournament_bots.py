"""Tournaments played by computer players: a practice sit & go that one person registers
for and computer players fill after the people-first wait, played to its end with the person
away (their turns run out); the heads-up knockout of 5 with its byes."""

from __future__ import annotations

from typing import Any

import pytest
from tables_testkit import balance
from tourney_kit import drive, practice_sit_and_go

from ledger import selectors as ledger_selectors
from tables.tournaments import director
from tables.tournaments import services as tourney
from tables.tournaments.models import (
    Registration,
    Round,
    RoundGame,
    RoundTable,
    TournamentStatus,
)

pytestmark = pytest.mark.django_db


def test_heads_up_knockout_of_five_with_byes(player: Any, clock: Any) -> None:
    t = practice_sit_and_go(5, 2, 1)
    tourney.tournament_register(tournament=t, user=player)
    assert director.tournament_advance(tournament_id=t.pk, now=clock.t) == 0
    t.refresh_from_db()
    assert t.status == TournamentStatus.REGISTERING and t.next_step_at is not None
    clock.advance(21)  # nobody else came: computer players take the four other places
    drive(t, clock)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    sizes = [
        sorted((x.seats.count(), x.is_bye) for x in RoundTable.objects.filter(round=r))
        for r in Round.objects.filter(tournament=t).order_by("number")
    ]
    assert sizes == [
        [(1, True), (2, False), (2, False)],
        [(1, True), (2, False)],
        [(2, False)],
    ]
    regs = list(Registration.objects.filter(tournament=t))
    assert len(regs) == 5 and sum(1 for r in regs if r.is_bot) == 4
    assert sorted((r.rank_first, r.rank_last) for r in regs)[0] == (1, 1)
    assert sum(r.prize or 0 for r in regs) == 500  # 2-6 players: 100 % to 1st
    assert ledger_selectors.pot_balance(pot_ref=t.pot_ref, currency="practice") == 0
    me = next(r for r in regs if r.user_id == player.pk)
    assert balance(player, "practice") >= 0 and me.rank_first is not None
    # The person was never at a table: their seat was kept and their turns ran out.
    from tables.models import Move

    mine = [
        g.game for g in RoundGame.objects.filter(table__round__tournament=t) if me.pk in g.players
    ]
    assert mine and all(g.seats.filter(user=player, left_at__isnull=False).exists() for g in mine)
    assert Move.objects.filter(game=mine[0], action="timeout").exists()


@pytest.mark.postgres
def test_a_36_player_tournament_plays_to_its_end_on_postgresql(player: Any, clock: Any) -> None:
    """36 players (one person, away, and 35 computer players), S = 6, Q = 2: 6 tables of 6,
    then 2 tables of 6, then a final of 4; every amount reconciles (checked after the test)."""
    t = practice_sit_and_go(36, 6, 2)
    tourney.tournament_register(tournament=t, user=player)
    clock.advance(21)
    sweeps = drive(t, clock, steps=100_000)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    plan = [
        sorted(x.seats.count() for x in RoundTable.objects.filter(round=r))
        for r in Round.objects.filter(tournament=t).order_by("number")
    ]
    assert plan == [[6] * 6, [6, 6], [4]]
    regs = list(Registration.objects.filter(tournament=t))
    # Every place 1..36 is covered once: players still equal share the places they cover
    # (2nd and 3rd on equal chips at the final are both 2nd-3rd), so each group of equal
    # ranks is as large as the span of places it covers and starts where the last one ended.
    spans = sorted((r.rank_first or 0, r.rank_last or 0) for r in regs)
    place = 1
    for first, last in sorted(set(spans)):
        assert first == place and last >= first
        assert spans.count((first, last)) == last - first + 1
        place = last + 1
    assert place == 37
    assert sum(r.prize or 0 for r in regs) == 3_600  # 13-36 players: 50 / 30 / 20
    assert ledger_selectors.pot_balance(pot_ref=t.pot_ref, currency="practice") == 0
    assert sweeps > 0
