"""Tournament pages: the lobby's Tournaments tab, a tournament's page (structure, prize table,
players, standings, your table, the wait, results), register / unregister with refusals in
words, and support's page and results export."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from tables_testkit import balance
from tourney_kit import advance, deals_template, fixed_draw

from tables.tournaments import services as tourney
from tables.tournaments.models import Registration

pytestmark = pytest.mark.django_db


def _open(**fields: Any) -> Any:
    if "template" not in fields:
        fields["template"] = deals_template()
    return tourney.tournament_create_sit_and_go(
        name="Evening knockout",
        entry_fee=2_000,
        fee_bps=1_000,
        players_min=2,
        players_max=2,
        **fields,
    )


def _started(players: list[Any], clock: Any, monkeypatch: Any, **fields: Any) -> Any:
    """A sit & go (``_open``) the first two players registered for, the draw fixed: its table
    is playing."""
    fixed_draw(monkeypatch)
    t = _open(**fields)
    tourney.tournament_register(tournament=t, user=players[0])
    tourney.tournament_register(tournament=t, user=players[1])
    advance(t, clock)
    return t


def test_the_tab_the_page_and_registering(client: Any, players: list[Any]) -> None:
    t = _open()
    lobby = client.get(reverse("lobby")).content.decode()
    assert reverse("tournaments:list") in lobby
    page = client.get(reverse("tournaments:list")).content.decode()
    assert "Evening knockout" in page and "₹20.00" in page and "0 / 2" in page
    # The list says each tournament's table size, not a size for all of them.
    assert "up to 6 seats a table" in page and "tables of up to six" not in page
    assert "when full" in page
    client.force_login(players[0])
    detail = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert 'id="register"' in detail and 'id="prize-table"' in detail
    assert "100 %" in detail
    response = client.post(reverse("tournaments:register", args=[t.pk]), follow=True)
    body = response.content.decode()
    assert "You are registered" in body and 'id="unregister"' in body
    assert balance(players[0]) == 98_000
    again = client.post(reverse("tournaments:register", args=[t.pk]), follow=True)
    assert "already registered" in again.content.decode()
    out = client.post(reverse("tournaments:unregister", args=[t.pk]), follow=True)
    assert "refunded" in out.content.decode() and balance(players[0]) == 100_000
    missing = client.post(reverse("tournaments:register", args=[99_999]))
    assert missing.status_code == 404


def test_standings_your_table_and_the_wait(
    client: Any, players: list[Any], clock: Any, monkeypatch: Any
) -> None:
    t = _started(players, clock, monkeypatch)
    client.force_login(players[0])
    live = client.get(reverse("tournaments:detail", args=[t.pk]) + "?partial=live")
    body = live.content.decode()
    assert 'id="your-table"' in body
    assert "Waiting for 1 table to finish." in body
    assert "160 chips" in body  # 2 players: 2 deals x 80
    table_id = (
        Registration.objects.get(tournament=t, user=players[0]).round_seats.get().table.table_id
    )
    assert reverse("table", args=[table_id]) in body
    # The tournament's table links back to the tournament; an ordinary table does not.
    page = client.get(reverse("table", args=[table_id])).content.decode()
    assert 'id="tournament-link"' in page and reverse("tournaments:detail", args=[t.pk]) in page


def test_an_ordinary_table_has_no_tournament_link(
    client: Any, table_factory: Any, players: list[Any]
) -> None:
    table = table_factory(seats_max=2)
    client.force_login(players[0])
    assert 'id="tournament-link"' not in client.get(reverse("table", args=[table.pk])).text


def test_hindi_page(client: Any, players: list[Any]) -> None:
    t = _open()
    client.cookies["django_language"] = "hi"
    body = client.get(
        reverse("tournaments:detail", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="hi"
    ).content.decode()
    assert "टूर्नामेंट" in body
    # The tournament's own name has a Hindi field: shown in Hindi, the name in English.
    t.name_hi = "शाम का नॉकआउट"
    t.save(update_fields=["name_hi"])
    for url in (reverse("tournaments:detail", args=[t.pk]), reverse("tournaments:list")):
        body = client.get(url, HTTP_ACCEPT_LANGUAGE="hi").content.decode()
        assert "शाम का नॉकआउट" in body and "Evening knockout" not in body
    client.cookies["django_language"] = "en"
    body = client.get(reverse("tournaments:list")).content.decode()
    assert "Evening knockout" in body and "शाम का नॉकआउट" not in body
    t.repeat = True
    again = tourney.tournament_repeat(t)
    assert (again.name, again.name_hi) == ("Evening knockout #2", "शाम का नॉकआउट #2")


def test_tables_and_computer_players_are_named_in_the_viewers_language(
    client: Any, players: list[Any], clock: Any, monkeypatch: Any
) -> None:
    """A tournament's table reads the tournament's name (its Hindi one in Hindi) with its
    round and table in words, on the table page and in My games; a computer player is "Bot 1"
    in English and "बॉट 1" in Hindi; a person who calls themselves "Bot 7" keeps the name."""
    from django.utils import translation

    from tables.services import bot_users_ensure

    t = _started(players, clock, monkeypatch, name_hi="शाम का नॉकआउट")
    table = t.rounds.get().tables.get().table
    with translation.override("en"):
        assert table.display_name() == "Evening knockout · round 1, table 1"
    with translation.override("hi"):
        assert table.display_name() == "शाम का नॉकआउट · राउंड 1, टेबल 1"
    client.force_login(players[0])
    page = client.get(reverse("table", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="hi")
    assert "शाम का नॉकआउट · राउंड 1, टेबल 1" in page.content.decode()
    bot = bot_users_ensure(count=1)[0]
    with translation.override("en"):
        assert bot.public_name == "Bot 1"
    with translation.override("hi"):
        assert bot.public_name == "बॉट 1"
        players[2].display_name = "Bot 7"
        assert players[2].public_name == "Bot 7"


def test_a_tournament_tables_name_is_read_with_the_table(
    players: list[Any], clock: Any, monkeypatch: Any, django_assert_num_queries: Any
) -> None:
    """The felt names a tournament's table after its tournament, round and place on every
    render and every push: those rows come with the table (the page's read and the move's
    lock), so naming it asks the database nothing more."""
    from django.utils import translation

    from tables import selectors
    from tables.services._context import lock_table

    t = _started(players, clock, monkeypatch)
    table_id = t.rounds.get().tables.get().table_id
    read = selectors.table_for_viewer(table=table_id, user=players[0])
    locked = lock_table(table_id)
    with translation.override("en"), django_assert_num_queries(0):
        assert read.table.display_name() == "Evening knockout · round 1, table 1"
        assert locked.display_name() == "Evening knockout · round 1, table 1"


def test_the_rounds_are_told_in_words(client: Any) -> None:
    """The worked sit & go of 7 (S = 6, Q = 2): two tables of 4 and 3, then a final of 4."""
    t = tourney.tournament_create_sit_and_go(
        name="Seven",
        entry_fee=0,
        fee_bps=0,
        players_min=7,
        players_max=7,
        seats_per_table=6,
        qualifiers_per_table=2,
        template=deals_template(),
    )
    page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    plan = re.search(r'<ol class="plain" id="round-plan">(.*?)</ol>', page, re.S)
    assert plan is not None
    assert re.findall(r"<li>(.*?)</li>", plan.group(1)) == [
        "Round 1: 2 tables, of 4 and 3 players",
        "The final: one table of 4 players",
    ]
    assert "The rounds with 7 players" in page and "→" not in page


def test_money_games_off_says_so_instead_of_a_register_button(
    client: Any, players: list[Any], settings: Any
) -> None:
    t = _open()
    client.force_login(players[0])
    settings.MONEY_GAMES = False
    page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert 'id="register"' not in page
    assert "Money games are off on this site: cash tournaments take no players." in page
    settings.MONEY_GAMES = True
    page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert 'id="register"' in page and 'id="register-closed"' not in page


def test_an_unverified_player_registers_as_at_cash_tables_and_is_told_about_withdrawals(
    client: Any, players: list[Any]
) -> None:
    t = _open()
    player = players[0]
    assert not player.identity_verified
    client.force_login(player)
    page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert 'id="identity-note"' in page and "withdrawing them needs a verified identity" in page
    client.post(reverse("tournaments:register", args=[t.pk]))
    assert Registration.objects.filter(tournament=t, user=player).exists()
    player.identity_verified = True
    player.save(update_fields=["identity_verified"])
    page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert 'id="identity-note"' not in page


def test_support_finds_tournaments_by_name_number_player_and_status(
    client: Any, players: list[Any]
) -> None:
    evening = _open()
    tourney.tournament_register(tournament=evening, user=players[0])
    morning = tourney.tournament_create_sit_and_go(
        name="Morning freeroll",
        entry_fee=0,
        fee_bps=0,
        players_min=2,
        players_max=4,
        template=deals_template(name="Morning deals"),
    )
    url = reverse("tournaments:support_search")
    agent = players[5]
    client.force_login(agent)
    assert client.get(url).status_code == 403
    agent.user_permissions.add(Permission.objects.get(codename="review_deals"))

    def found(**query: str) -> list[str]:
        page = client.get(url, query).content.decode()
        return re.findall(r'href="/support/tournaments/(\d+)/"', page)

    assert found() == [str(morning.pk), str(evening.pk)]  # newest first
    assert found(q="evening") == [str(evening.pk)]
    assert found(q=str(morning.pk)) == [str(morning.pk)]
    assert found(player=players[0].username) == [str(evening.pk)]
    assert found(status="registering") == [str(morning.pk), str(evening.pk)]
    page = client.get(url, {"q": "evening"}).content.decode()
    assert "₹20.00" in page and ">1<" in page  # the entry in rupees, one entry so far
    assert "No player is called" in client.get(url, {"player": "nobody"}).content.decode()
    bad = client.get(url, {"status": "{'x': 1}", "page": "9999"})
    assert bad.status_code == 200 and "Choose a status" in bad.content.decode()
    deals = client.get(reverse("support_deals")).content.decode()
    assert url in deals  # found from support's deal search


def test_support_page_and_export(
    client: Any, players: list[Any], clock: Any, monkeypatch: Any
) -> None:
    t = _started(players, clock, monkeypatch)
    agent = players[5]
    client.force_login(agent)
    assert client.get(reverse("tournaments:support", args=[t.pk])).status_code == 403
    agent.user_permissions.add(Permission.objects.get(codename="review_deals"))
    page = client.get(reverse("tournaments:support", args=[t.pk])).content.decode()
    assert "Round 1" in page and f"entry:tournament:{t.pk}:reg:" in page
    assert reverse("support_deal", args=[1]).rsplit("/", 2)[0] in page
    # Words and money, not Python values: no dict, list, True/False or None on the page.
    assert not re.search(r"\{'|\[\d+, \d+|>(True|False|None)<", page), page
    assert f"Drawn order: {players[0].username}" in page or (
        f"Drawn order: {players[1].username}" in page
    )
    assert "<dt>Pool</dt><dd>3600</dd>" in page  # the frozen settings, one per line
    export = client.get(reverse("tournaments:export", args=[t.pk]))
    data = json.loads(export.content)
    assert data["tournament"]["frozen"]["pool"] == 3_600
    assert len(data["rounds"]) == 1 and data["rounds"][0]["tables"][0]["games"][0]["deals"]
    assert {p["kind"] for p in data["payments"]} == {"entry_fee"}


def test_the_demo_seed_opens_repeating_sit_and_gos_once() -> None:
    from rummy_site.demo import demo_seed
    from tables.tournaments.models import Tournament

    demo_seed()
    demo_seed()
    open_ones = Tournament.objects.filter(status="registering")
    assert sorted(open_ones.values_list("name", flat=True)) == [
        "Practice sit & go",
        "Sit & go of 7",
    ]
    assert all(t.repeat and not t.template.is_active for t in open_ones)


def test_a_tables_tournament(
    players: list[Any], clock: Any, monkeypatch: Any, table_factory: Any
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tables.models import TABLE_NAME_RELATED, Table
    from tables.tournaments.selectors import tournament_of_table

    t = _started(players, clock, monkeypatch)
    seat = Registration.objects.get(tournament=t, user=players[0]).round_seats.get()
    assert seat.table.table_id is not None
    read = Table.objects.select_related(*TABLE_NAME_RELATED).get(pk=seat.table.table_id)
    with CaptureQueriesContext(connection) as queries:
        assert tournament_of_table(table=read) == t
    assert not queries.captured_queries  # as the table page reads the table: with its place
    assert tournament_of_table(table=Table.objects.get(pk=seat.table.table_id)) == t
    assert tournament_of_table(table=table_factory()) is None
