"""Seat matching (issue 13): Play now on a template, people first at practice tables, private
tables by invite code, the seat limits, empty tables reused or closed, and Play again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse
from tables_testkit import Clock, balance, fund, with_welcome_chips

from tables import services
from tables.models import Game, GameStatus, Seat, Table, TableStatus, TableTemplate
from tables.services import matching


@pytest.fixture
def user_factory(user_factory: Callable[..., Any]) -> Callable[..., Any]:
    """People here signed up: they hold the welcome practice chips."""
    return with_welcome_chips(user_factory)


def _people(seats: Any) -> list[Any]:
    return [s for s in seats if not s.is_bot]


# ------------------------------------------------------------------------------- Play now


def test_play_now_opens_a_table_then_fills_it_before_opening_another(
    template_factory: Callable[..., TableTemplate], players: list[Any], clock: Clock
) -> None:
    template = template_factory(seats_min=3, seats_max=3, entry_fee=500, min_open_tables=0)
    seats = [services.template_play_now(template=template, user=p) for p in players[:4]]
    assert len({s.table_id for s in seats[:3]}) == 1  # the first three share a table
    first = Table.objects.get(pk=seats[0].table_id)
    assert Game.objects.get(table=first).status == GameStatus.RUNNING  # full: started
    assert seats[3].table_id != first.pk  # the fourth opened a new table
    assert Table.objects.filter(template=template).count() == 2
    assert all(balance(p) == 100_000 - 500 for p in players[:4])


def test_play_now_twice_gives_the_same_seat_and_charges_once(
    template_factory: Callable[..., TableTemplate], players: list[Any], clock: Clock
) -> None:
    template = template_factory(seats_max=4, entry_fee=700)
    first = services.template_play_now(template=template, user=players[0])
    again = services.template_play_now(template=template, user=players[0])
    assert again.pk == first.pk
    assert balance(players[0]) == 100_000 - 700


def test_nobody_sits_twice_at_one_templates_tables_even_by_link(
    template_factory: Callable[..., TableTemplate], players: list[Any], clock: Clock
) -> None:
    template = template_factory(seats_max=4, min_open_tables=2)
    seat = services.template_play_now(template=template, user=players[0])
    other = Table.objects.filter(template=template).exclude(pk=seat.table_id).get()
    with pytest.raises(services.SeatUnavailable, match="one seat per kind of table"):
        services.table_join(table=other, user=players[0])
    assert Seat.objects.filter(user=players[0], left_at__isnull=True).count() == 1


def test_a_player_sits_at_up_to_the_staff_limit_of_tables(
    template_factory: Callable[..., TableTemplate], players: list[Any], clock: Clock, settings: Any
) -> None:
    settings.SEATS_PER_PLAYER_MAX = 3
    templates = [template_factory(seats_max=4) for _ in range(4)]
    for template in templates[:3]:
        services.template_play_now(template=template, user=players[0])
    before = balance(players[0])
    with pytest.raises(services.SeatUnavailable, match="already play at 3 tables"):
        services.template_play_now(template=templates[3], user=players[0])
    assert balance(players[0]) == before
    settings.SEATS_PER_PLAYER_MAX = 4
    services.template_play_now(template=templates[3], user=players[0])


def test_minimum_open_tables_are_kept_and_the_maximum_is_respected(
    template_factory: Callable[..., TableTemplate], players: list[Any], clock: Clock
) -> None:
    template = template_factory(seats_min=2, seats_max=2, min_open_tables=2, max_tables=2)
    services.template_tables_ensure(template=template)
    assert Table.objects.filter(template=template).count() == 2
    for player in players[:4]:
        services.template_play_now(template=template, user=player)
    assert Table.objects.filter(template=template).count() == 2  # the maximum
    assert Game.objects.filter(table__template=template, status="running").count() == 2
    with pytest.raises(services.TableClosed, match=r"Every .* table is playing \(2 at most"):
        services.template_play_now(template=template, user=players[4])
    assert balance(players[4]) == 100_000


def test_empty_tables_are_reused_and_surplus_ones_closed(
    template_factory: Callable[..., TableTemplate], players: list[Any], clock: Clock
) -> None:
    template = template_factory(seats_min=2, seats_max=2, min_open_tables=1)
    extra = [services.table_create(template=template) for _ in range(3)]
    clock.advance(matching.IDLE_CLOSE_S + 1)
    seat = services.template_play_now(template=template, user=players[0])
    # The oldest empty table is reused; the newest empty ones beyond the minimum are closed.
    assert seat.table_id == extra[0].pk
    open_tables = Table.objects.filter(template=template).exclude(status=TableStatus.CLOSED)
    assert list(open_tables.values_list("pk", flat=True)) == [extra[0].pk]


def test_an_inactive_template_and_a_computer_player_are_refused(
    template_factory: Callable[..., TableTemplate], players: list[Any], clock: Clock
) -> None:
    template = template_factory(is_active=False)
    with pytest.raises(services.TableClosed, match="not open now"):
        services.template_play_now(template=template, user=players[0])
    bot = services.bot_users_ensure(count=1)[0]
    with pytest.raises(services.SeatUnavailable):
        services.template_play_now(template=template_factory(), user=bot)


# ------------------------------------------------------------------------- people first


def test_two_people_at_a_practice_pool_play_each_other_before_bots_fill(
    practice_pool: TableTemplate, user_factory: Callable[..., Any], clock: Clock
) -> None:
    asha, bilal = user_factory(), user_factory()
    first = services.template_play_now(template=practice_pool, user=asha)
    game = Game.objects.get(table_id=first.table_id)
    assert game.status == GameStatus.WAITING
    assert game.deadline_kind == "fill"
    assert game.deadline.timestamp() == pytest.approx(clock.t + 20)
    assert not Seat.objects.filter(game=game, is_bot=True).exists()  # people first
    clock.advance(10)
    second = services.template_play_now(template=practice_pool, user=bilal)
    assert second.table_id == first.table_id
    game.refresh_from_db()
    assert game.deadline.timestamp() == pytest.approx(clock.t + 10)  # the wait does not restart
    clock.advance(10.01)
    assert services.timers_sweep() == 1
    game.refresh_from_db()
    assert game.status == GameStatus.RUNNING
    seats = list(Seat.objects.filter(game=game, played=True))
    assert {s.user_id for s in _people(seats)} == {asha.pk, bilal.pk}
    assert sum(s.is_bot for s in seats) == 1  # one computer player took the empty seat


def test_a_lone_person_gets_computer_players_when_the_wait_runs_out(
    practice_pool: TableTemplate, user_factory: Callable[..., Any], clock: Clock
) -> None:
    seat = services.template_play_now(template=practice_pool, user=user_factory())
    clock.advance(19)
    assert services.timers_sweep() == 0
    clock.advance(1.01)
    assert services.timers_sweep() == 1
    game = Game.objects.get(table_id=seat.table_id)
    assert game.status == GameStatus.RUNNING
    assert Seat.objects.filter(game=game, is_bot=True, played=True).count() == 2


def test_the_table_page_shows_the_wait_for_people_with_its_countdown(
    client: Any, practice_pool: TableTemplate, user_factory: Callable[..., Any], clock: Clock
) -> None:
    user = user_factory()
    seat = services.template_play_now(template=practice_pool, user=user)
    client.force_login(user)
    html = client.get(reverse("table", args=[seat.table_id])).content.decode()
    assert "computer players in" in html
    assert 'id="people-first"' in html


def test_bots_never_sit_at_a_cash_table(
    template_factory: Callable[..., TableTemplate], players: list[Any], clock: Clock
) -> None:
    template = template_factory(seats_min=2, seats_max=3)
    seat = services.template_play_now(template=template, user=players[0])
    clock.advance(3600)
    services.timers_sweep()
    assert not Seat.objects.filter(table_id=seat.table_id, is_bot=True).exists()


# ----------------------------------------------------------------------- private tables


def test_a_private_table_is_joined_by_code_and_started_by_its_host(
    practice_pool: TableTemplate, user_factory: Callable[..., Any], clock: Clock
) -> None:
    host, friend, stranger = user_factory(), user_factory(), user_factory()
    table = services.table_private_create(template=practice_pool, user=host)
    assert table.is_private and table.host_id == host.pk
    assert table.invite_code is not None and len(table.invite_code) == 6
    # Not offered to strangers: Play now opens a public table instead.
    public = services.template_play_now(template=practice_pool, user=stranger)
    assert public.table_id != table.pk
    code = table.invite_code.lower()[:3] + " " + table.invite_code[3:]  # as typed
    seat = services.table_join_by_code(code=code, user=friend)
    assert seat.table_id == table.pk
    game = Game.objects.get(table=table)
    assert game.deadline is None  # no countdown: the host decides
    with pytest.raises(services.NotSeated, match="Only the host"):
        services.table_private_start(table=table, user=friend)
    services.table_private_start(table=table, user=host)
    game.refresh_from_db()
    assert game.status == GameStatus.RUNNING
    seats = Seat.objects.filter(game=game, played=True)
    assert {s.user_id for s in seats if not s.is_bot} == {host.pk, friend.pk}
    assert sum(s.is_bot for s in seats) == 1


def test_a_practice_classic_table_shows_its_level_and_a_host_picks_one(
    client: Any,
    template_factory: Callable[..., TableTemplate],
    user_factory: Callable[..., Any],
    clock: Clock,
) -> None:
    """Classic practice tables say their computer players' level in the lobby, as the 13-card
    ones do; a private table's host picks the level when starting it (a forged one is refused
    in words and starts nothing)."""
    from tables.services._context import lock_context
    from tables.services.bots import bot_strength_of

    template = template_factory(
        name="Practice Classic",
        variant="classic",
        currency="practice",
        entry_fee=100,
        practice=True,
        seats_min=2,
        seats_max=3,
        bot_count=2,
        bot_strength="medium",
    )
    host = user_factory()
    client.force_login(host)
    lobby = client.get(reverse("lobby")).content.decode()
    row = lobby[lobby.index("Practice Classic") :][:600]
    assert "computer players: medium" in row
    table = services.table_private_create(template=template, user=host)
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert 'id="bot-level"' in page and '<option value="medium" selected>' in page
    forged = client.post(
        reverse("private_start", args=[table.pk]), {"strength": "{'x': 1}"}, follow=True
    )
    assert "Choose the computer players" in forged.content.decode()
    game = Game.objects.get(table=table)
    assert game.status == GameStatus.WAITING
    client.post(reverse("private_start", args=[table.pk]), {"strength": "hard"})
    game.refresh_from_db()
    table.refresh_from_db()
    assert game.status == GameStatus.RUNNING and table.bot_strength == "hard"
    assert bot_strength_of(lock_context(table=table, game_id=game.pk, now=clock.t)) == "hard"


def test_private_tables_only_from_practice_pools_and_bad_codes_are_refused(
    template_factory: Callable[..., TableTemplate], players: list[Any], clock: Clock
) -> None:
    with pytest.raises(services.TableClosed, match="practice"):
        services.table_private_create(template=template_factory(), user=players[0])
    with pytest.raises(services.NotFound, match="does not open any table"):
        services.table_join_by_code(code="<script>", user=players[0])
    with pytest.raises(services.NotFound, match="does not open any table"):
        services.table_join_by_code(code="ABCDEF", user=players[0])


def test_the_lobby_creates_a_private_table_and_a_friend_joins_by_code(
    client: Any, practice_pool: TableTemplate, user_factory: Callable[..., Any], clock: Clock
) -> None:
    host, friend = user_factory(), user_factory()
    client.force_login(host)
    html = client.get(reverse("lobby")).content.decode()
    assert f'action="{reverse("private_create", args=[practice_pool.pk])}"' in html
    response = client.post(reverse("private_create", args=[practice_pool.pk]))
    table = Table.objects.get(is_private=True)
    assert response["Location"] == reverse("table", args=[table.pk])
    page = client.get(response["Location"]).content.decode()
    assert table.invite_code in page and reverse("table_invite", args=[table.invite_token]) in page
    assert 'id="start-with-bots"' in page
    client.force_login(friend)
    invite = client.get(reverse("table_invite", args=[table.invite_token]))
    assert invite["Location"] == reverse("table", args=[table.pk])
    joined = client.post(reverse("join_by_code"), {"code": table.invite_code})
    assert joined["Location"] == reverse("table", args=[table.pk])
    assert Seat.objects.filter(table=table, user=friend, left_at__isnull=True).exists()
    refused = client.post(reverse("join_by_code"), {"code": "nope"}, follow=True)
    assert "does not open any table" in refused.content.decode()


# --------------------------------------------------------------------------- the lobby


def test_the_lobby_counts_people_seated_and_games_running(
    client: Any, template_factory: Callable[..., TableTemplate], players: list[Any], clock: Clock
) -> None:
    template = template_factory(name="Evening 201", variant="pool201", seats_max=2)
    for player in players[:3]:
        services.template_play_now(template=template, user=player)
    html = client.get(reverse("lobby")).content.decode()
    row = html[html.index(f'data-template-id="{template.pk}"') :]
    row = row[: row.index("</tr>")]
    assert "3 seated" in row and "1 waiting" in row and "1 running" in row
    client.force_login(players[3])
    response = client.post(reverse("template_play", args=[template.pk]))
    seat = Seat.objects.get(user=players[3], left_at__isnull=True)
    assert response["Location"] == reverse("table", args=[seat.table_id])


def test_play_now_without_funds_is_refused_in_rupees(
    client: Any, template_factory: Callable[..., TableTemplate], user_factory: Callable[..., Any]
) -> None:
    template = template_factory(entry_fee=2500)
    poor = user_factory()
    fund(poor, 1000)
    client.force_login(poor)
    response = client.post(reverse("template_play", args=[template.pk]), follow=True)
    html = response.content.decode()
    assert "₹25.00" in html and "₹10.00" in html
    assert not Seat.objects.filter(user=poor).exists()


# --------------------------------------------------------------------------- Play again


def test_play_again_after_a_finished_game(
    client: Any, seated: Callable[..., Any], clock: Clock
) -> None:
    t = seated(2)
    game = t.game()
    services.table_leave(table=t.table, user=t.users[2])  # the last opponent leaves
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    client.force_login(t.users[1])
    html = client.get(reverse("table", args=[t.table.pk])).content.decode()
    assert "Play again" in html
    response = client.post(reverse("table_join", args=[t.table.pk]))
    assert response["Location"] == reverse("table", args=[t.table.pk])
    new = Game.objects.filter(table=t.table).order_by("-pk").first()
    assert new.pk != game.pk and new.status == GameStatus.WAITING
    assert new.seats.filter(user=t.users[1], left_at__isnull=True).exists()


def test_the_demo_lobby_shows_templates_each_with_an_open_table(client: Any, db: Any) -> None:
    from rummy_site.demo import DEMO_PASSWORD, DEMO_TEMPLATES, demo_seed

    demo_seed()
    demo_seed()  # idempotent: no table piles up
    for name, _ in DEMO_TEMPLATES:
        template = TableTemplate.objects.get(name=name)
        assert template.tables.exclude(status=TableStatus.CLOSED).count() == 1
    from accounts.models import User

    asha = User.objects.get(username="asha")
    assert asha.check_password(DEMO_PASSWORD)
    client.force_login(asha)
    html = client.get(reverse("lobby")).content.decode()
    assert html.count(">Play now</button>") == len(DEMO_TEMPLATES)
