"""The lobby for strangers (issue 13), in a real browser: two fresh sign-ups pressing Play now on
the practice template meet at one table, and a private table's invite brings a friend in."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import login, sign_up

PASSWORD = "tiles-and-tigers-42"


def _practice_template(name: str, *, seats: int, bots: int, wait: float = 20.0):
    from tables.models import TableTemplate

    template = TableTemplate(
        name=name,
        variant="pool101",
        seats_min=2,
        seats_max=seats,
        currency="practice",
        entry_fee=100,
        practice=True,
        bot_count=bots,
        bot_delay_s=0.3,
        human_wait_s=wait,
        turn_s=60,
    )
    template.full_clean()
    template.save()
    return template


def _table_id(page) -> int:
    match = re.search(r"/tables/(\d+)/$", page.url)
    assert match, page.url
    return int(match.group(1))


@pytest.fixture
def strangers_template(transactional_db):
    return _practice_template("Meet strangers", seats=2, bots=1)


def test_two_fresh_sign_ups_press_play_now_and_play_each_other(new_page, strangers_template):
    from tables.models import Game, Seat

    asha, bilal = new_page(), new_page()
    sign_up(asha, "asha2", "Asha Two", PASSWORD)
    asha.locator("tr.lobby-row", has_text="Meet strangers").locator("button").click()
    asha.wait_for_url(re.compile(r"/tables/\d+/$"))
    # People first: a countdown says when computer players would come; none sits yet.
    assert "computer players in" in asha.locator(".table-head").inner_text()
    assert asha.locator("#people-first").is_visible()
    assert "computer" not in asha.locator(".seat-list").inner_text()

    sign_up(bilal, "bilal2", "Bilal Two", PASSWORD)
    row = bilal.locator("tr.lobby-row", has_text="Meet strangers")
    assert "1 waiting" in row.inner_text()
    row.locator("button", has_text="Play now").click()
    bilal.wait_for_url(re.compile(r"/tables/\d+/$"))
    assert _table_id(bilal) == _table_id(asha)

    # The table is full of people: the game starts at once, for both of them.
    bilal.wait_for_selector("#my-hand .pcard")
    asha.wait_for_selector("#my-hand .pcard", timeout=15_000)  # pushed to the first page
    for page in (asha, bilal):
        seats = page.locator(".seats").inner_text()
        assert "Asha Two" in seats and "Bilal Two" in seats
        assert "computer" not in seats
    game = Game.objects.get(table_id=_table_id(asha))
    played = Seat.objects.filter(game=game, played=True)
    assert sorted(s.user.username for s in played) == ["asha2", "bilal2"]
    assert not any(s.is_bot for s in played)


@pytest.fixture
def friends_template(transactional_db):
    return _practice_template("Friends 101", seats=3, bots=2)


def test_a_private_table_invite_brings_a_friend_and_the_host_starts_with_a_bot(
    new_page, friends_template
):
    from django.contrib.auth import get_user_model

    from ledger.services import practice_chips_welcome_grant
    from tables.models import Game, Seat, Table

    for username in ("host", "friend"):
        practice_chips_welcome_grant(  # as a sign-up does: practice is paid in chips
            user=get_user_model().objects.create_user(
                username=username, password=PASSWORD, display_name=username.title()
            )
        )
    host, friend = new_page(), new_page()
    login(host, "host", PASSWORD)
    host.locator("#private-tables button", has_text="Private Friends 101").click()
    host.wait_for_url(re.compile(r"/tables/\d+/$"))
    code = host.locator("#private-invite .invite-code").inner_text()
    link = host.locator("#private-invite a").get_attribute("href")
    table = Table.objects.get(invite_code=code)
    assert table.is_private and link.endswith(f"/invite/{table.invite_token}/")
    assert not table.casual  # rated unless the host ticks "Casual"
    # Not in the lobby's list of games for strangers: only its template is.
    login(friend, "friend", PASSWORD)
    assert code not in friend.locator("#lobby-tables").inner_text()

    # The friend follows the invite link and joins from the table's page.
    friend.goto(link)
    friend.wait_for_url(f"**/tables/{table.pk}/")
    friend.locator("button", has_text="Join for").click()
    friend.wait_for_url(f"**/tables/{table.pk}/")
    assert "Host" in friend.locator(".seat-list").inner_text()
    assert Seat.objects.filter(table=table, left_at__isnull=True, is_bot=False).count() == 2

    # The host starts: a computer player takes the empty seat.
    host.reload()
    host.click("#start-with-bots")
    host.wait_for_selector("#my-hand .pcard")
    friend.wait_for_selector("#my-hand .pcard", timeout=15_000)
    game = Game.objects.get(table=table)
    assert game.status == "running"
    people = Seat.objects.filter(game=game, played=True, is_bot=False)
    assert sorted(s.user.username for s in people) == ["friend", "host"]
    assert Seat.objects.filter(game=game, played=True, is_bot=True).count() == 1
    assert "computer" in host.locator(".seats").inner_text()


def test_a_friend_joins_by_typing_the_code_in_the_lobby(new_page, friends_template):
    from django.contrib.auth import get_user_model

    from ledger.services import practice_chips_welcome_grant
    from tables import services
    from tables.models import Seat

    users = {}
    for username in ("host", "friend"):
        users[username] = get_user_model().objects.create_user(
            username=username, password=PASSWORD, display_name=username.title()
        )
        practice_chips_welcome_grant(user=users[username])  # as a sign-up does
    table = services.table_private_create(template=friends_template, user=users["host"])
    friend = new_page()
    login(friend, "friend", PASSWORD)
    friend.fill("#invite-code", table.invite_code.lower())
    friend.locator("#join-code-form button").click()
    friend.wait_for_url(f"**/tables/{table.pk}/")
    assert Seat.objects.filter(table=table, user=users["friend"], left_at__isnull=True).exists()


def test_one_casual_box_goes_with_the_private_table_the_host_opens(new_page, friends_template):
    from django.contrib.auth import get_user_model

    from ledger.services import practice_chips_welcome_grant
    from tables.models import Table

    practice_chips_welcome_grant(
        user=get_user_model().objects.create_user(username="host", password=PASSWORD)
    )
    host = new_page()
    login(host, "host", PASSWORD)
    assert host.locator("#private-tables input[name=casual]").count() == 1
    host.locator("#private-tables input[name=casual]").check()
    host.locator("#private-tables button", has_text="Private Friends 101").click()
    host.wait_for_url(re.compile(r"/tables/\d+/$"))
    table = Table.objects.get(host__username="host")
    assert table.casual and table.template == friends_template
