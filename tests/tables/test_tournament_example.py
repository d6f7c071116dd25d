"""Section 10's worked sit & go of 7 players (S = 6, Q = 2, entry ₹50, fee 12.5 %), end to end
through the services with planted shoes: registration holds the entries in the tournament's
pot, round 1 seats tables of 4 and 3 that play 4 and 3 deals as ordinary Deals games, the top 2
of each go through to a final of 4, the ranks follow the rule book and the prizes 21,438 and
9,187 leave the pot with the fee, which ends at 0."""

from __future__ import annotations

from typing import Any

import pytest
from tables_testkit import balance, fund
from tourney_kit import advance, chips, deals_template, fixed_draw, plant, play_deal, table_game

from ledger import selectors as ledger_selectors
from ledger.models import Account, AccountKind
from tables.models import GameStatus
from tables.services import ActionNotAllowed, table_leave
from tables.tournaments import services as tourney
from tables.tournaments.models import (
    Registration,
    Round,
    RoundTable,
    TournamentStatus,
)

pytestmark = pytest.mark.django_db

TABLE_1 = [  # 4 deals at 320 chips: seat -> points added (0 = shows)
    {1: 0, 2: 30, 3: 40, 4: 50},
    {1: 30, 2: 0, 3: 40, 4: 60},
    {1: 0, 2: 30, 3: 30, 4: 40},
    {1: 30, 2: 30, 3: 0, 4: 30},
]
TABLE_2 = [  # 3 deals at 240 chips
    {1: 0, 2: 30, 3: 40},
    {1: 30, 2: 0, 3: 50},
    {1: 0, 2: 30, 3: 30},
]
FINAL = [  # 4 deals at 320 chips
    {1: 30, 2: 30, 3: 0, 4: 40},
    {1: 30, 2: 30, 3: 0, 4: 30},
    {1: 0, 2: 30, 3: 30, 4: 30},
    {1: 30, 2: 0, 3: 30, 4: 40},
]


@pytest.fixture
def seven(user_factory: Any) -> list[Any]:
    users = [user_factory() for _ in range(7)]
    for user in users:
        fund(user, 100_000)
    return users


def _sit_and_go(**fields: Any) -> Any:
    fields.setdefault("name", "Sit & go of 7")
    if "template" not in fields:
        fields["template"] = deals_template()
    fields.setdefault("entry_fee", 5_000)
    fields.setdefault("fee_bps", 1_250)
    fields.setdefault("players_min", 7)
    fields.setdefault("players_max", 7)
    fields.setdefault("seats_per_table", 6)
    fields.setdefault("qualifiers_per_table", 2)
    return tourney.tournament_create_sit_and_go(**fields)


def test_the_worked_sit_and_go_of_seven(
    seven: list[Any], clock: Any, planter: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    fixed_draw(monkeypatch)
    t = _sit_and_go()
    regs = [tourney.tournament_register(tournament=t, user=u) for u in seven[:6]]
    assert ledger_selectors.pot_balance(pot_ref=t.pot_ref, currency="cash") == 30_000
    assert balance(seven[0]) == 95_000
    # The first deals of both tables are dealt when round 1 opens: plant them first.
    plant(planter, TABLE_1[0])
    plant(planter, TABLE_2[0])
    regs.append(tourney.tournament_register(tournament=t, user=seven[6]))
    advance(t, clock)
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING
    assert t.frozen["pool"] == 30_625 and t.frozen["fee"] == 4_375
    assert t.frozen["amounts"] == [21_438, 9_187]
    round1 = Round.objects.get(tournament=t, number=1)
    assert round1.draw == [r.pk for r in regs] and not round1.is_final
    tables = list(RoundTable.objects.filter(round=round1).order_by("number"))
    assert [(x.seats.count(), x.deals) for x in tables] == [(4, 4), (3, 3)]
    g1, g2 = table_game(t, 1, 1), table_game(t, 1, 2)
    assert chips(g1) == {1: 320, 2: 320, 3: 320, 4: 320}
    assert chips(g2) == {1: 240, 2: 240, 3: 240}
    assert g1.table.is_private and g1.stake == 0

    # A tournament's table takes nobody else and lets nobody leave.
    with pytest.raises(ActionNotAllowed):
        table_leave(table=g1.table, user=seven[0])

    for added in TABLE_1:
        play_deal(g1, planter, clock, added)
    g1.refresh_from_db()
    assert g1.status == GameStatus.FINISHED
    assert chips(g1) == {1: 480, 2: 360, 3: 300, 4: 140}
    advance(t, clock)
    assert RoundTable.objects.get(pk=tables[0].pk).status == "done"
    assert Round.objects.get(pk=round1.pk).status == "playing"  # waiting for table 2
    play_deal(g2, planter, clock, TABLE_2[0])
    for added in TABLE_2[1:]:
        play_deal(g2, planter, clock, added)
    assert chips(g2) == {1: 340, 2: 260, 3: 120}
    advance(t, clock)
    round1.refresh_from_db()
    assert round1.status == "done" and round1.next_round_at is not None
    # The break: nothing happens until it is over.
    assert advance(t, clock) == 0
    plant(planter, FINAL[0])
    clock.advance(61)
    advance(t, clock)
    final = Round.objects.get(tournament=t, number=2)
    assert final.is_final
    assert final.draw == [regs[0].pk, regs[1].pk, regs[4].pk, regs[5].pk]
    gf = table_game(t, 2, 1)
    for added in FINAL:
        play_deal(gf, planter, clock, added)
    assert chips(gf) == {1: 320, 2: 330, 3: 450, 4: 180}
    advance(t, clock)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    ranks = {
        r.pk: (r.rank_first, r.rank_last, r.prize)
        for r in Registration.objects.filter(tournament=t)
    }
    expected = {
        regs[4].pk: (1, 1, 21_438),
        regs[1].pk: (2, 2, 9_187),
        regs[0].pk: (3, 3, 0),
        regs[5].pk: (4, 4, 0),
        regs[2].pk: (5, 5, 0),  # 3rd at table 1 with 300 chips
        regs[6].pk: (6, 6, 0),  # 3rd at table 2 with 120
        regs[3].pk: (7, 7, 0),  # 4th at table 1
    }
    assert ranks == expected
    assert balance(seven[4]) == 100_000 - 5_000 + 21_438
    assert balance(seven[1]) == 100_000 - 5_000 + 9_187
    assert balance(seven[3]) == 95_000
    assert ledger_selectors.pot_balance(pot_ref=t.pot_ref, currency="cash") == 0
    fees = Account.objects.get(kind=AccountKind.FEES, currency="cash")
    assert fees.balance == 4_375
    # Running the director again changes nothing (nothing is paid twice).
    assert advance(t, clock) == 0
    assert balance(seven[4]) == 100_000 - 5_000 + 21_438
