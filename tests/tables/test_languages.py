"""Languages at the table and on the pages (issue 17): each player reads the table in their own
language, pushed views included; the page language follows the browser, then the player's
saved choice (the header's switcher); amounts are grouped the Indian way."""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse
from django.utils import translation
from tables_testkit import fund, plant, play
from test_consumers import _connected, _heard, _kind, _play, _readable

from tables.live import realtime
from tables.live.presence import presence_key
from tables.live.routing import websocket_urlpatterns

APP = AuthMiddlewareStack(URLRouter(websocket_urlpatterns))


@pytest.fixture(autouse=True)
def _default_language_afterwards():
    """A request activates its language in the thread and leaves it there: the next test
    module (services called directly) must not read Hindi."""
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


def _cookie_for(user: Any, language: str = "") -> list[tuple[bytes, bytes]]:
    client = Client()
    client.force_login(user)
    session = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    headers = [(b"cookie", f"{django_settings.SESSION_COOKIE_NAME}={session}".encode())]
    if language:
        headers.append((b"accept-language", language.encode()))
    return headers


@pytest.fixture
def mixed(seated: Any, toss: Any) -> Any:
    """A two-seat table: seat 1 reads Hindi, seat 2 English."""
    from django.core.cache import cache

    toss(1)
    t = seated(2)
    t.users[1].language = "hi"
    t.users[1].save(update_fields=["language"])
    t.users[2].language = "en"
    t.users[2].save(update_fields=["language"])
    cache.delete_many([presence_key(t.table.pk, u.pk) for u in t.users.values()])
    return t


@pytest.mark.django_db(transaction=True)
def test_each_seat_is_pushed_its_view_in_its_own_language(mixed, user_factory, monkeypatch):
    # Every seat's parts whole, as for a move that changes more than the state (with nothing
    # remembered, a pick sends only the parts it changed: ``realtime._Before``).
    monkeypatch.setattr(realtime, "_STATE_ONLY", frozenset())
    cookies = {seat: _cookie_for(mixed.users[seat]) for seat in (1, 2)}
    spectator = _cookie_for(user_factory(language="hi"))

    async def scenario() -> dict[Any, str]:
        from channels.db import database_sync_to_async

        sockets = {}
        for key, headers in (*cookies.items(), ("spectator", spectator)):
            ws = WebsocketCommunicator(APP, f"/ws/tables/{mixed.table.pk}/", headers=headers)
            await _connected(ws)
            sockets[key] = ws
        for ws in sockets.values():
            await _heard(ws, quiet=0.2)  # the seats' badges
        await database_sync_to_async(mixed.act)(1, "pick_closed")
        heard = {key: await _heard(ws) for key, ws in sockets.items()}
        for ws in sockets.values():
            await ws.disconnect()
        return heard

    frames = async_to_sync(scenario)()
    heard = {key: "".join(_readable(m) for m in got) for key, got in frames.items()}
    number = mixed.game().deals.order_by("-number").first().number
    # Each seat's own fragment (the shoe commitment) and its felt are in its language.
    assert f"डील {number} के शू की प्रतिबद्धता" in heard[1]
    assert "shoe commitment" not in heard[1] and "Closed deck" not in heard[1]
    assert f"Deal {number} shoe commitment" in heard[2] and "Closed deck" in heard[2]
    assert "प्रतिबद्धता" not in heard[2]
    # Hindi is in use at the table: a Hindi spectator reads the Hindi felt, no fragment.
    assert 'id="felt-root"' in heard["spectator"] and "Closed deck" not in heard["spectator"]
    assert "seat" not in [_kind(m) for m in frames["spectator"]]


@pytest.mark.django_db(transaction=True)
def test_a_spectator_in_a_language_nobody_seated_reads_is_told_the_version(mixed, user_factory):
    """The felt is rendered in the languages in use at the table only: a spectator reading
    another one is told the new version and re-fetches the view in its own language."""
    for user in mixed.users.values():
        user.language = "en"
        user.save(update_fields=["language"])
    spectator = _cookie_for(user_factory(language="hi"))

    async def scenario() -> str:
        from channels.db import database_sync_to_async

        ws = WebsocketCommunicator(APP, f"/ws/tables/{mixed.table.pk}/", headers=spectator)
        await _connected(ws)
        await database_sync_to_async(mixed.act)(1, "pick_closed")
        heard = " ".join(_kind(m) + " " + _readable(m) for m in await _heard(ws))
        await ws.disconnect()
        return heard

    heard = async_to_sync(scenario)()
    assert "refetch" in heard and 'id="felt-root"' not in heard


@pytest.mark.django_db
def test_the_table_page_and_its_partial_render_in_the_viewers_language(mixed):
    for seat, words in ((1, "के शू की प्रतिबद्धता"), (2, "shoe commitment")):
        client = Client()
        client.force_login(mixed.users[seat])
        for name in ("table", "table_view"):
            html = client.get(reverse(name, args=[mixed.table.pk])).content.decode()
            assert words in html, (seat, name)


@pytest.mark.django_db
def test_the_language_follows_the_browser_then_the_players_choice(player):
    client = Client(HTTP_ACCEPT_LANGUAGE="hi-IN,hi;q=0.9,en;q=0.5")
    page = client.get(reverse("login")).content.decode()
    assert '<html lang="hi">' in page and "लॉग इन" in page and ">Log in<" not in page

    client.force_login(player)
    player.language = "en"
    player.save(update_fields=["language"])
    page = client.get(reverse("profile")).content.decode()
    assert '<html lang="en">' in page and "Your profile" in page  # the saved choice wins

    switched = client.post(reverse("set_language"), {"language": "hi", "next": "/wallet/"})
    assert switched.status_code == 302 and switched["Location"] == "/wallet/"
    player.refresh_from_db()
    assert player.language == "hi"
    other_device = Client(HTTP_ACCEPT_LANGUAGE="en")
    other_device.force_login(player)
    assert "आपकी प्रोफ़ाइल" in other_device.get(reverse("profile")).content.decode()


@pytest.mark.django_db
def test_an_anonymous_switch_sets_the_cookie_only():
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    response = client.post(reverse("set_language"), {"language": "hi", "next": "/"})
    assert response.status_code == 302
    assert response.cookies[django_settings.LANGUAGE_COOKIE_NAME].value == "hi"
    assert "लॉबी" in client.get(reverse("login")).content.decode()


@pytest.mark.django_db
def test_a_hindi_player_sees_indian_grouping_and_hindi_words_in_the_wallet(player):
    player.language = "hi"
    player.save(update_fields=["language"])
    fund(player, 10_000_000)  # ₹1,00,000.00
    client = Client()
    client.force_login(player)
    html = client.get(reverse("wallet")).content.decode()
    assert "₹1,00,000.00" in html and "वॉलेट" in html and "नकद का विवरण" in html


@pytest.mark.django_db
def test_a_refusal_reads_in_the_players_language(mixed):
    """A discard before picking: the engine's English refusal reaches the Hindi player in
    Hindi, the English player in English."""
    game = mixed.game()
    for seat, words in ((1, "पहले एक पत्ता उठाएँ।"), (2, "It is not your turn.")):
        client = Client()
        client.force_login(mixed.users[seat])
        card = mixed.view(seat)["hand"]["cards"][0]
        response = client.post(
            reverse("table_act", args=[mixed.table.pk]),
            {"action": "discard", "version": game.version, "card": card},
            HTTP_HX_REQUEST="true",
        )
        assert response.status_code == 400
        assert words in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("variant", ["pool101", "pool201", "deals", "points", "classic"])
def test_a_rules_page_per_variant_in_both_languages(variant):
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("rules", args=[variant]))
    hindi = Client(HTTP_ACCEPT_LANGUAGE="hi").get(reverse("rules", args=[variant]))
    assert english.status_code == hindi.status_code == 200
    assert "played and scored" in english.content.decode()
    page = hindi.content.decode()
    assert "कैसे खेली जाती है" in page and "played and scored" not in page
    if variant == "pool201":
        assert "पूल 201" in page


@pytest.mark.django_db
def test_a_rules_page_opened_from_a_table_shows_its_own_numbers(table_factory):
    table = table_factory(variant="pool101", first_drop=15, middle_drop=35, pool_limit=101)
    url = reverse("rules", args=["pool101"]) + f"?table={table.pk}"
    page = Client(HTTP_ACCEPT_LANGUAGE="hi").get(url).content.decode()
    assert "आपकी टेबल" in page and table.name in page
    numbers = page.split('id="rules-numbers"')[1].split("</table>")[0]
    assert "<td>15</td>" in numbers and "<td>35</td>" in numbers
    default = Client().get(reverse("rules", args=["pool101"])).content.decode()
    assert "<td>20</td>" in default.split('id="rules-numbers"')[1]
    assert Client().get(reverse("rules", args=["bridge"])).status_code == 404


# --- the table UI in Hindi (issue 17 after issue 16) ---------------------------------------------
def _hindi_table_words(t: Any, seat: int) -> tuple[str, str]:
    """The table partial a Hindi player reads: (its HTML, the text with tags dropped and the
    players' names taken out)."""
    user = t.users[seat]
    user.language = "hi"
    user.save(update_fields=["language"])
    client = Client()
    client.force_login(user)
    page = client.get(reverse("table", args=[t.table.pk])).content.decode()
    partial = page.split('id="table-root"', 1)[1]
    # the shoe commitment (checked above) holds SHA-256 and card codes
    partial = re.sub(r'<details class="card commitment".*?</details>', "", partial, flags=re.S)
    text = html_lib.unescape(re.sub(r"<[^>]+>", " ", partial.split(">", 1)[1]))
    for name in [t.table.name, *(u.public_name for u in t.users.values())]:
        text = text.replace(str(name), " ")
    return partial, text


def _english_words(text: str) -> list[str]:
    allowed = {"Enter", "Space", "Alt", "JK"}  # key names on the keyboard legend; a joker's index
    return [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in allowed]


@pytest.mark.django_db
def test_a_hindi_player_reads_the_table_mid_deal_in_hindi(seated, toss):
    toss(1)
    t = seated(3, variant="pool101")
    html, text = _hindi_table_words(t, 1)
    for words in ("बंद डेक से उठाएँ", "खुले डेक से उठाएँ", "ड्रॉप (", "आपके पत्ते", "कीबोर्ड"):
        assert words in html, words
    assert "इस टेबल पर अंक कैसे गिने जाते हैं" in html and "/rules/pool101/?table=" in html
    for english in ("Discard", "Drop", "pure sequence", "Pick closed", "Your cards", "Keyboard"):
        assert english not in html, english
    assert _english_words(text) == []

    t.act(1, "pick_closed")
    html, text = _hindi_table_words(t, 1)
    assert "फेंकें" in html and "Discard" not in html
    assert "आप ने बंद डेक से पत्ता उठाया" in html  # the last move, said to the viewer
    assert _english_words(text) == []


@pytest.mark.django_db
def test_a_hindi_player_reads_the_result_sheet_in_hindi(seated, planter, toss):
    toss(1)
    first = {1: 0, 2: 34, 3: 48}
    planned = plant(planter, first)
    t = seated(3, variant="pool101")
    play(t, *planned, first)
    html, text = _hindi_table_words(t, 2)
    sheet = html.split('id="scoreboard"', 1)[1].split("</section>", 1)[0]
    assert "डील 1 का नतीजा" in sheet and "ने सही शो किया और डील जीती।" in sheet
    assert "प्योर सीक्वेंस" in sheet and "फ़िनिश पत्ता" in sheet and "विजेता" in sheet
    for english in ("pure sequence", "result", "valid show", "finish card", ">Points<", ">Player<"):
        assert english not in sheet, english
    assert _english_words(text) == []


@pytest.mark.django_db(transaction=True)
def test_seats_in_turn_hindi_english_hindi_are_each_pushed_their_own_language(
    seated, toss, monkeypatch
):
    """The push switches the language only where a seat's differs from the seat before's: the
    third seat, after an English one, reads Hindi again, and the felt after them is rendered
    in each language in use."""
    from django.core.cache import cache

    monkeypatch.setattr(realtime, "_STATE_ONLY", frozenset())  # every seat's parts whole

    toss(1)
    t = seated(3)
    for seat, language in ((1, "hi"), (2, "en"), (3, "hi")):
        t.users[seat].language = language
        t.users[seat].save(update_fields=["language"])
    cache.delete_many([presence_key(t.table.pk, u.pk) for u in t.users.values()])
    cookies = {seat: _cookie_for(t.users[seat]) for seat in (1, 2, 3)}
    (frames,) = _play(t, cookies, [(1, "pick_closed", {})])
    heard = {seat: "".join(_readable(m) for m in got) for seat, got in frames.items()}
    number = t.game().deals.order_by("-number").first().number
    for seat in (1, 3):
        assert f"डील {number} के शू की प्रतिबद्धता" in heard[seat], seat
        assert "shoe commitment" not in heard[seat] and "Closed deck" not in heard[seat]
    assert f"Deal {number} shoe commitment" in heard[2] and "Closed deck" in heard[2]
    assert "प्रतिबद्धता" not in heard[2]
