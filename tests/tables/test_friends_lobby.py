"""Friends at the tables (issue 35): Play now keeps blocked players apart where another table
exists and still seats them when none does; a private table takes no one blocked either way,
invite or not; the host invites a friend in one click (a blocked player's invite is refused);
the lobby shows friends online, where they play with a watch link, and the invites."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from tables_testkit import Clock, fund, with_welcome_chips

from accounts.friends import services as friends
from accounts.friends.errors import FriendRefusal, FriendRefused
from accounts.friends.models import FriendInvite
from accounts.friends.signals import friend_invited
from tables import services
from tables.live import presence
from tables.live.routing import websocket_urlpatterns
from tables.models import Seat, Table, TableStatus, TableTemplate
from tables.services.friends import table_friend_invite
from tables.web import friends as friends_web

pytestmark = pytest.mark.django_db


@pytest.fixture
def user_factory(user_factory: Callable[..., Any]) -> Callable[..., Any]:
    """People here signed up: they hold the welcome practice chips."""
    return with_welcome_chips(user_factory)


def _befriend(a: Any, b: Any) -> None:
    request = friends.friend_request_send(sender=a, receiver=b)
    friends.friend_request_accept(user=b, request_id=request.pk)


def _table_of(user: Any) -> int:
    return Seat.objects.get(user=user, left_at__isnull=True).table_id


# ------------------------------------------------------------------------------- Play now


def test_play_now_seats_blocked_players_apart_where_another_table_exists(
    template_factory: Callable[..., TableTemplate], players: list[Any], clock: Clock
) -> None:
    template = template_factory(seats_min=3, seats_max=3, entry_fee=500, max_tables=3)
    asha, bilal, chen = players[:3]
    friends.player_block(blocker=bilal, blocked=asha)
    first = services.template_play_now(template=template, user=asha)
    second = services.template_play_now(template=template, user=bilal)
    assert second.table_id != first.table_id  # a new table rather than beside the blocker
    third = services.template_play_now(template=template, user=chen)  # nobody blocked chen
    assert third.table_id == first.table_id


def test_play_now_still_seats_blocked_players_together_when_no_other_table_exists(
    template_factory: Callable[..., TableTemplate], players: list[Any], clock: Clock
) -> None:
    template = template_factory(seats_min=3, seats_max=3, entry_fee=500, max_tables=1)
    asha, bilal = players[:2]
    friends.player_block(blocker=asha, blocked=bilal)
    first = services.template_play_now(template=template, user=asha)
    second = services.template_play_now(template=template, user=bilal)
    assert second.table_id == first.table_id  # one table only: a seat beats a refusal


def test_play_now_prefers_a_table_without_the_blocked_player_when_no_table_may_open(
    template_factory: Callable[..., TableTemplate], players: list[Any], clock: Clock
) -> None:
    template = template_factory(
        seats_min=3, seats_max=3, entry_fee=500, max_tables=2, min_open_tables=0
    )
    asha, chen, dev = players[:3]
    first = services.template_play_now(template=template, user=asha)
    other = services.table_create(template=template)
    services.table_join(table=other, user=chen)
    assert Table.objects.filter(template=template).count() == 2  # the most: none may open
    friends.player_block(blocker=dev, blocked=asha)
    # Both tables wait with one player each; the first would come first, but asha sits there.
    assert services.template_play_now(template=template, user=dev).table_id == other.pk
    assert first.table_id != other.pk


# ------------------------------------------------------------------------ private tables


def test_a_blocked_player_cannot_join_a_private_table_by_its_invite(
    practice_pool: TableTemplate, user_factory: Callable[..., Any], clock: Clock
) -> None:
    host, friend, guest = user_factory(), user_factory(), user_factory()
    table = services.table_private_create(template=practice_pool, user=host)
    friends.player_block(blocker=friend, blocked=host)  # the friend blocked the host
    with pytest.raises(services.SeatUnavailable) as caught:
        services.table_join_by_code(code=table.invite_code, user=friend)
    assert "blocked" in str(caught.value)
    services.table_join_by_code(code=table.invite_code, user=guest)
    friends.player_block(blocker=guest, blocked=user_factory())  # unrelated blocks do not matter
    stranger = user_factory()
    friends.player_block(blocker=guest, blocked=stranger)  # blocked by one seated: refused
    before = Seat.objects.count()
    with pytest.raises(services.SeatUnavailable):
        services.table_join(table=table, user=stranger, invite=table.invite_token)
    assert Seat.objects.count() == before


def test_the_host_invites_a_friend_in_one_click_and_the_lobby_shows_it(
    client: Client,
    practice_pool: TableTemplate,
    user_factory: Callable[..., Any],
    clock: Clock,
    django_capture_on_commit_callbacks: Any,
) -> None:
    host = user_factory(display_name="Asha")
    friend = user_factory(display_name="Bilal")
    _befriend(host, friend)
    table = services.table_private_create(template=practice_pool, user=host)
    client.force_login(host)
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert 'id="invite-friends"' in page and "Bilal" in page
    heard: list[dict[str, Any]] = []

    def on_invite(sender: object, **kwargs: Any) -> None:
        heard.append(kwargs)

    friend_invited.connect(on_invite, dispatch_uid="test.lobby.on_invite")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            sent = client.post(
                reverse("table_invite_friend", args=[table.pk]), {"friend": friend.pk}
            )
            again = client.post(  # a double click
                reverse("table_invite_friend", args=[table.pk]), {"friend": friend.pk}
            )
    finally:
        friend_invited.disconnect(dispatch_uid="test.lobby.on_invite")
    assert sent.status_code == 302 and again.status_code == 302
    assert FriendInvite.objects.count() == 1 and len(heard) == 1
    assert heard[0]["table_id"] == table.pk
    assert heard[0]["invite_url"] == reverse("table_invite", args=[table.invite_token])
    client.force_login(friend)
    lobby = client.get(reverse("lobby")).content.decode()
    assert "Asha invites you to Asha&#x27;s table" in lobby
    assert heard[0]["invite_url"] in lobby
    # The friend follows it and joins.
    assert client.get(heard[0]["invite_url"])["Location"] == reverse("table", args=[table.pk])
    client.post(reverse("table_join", args=[table.pk]))
    assert Seat.objects.filter(table=table, user=friend, left_at__isnull=True).exists()


def test_the_friends_page_shows_the_invites_to_tables_still_open(
    client: Client,
    practice_pool: TableTemplate,
    user_factory: Callable[..., Any],
    clock: Clock,
) -> None:
    host = user_factory(display_name="Asha")
    friend = user_factory(display_name="Bilal")
    _befriend(host, friend)
    table = services.table_private_create(template=practice_pool, user=host)
    table_friend_invite(table_id=table.pk, host=host, friend_id=friend.pk)
    client.force_login(friend)
    page = client.get(reverse("friends")).content.decode()
    assert 'id="friend-invites-card"' in page
    assert "Asha invites you to Asha&#x27;s table" in page
    assert reverse("table_invite", args=[table.invite_token]) in page
    hindi = client.get(reverse("friends"), HTTP_ACCEPT_LANGUAGE="hi").content.decode()
    assert "निजी टेबलों के न्योते" in hindi
    Table.objects.filter(pk=table.pk).update(status=TableStatus.CLOSED)
    page = client.get(reverse("friends")).content.decode()
    assert 'id="friend-invites-card"' not in page and "invites you to" not in page
    client.force_login(host)  # the host has no invite: no card
    assert 'id="friend-invites-card"' not in client.get(reverse("friends")).content.decode()


def test_a_blocked_players_invite_is_refused_and_changes_nothing(
    client: Client, practice_pool: TableTemplate, user_factory: Callable[..., Any], clock: Clock
) -> None:
    host, friend, stranger = user_factory(), user_factory(), user_factory()
    _befriend(host, friend)
    table = services.table_private_create(template=practice_pool, user=host)
    friends.player_block(blocker=friend, blocked=host)
    with pytest.raises(FriendRefused) as caught:
        table_friend_invite(table_id=table.pk, host=host, friend_id=friend.pk)
    assert caught.value.code == FriendRefusal.INVITE_BLOCKED
    with pytest.raises(FriendRefused) as not_friend:
        table_friend_invite(table_id=table.pk, host=host, friend_id=str(stranger.pk))
    assert not_friend.value.code == FriendRefusal.INVITE_NOT_FRIEND
    client.force_login(host)
    response = client.post(reverse("table_invite_friend", args=[table.pk]), {"friend": friend.pk})
    assert response.status_code == 400
    assert "one of you blocked the other" in response.content.decode()
    assert not FriendInvite.objects.exists()


@pytest.mark.parametrize(
    ("table", "friend", "status", "words"),
    [
        ("own", "abc", 404, "There is no such player"),
        ("own", "9" * 19, 404, "There is no such player"),
        ("own", "", 404, "There is no such player"),
        ("other", "friend", 400, "Only the host invites friends"),
        ("missing", "friend", 404, "This page does not exist"),
    ],
)
def test_forged_invites_are_answered_with_words_never_500(
    client: Client,
    practice_pool: TableTemplate,
    user_factory: Callable[..., Any],
    clock: Clock,
    table: str,
    friend: str,
    status: int,
    words: str,
) -> None:
    host, pal, other_host = user_factory(), user_factory(), user_factory()
    _befriend(host, pal)
    own = services.table_private_create(template=practice_pool, user=host)
    other = services.table_private_create(template=practice_pool, user=other_host)
    table_id = {"own": own.pk, "other": other.pk, "missing": 10**9}[table]
    client.force_login(host)
    response = client.post(
        reverse("table_invite_friend", args=[table_id]),
        {"friend": str(pal.pk) if friend == "friend" else friend},
    )
    assert response.status_code == status
    assert words in response.content.decode()
    assert not FriendInvite.objects.exists()


# ----------------------------------------------------------------------- friends online


def test_the_lobby_shows_a_friend_online_where_they_play_with_a_watch_link(
    client: Client,
    template_factory: Callable[..., TableTemplate],
    user_factory: Callable[..., Any],
    clock: Clock,
) -> None:
    template = template_factory(name="Pool Night", seats_min=3, seats_max=3, entry_fee=500)
    me, online, offline, stranger = (
        user_factory(display_name=n) for n in ("Meera", "Kiran", "Ravi", "Zoya")
    )
    for user in (online, offline, stranger):
        fund(user, 10_000)
    _befriend(me, online)
    _befriend(offline, me)
    seats = {
        u.pk: services.template_play_now(template=template, user=u)
        for u in (online, offline, stranger)
    }
    for user in (online, stranger):
        presence.socket_opened(table_id=seats[user.pk].table_id, user_id=user.pk)
    client.force_login(me)
    page = client.get(reverse("lobby")).content.decode()
    section = page.split('id="friends-online"', 1)[1].split("</section>", 1)[0]
    assert "Kiran" in section and "Ravi" not in section and "Zoya" not in section
    assert "Pool Night" in section
    assert f'href="{reverse("table", args=[seats[online.pk].table_id])}"' in section
    assert "Watch" in section
    # Cheap: the friends online in two queries (and one cache read), the invites in one more.
    with CaptureQueriesContext(connection) as queries:
        context = friends_web.lobby_context(me)
    assert [f.name for f in context["friends_online"]] == ["Kiran"]
    assert len(queries) == 3
    # The socket closed: no longer online.
    presence.socket_closed(table_id=seats[online.pk].table_id, user_id=online.pk)
    assert friends_web.friends_online(user=me) == []


def test_the_lobby_friends_in_hindi(client: Client, user_factory: Callable[..., Any]) -> None:
    client.force_login(user_factory(language="hi"))
    page = client.get(reverse("lobby")).content.decode()
    assert "ऑनलाइन दोस्त" in page


@pytest.mark.django_db(transaction=True)
def test_a_friend_with_the_lobby_open_is_online_in_the_lobby(
    client: Client, user_factory: Callable[..., Any]
) -> None:
    """Through the real lobby socket (channels' communicator, the configured channel layer)."""
    me, pal = user_factory(display_name="Meera"), user_factory(display_name="Kiran")
    _befriend(me, pal)
    client.force_login(pal)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    app = AuthMiddlewareStack(URLRouter(websocket_urlpatterns))

    async def lobby_open_then_closed() -> tuple[list[str], list[str]]:
        ws = WebsocketCommunicator(app, "/ws/lobby/", headers=[(b"cookie", cookie.encode())])
        connected, _ = await ws.connect()
        assert connected
        shown = await database_sync_to_async(_online_names)(me)
        await ws.disconnect()
        return shown, await database_sync_to_async(_online_names)(me)

    while_open, after = async_to_sync(lobby_open_then_closed)()
    assert while_open == ["Kiran in the lobby"] and after == []
    client.force_login(me)
    assert presence.lobby_opened(user_id=pal.pk) == 1
    section = client.get(reverse("lobby")).content.decode().split('id="friends-online"')[1]
    section = section.split("</section>")[0]
    assert "Kiran" in section and "in the lobby" in section and "Watch" not in section
    presence.lobby_closed(user_id=pal.pk)


def _online_names(user: Any) -> list[str]:
    return [
        f"{f.name} in the lobby" if f.table_id is None else f"{f.name} at {f.table_name}"
        for f in friends_web.friends_online(user=user)
    ]
