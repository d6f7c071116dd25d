"""Tournament settings refused next to their fields, and the money of registration:
the entry held in the pot, unregistering and cancelling refund it in full, every refusal in
words and changing nothing (responsible play, money games off, funds, full, closed, twice)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone
from tables_testkit import balance, fund
from tourney_kit import advance, deals_template, fixed_draw

from accounts.services import limits_set, self_exclusion_start
from ledger import selectors as ledger_selectors
from tables.models import GameStatus
from tables.services import bot_users_ensure
from tables.tournaments import services as tourney
from tables.tournaments.models import (
    Registration,
    RoundGame,
    Tournament,
    TournamentKind,
    TournamentStatus,
)
from tables.tournaments.services import TournamentRefused

pytestmark = pytest.mark.django_db


def _errors(**fields: Any) -> dict[str, list[str]]:
    fields.setdefault("name", "T")
    fields.setdefault("template", deals_template(name=f"D{len(fields)}{id(fields)}"))
    t = Tournament(**fields)
    with pytest.raises(ValidationError) as caught:
        t.full_clean()
    return caught.value.message_dict


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"seats_per_table": 6, "qualifiers_per_table": 4}, "qualifiers_per_table", "1 to 3"),
        ({"seats_per_table": 3, "qualifiers_per_table": 2}, "qualifiers_per_table", "1 to 1"),
        ({"players_min": 9, "players_max": 8}, "players_max", "below the fewest"),
        ({"players_min": 1}, "players_min", "at least 2"),
        ({"deals_per_round": 7}, "deals_per_round", "1 to 6"),
        ({"fee_bps": 10_001}, "fee_bps", "0 to 100"),
        (
            {"prize_table": [{"players": [2, 6], "shares": [60, 30]}]},
            "prize_table",
            "not 100",
        ),
        (
            {"prize_table": [{"players": [2, 6], "shares": [40, 30, 30]}]},
            "prize_table",
            "more than 2 players",
        ),
        ({"prize_table": [{"players": [2, 3], "shares": [100]}]}, "prize_table", "covered"),
        ({"prize_table": "70/30"}, "prize_table", "list of rows"),
        (
            {"kind": TournamentKind.SCHEDULED, "starts_at": None},
            "starts_at",
            "needs its start time",
        ),
        ({"bots_fill": True}, "bots_fill", "practice sit & go"),
    ],
)
def test_impossible_settings_are_refused_next_to_their_field(
    fields: dict[str, Any], field: str, words: str
) -> None:
    errors = _errors(**fields)
    assert field in errors, errors
    assert any(words in message for message in errors[field]), errors[field]


def test_a_start_in_the_past_and_a_template_that_is_not_deals() -> None:
    past = timezone.now() - timedelta(minutes=1)
    errors = _errors(kind=TournamentKind.SCHEDULED, starts_at=past)
    assert "in the past" in errors["starts_at"][0]
    pool = deals_template(name="Pool", variant="pool101")
    errors = _errors(template=pool)
    assert "Deals" in errors["template"][0]


def _open(**fields: Any) -> Tournament:
    if "template" not in fields:
        fields["template"] = deals_template()
    fields.setdefault("entry_fee", 2_000)
    fields.setdefault("players_min", 2)
    fields.setdefault("players_max", 3)
    return tourney.tournament_create_sit_and_go(name="Open", **fields)


def _pot(t: Tournament) -> int:
    return ledger_selectors.pot_balance(pot_ref=t.pot_ref, currency=t.currency)


def test_register_holds_the_entry_and_unregister_refunds_it_in_full(players: list[Any]) -> None:
    t = _open()
    tourney.tournament_register(tournament=t, user=players[0])
    assert balance(players[0]) == 98_000 and _pot(t) == 2_000
    with pytest.raises(TournamentRefused, match="already registered"):
        tourney.tournament_register(tournament=t, user=players[0])
    tourney.tournament_unregister(tournament=t, user=players[0])
    assert balance(players[0]) == 100_000 and _pot(t) == 0
    with pytest.raises(TournamentRefused, match="not registered"):
        tourney.tournament_unregister(tournament=t, user=players[0])
    # Registering again holds a new entry (its own key).
    tourney.tournament_register(tournament=t, user=players[0])
    assert balance(players[0]) == 98_000 and _pot(t) == 2_000
    assert Registration.objects.filter(tournament=t).count() == 2


def test_refusals_in_words_change_nothing(
    players: list[Any], user_factory: Any, settings: Any
) -> None:
    t = _open(players_max=2)
    poor = user_factory()
    fund(poor, 500)
    with pytest.raises(TournamentRefused, match=r"entry fee is ₹20\.00 and your balance is ₹5\.00"):
        tourney.tournament_register(tournament=t, user=poor)
    assert balance(poor) == 500 and _pot(t) == 0
    assert not Registration.objects.filter(tournament=t).exists()
    excluded = players[3]
    self_exclusion_start(user=excluded, period="7d")
    with pytest.raises(TournamentRefused, match="excluded yourself"):
        tourney.tournament_register(tournament=t, user=excluded)
    bot = bot_users_ensure(count=1)[0]
    with pytest.raises(TournamentRefused, match="Computer players"):
        tourney.tournament_register(tournament=t, user=bot)
    settings.MONEY_GAMES = False
    with pytest.raises(TournamentRefused, match="Money games are off"):
        tourney.tournament_register(tournament=t, user=players[0])
    settings.MONEY_GAMES = True
    with pytest.raises(TournamentRefused, match="Sign in"):
        tourney.tournament_register(tournament=t, user=None)  # type: ignore[arg-type]  # refused
    assert _pot(t) == 0 and not Registration.objects.filter(tournament=t).exists()


def test_a_player_over_a_deposit_limit_is_refused_in_words(players: list[Any]) -> None:
    """Section 10: a player over a deposit limit (here one lowered after depositing) is refused
    a cash tournament in words; a practice tournament stays open; nothing is taken."""
    from ledger.payments import services as payments

    t = _open(players_max=2)
    player = players[0]
    payments.deposit_start(user=player, amount=50_000)
    limits_set(user=player, period="daily", amount=20_000)
    before = balance(player)
    with pytest.raises(TournamentRefused, match=r"over your daily deposit limit of ₹200\.00"):
        tourney.tournament_register(tournament=t, user=player)
    assert balance(player) == before and _pot(t) == 0
    assert not Registration.objects.filter(tournament=t).exists()
    # Within the limit (a monthly one above the deposits), the player registers.
    other = players[1]
    payments.deposit_start(user=other, amount=10_000)
    limits_set(user=other, period="monthly", amount=20_000)
    tourney.tournament_register(tournament=t, user=other)
    assert Registration.objects.filter(tournament=t, user=other).exists()


def test_full_and_closed(players: list[Any], clock: Any, monkeypatch: Any) -> None:
    fixed_draw(monkeypatch)
    t = _open(players_max=2)
    tourney.tournament_register(tournament=t, user=players[0])
    tourney.tournament_register(tournament=t, user=players[1])
    # Full: the sit & go starts (the director), and registration is closed.
    with pytest.raises(TournamentRefused, match="full"):
        tourney.tournament_register(tournament=t, user=players[2])
    advance(t, clock)
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING
    with pytest.raises(TournamentRefused, match="closed"):
        tourney.tournament_register(tournament=t, user=players[2])
    with pytest.raises(TournamentRefused, match="no leaving a running tournament"):
        tourney.tournament_unregister(tournament=t, user=players[0])
    staff = players[5]
    staff.is_staff = True
    staff.save()
    with pytest.raises(TournamentRefused, match="reason"):
        tourney.tournament_cancel(tournament=t, staff_user=staff, reason=" ")
    with pytest.raises(TournamentRefused, match="Only staff"):
        tourney.tournament_cancel(tournament=t, staff_user=players[0], reason="no")
    # Staff cancel the running tournament: its table's game is cancelled, entries refunded.
    tourney.tournament_cancel(tournament=t, staff_user=staff, reason="A fault on the server")
    t.refresh_from_db()
    assert t.status == TournamentStatus.CANCELLED and t.cancelled_by == staff
    game = RoundGame.objects.get(table__round__tournament=t).game
    assert game.status == GameStatus.CANCELLED
    assert balance(players[0]) == 100_000 and balance(players[1]) == 100_000 and _pot(t) == 0
    with pytest.raises(TournamentRefused, match="over"):
        tourney.tournament_cancel(tournament=t, staff_user=staff, reason="again")


def test_scheduled_below_the_minimum_is_cancelled_with_full_refunds(
    players: list[Any], clock: Any
) -> None:
    start = timezone.now() + timedelta(hours=1)
    t = Tournament(
        name="Evening",
        kind=TournamentKind.SCHEDULED,
        template=deals_template(),
        entry_fee=3_000,
        fee_bps=1_000,
        players_min=3,
        players_max=18,
        registration_opens_at=start - timedelta(minutes=30),
        starts_at=start,
    )
    t.full_clean()
    t.save()
    with pytest.raises(TournamentRefused, match="not open yet"):
        tourney.tournament_register(tournament=t, user=players[0])
    clock.t = (start - timedelta(minutes=10)).timestamp()
    advance(t, clock)
    t.refresh_from_db()
    assert t.status == TournamentStatus.REGISTERING and t.next_step_at == start
    tourney.tournament_register(tournament=t, user=players[0])
    tourney.tournament_register(tournament=t, user=players[1])
    assert _pot(t) == 6_000
    clock.t = start.timestamp() - 1
    assert advance(t, clock) == 0
    clock.t = start.timestamp()
    advance(t, clock)
    t.refresh_from_db()
    assert t.status == TournamentStatus.CANCELLED
    assert "Too few players" in t.cancel_reason
    assert balance(players[0]) == 100_000 and balance(players[1]) == 100_000 and _pot(t) == 0
    assert set(Registration.objects.filter(tournament=t).values_list("status", flat=True)) == {
        "refunded"
    }


def test_a_practice_tournament_gives_free_chips(user_factory: Any) -> None:
    template = deals_template(currency="practice")
    t = tourney.tournament_create_sit_and_go(
        name="Practice",
        template=template,
        currency="practice",
        entry_fee=500,
        players_min=2,
        players_max=4,
    )
    newcomer = user_factory()
    tourney.tournament_register(tournament=t, user=newcomer)
    assert balance(newcomer, "practice") == 4_500
    assert _pot(t) == 500
    tourney.tournament_unregister(tournament=t, user=newcomer)
    assert balance(newcomer, "practice") == 5_000


def test_the_admin_refuses_next_to_the_field_freezes_and_cancels(
    client: Any, players: list[Any], clock: Any, monkeypatch: Any
) -> None:
    from django.contrib.auth import get_user_model

    fixed_draw(monkeypatch)
    admin_user = get_user_model().objects.create_superuser("boss", "b@example.com", "pw-12345!")
    client.force_login(admin_user)
    template = deals_template()
    assert client.get("/admin/tournaments/tournament/add/").status_code == 200
    money = {"entry_fee": "1.00", "fee_bps": "10", "guarantee": 0, "prize_table": "[]"}
    response = _admin_post(client, template, name="Bad", qualifiers_per_table=4, **money)
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    good = _admin_post(client, template, name="Good", **money)
    assert good.status_code == 302
    made = Tournament.objects.get(name="Good")
    assert made.status == TournamentStatus.ANNOUNCED and made.next_step_at is not None
    # The sweep opens its registration (no opening time: at once).
    from tables.tournaments.director import tournaments_sweep

    tournaments_sweep(now=made.next_step_at.timestamp() + 1)
    made.refresh_from_db()
    assert made.status == TournamentStatus.REGISTERING
    assert "qualifiers_per_table" in errors and not Tournament.objects.filter(name="Bad").exists()
    t = _open(players_max=2, template=template)
    tourney.tournament_register(tournament=t, user=players[0])
    tourney.tournament_register(tournament=t, user=players[1])
    advance(t, clock)
    page = client.get(f"/admin/tournaments/tournament/{t.pk}/change/").content.decode()
    assert 'name="entry_fee"' not in page  # frozen once it started
    client.post(
        "/admin/tournaments/tournament/",
        {"action": "cancel_with_refunds", "_selected_action": [t.pk]},
    )
    t.refresh_from_db()
    assert t.status == TournamentStatus.CANCELLED and _pot(t) == 0
    assert balance(players[0]) == 100_000


def test_a_repeating_sit_and_go_opens_again_when_it_starts(
    players: list[Any], clock: Any, monkeypatch: Any
) -> None:
    fixed_draw(monkeypatch)
    t = _open(players_max=2, repeat=True)
    tourney.tournament_register(tournament=t, user=players[0])
    tourney.tournament_register(tournament=t, user=players[1])
    advance(t, clock)
    advance(t, clock)
    again = Tournament.objects.exclude(pk=t.pk).get()
    assert again.name == f"{t.name} #2"  # its number in the series: no two of one name
    assert again.status == TournamentStatus.REGISTERING and again.repeat
    assert (again.entry_fee, again.players_max, again.template_id) == (2_000, 2, t.template_id)
    assert not Registration.objects.filter(tournament=again).exists()
    third = tourney.tournament_repeat(again)
    assert third.name == f"{t.name} #3" and tourney.series_name(third.name) == t.name
    with pytest.raises(ValidationError):
        Tournament(
            name="x",
            template=t.template,
            kind=TournamentKind.SCHEDULED,
            repeat=True,
            starts_at=timezone.now() + timedelta(hours=1),
        ).full_clean()


def _admin_post(client: Any, template: Any, **fields: Any) -> Any:
    data = {
        "name": "Evening cup",
        "kind": "sit_and_go",
        "template": template.pk,
        "currency": "cash",
        "entry_fee": "50.00",
        "fee_bps": "12.5",
        "guarantee": "",
        "players_min": 2,
        "players_max": 6,
        "seats_per_table": 6,
        "qualifiers_per_table": 2,
        "prize_table": "",
        "break_s": 60,
        "human_wait_s": 20,
        "registrations-TOTAL_FORMS": 0,
        "registrations-INITIAL_FORMS": 0,
        "rounds-TOTAL_FORMS": 0,
        "rounds-INITIAL_FORMS": 0,
        **fields,
    }
    return client.post("/admin/tournaments/tournament/add/", data)


def test_the_admin_takes_rupees_percent_and_a_blank_prize_table(client: Any) -> None:
    from django.contrib.auth import get_user_model

    staff = get_user_model().objects.create_superuser("boss2", "c@example.com", "pw-12345!")
    client.force_login(staff)
    template = deals_template()
    assert _admin_post(client, template).status_code == 302
    made = Tournament.objects.get(name="Evening cup")
    # Typed as table templates take them: rupees and percent; blank: the rule book's table.
    assert (made.entry_fee, made.fee_bps, made.guarantee) == (5000, 1250, 0)
    assert made.prize_table == []
    page = client.get(f"/admin/tournaments/tournament/{made.pk}/change/").content.decode()
    assert 'value="50.00"' in page and 'value="12.5"' in page
    listing = client.get("/admin/tournaments/tournament/").content.decode()
    assert "₹50.00" in listing
    assert "delete_selected" not in listing  # cancelled with refunds, never deleted
    for field, typed in (("entry_fee", "5.555"), ("fee_bps", "120"), ("fee_bps", "ten")):
        refused = _admin_post(client, template, name="Odd cup", **{field: typed})
        assert refused.status_code == 200
        assert field in refused.context["adminform"].form.errors, (field, typed)
    assert not Tournament.objects.filter(name="Odd cup").exists()
