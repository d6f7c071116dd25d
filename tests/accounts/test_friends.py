"""Friends and blocking (issue 35): requests sent, accepted, refused; friends removed; players
blocked and unblocked; every refusal changes nothing; the search by public name; the pages
answer forged input with words (400/404), never a 500."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from accounts.friends import selectors, services
from accounts.friends.errors import FriendRefusal, FriendRefused
from accounts.friends.models import Block, FriendInvite, FriendRequest, Friendship, RequestState
from accounts.friends.signals import friend_invited, friend_request_sent
from accounts.models import User

pytestmark = pytest.mark.django_db

Make = Callable[..., User]


def _rows() -> dict[str, Any]:
    """Everything the friends' services write, to compare before and after a refusal."""
    return {
        "requests": sorted(FriendRequest.objects.values_list("pk", "state", "answered_at")),
        "friendships": sorted(Friendship.objects.values_list("pk", "user_low", "user_high")),
        "blocks": sorted(Block.objects.values_list("pk", "blocker", "blocked")),
        "invites": sorted(FriendInvite.objects.values_list("pk", "host", "friend", "table_id")),
    }


def _refused(code: FriendRefusal, action: Callable[[], object]) -> FriendRefused:
    """Run ``action``: it must be refused with ``code`` and change nothing."""
    before = _rows()
    with pytest.raises(FriendRefused) as caught:
        action()
    assert caught.value.code == code
    assert str(caught.value)  # the player's words
    assert _rows() == before
    return caught.value


def _friends(a: User, b: User) -> None:
    request = services.friend_request_send(sender=a, receiver=b)
    services.friend_request_accept(user=b, request_id=request.pk)


def test_a_request_accepted_makes_friends_both_ways(user_factory: Make) -> None:
    asha, bilal = user_factory(display_name="Asha"), user_factory(display_name="Bilal")
    request = services.friend_request_send(sender=asha, receiver=bilal)
    assert selectors.requests_out(user=asha) == [request]
    assert selectors.requests_in(user=bilal) == [request]
    services.friend_request_accept(user=bilal, request_id=request.pk)
    assert selectors.friends_of(user=asha) == [bilal]
    assert selectors.friends_of(user=bilal) == [asha]
    assert selectors.are_friends(bilal, asha)
    request.refresh_from_db()
    assert request.state == RequestState.ACCEPTED and request.answered_at is not None
    assert selectors.requests_in(user=bilal) == [] and selectors.requests_out(user=asha) == []


def test_a_refused_request_makes_no_friends_and_may_be_asked_again(user_factory: Make) -> None:
    asha, bilal = user_factory(), user_factory()
    request = services.friend_request_send(sender=asha, receiver=bilal)
    services.friend_request_refuse(user=bilal, request_id=request.pk)
    assert selectors.friends_of(user=asha) == []
    request.refresh_from_db()
    assert request.state == RequestState.REFUSED
    again = services.friend_request_send(sender=asha, receiver=bilal)
    assert again.pk != request.pk and again.state == RequestState.PENDING


def test_every_refusal_of_a_request_changes_nothing(user_factory: Make) -> None:
    asha, bilal, chen, dev = (
        user_factory(display_name=n) for n in ("Asha", "Bilal", "Chen", "Dev")
    )
    _refused(
        FriendRefusal.REQUEST_SELF,
        lambda: services.friend_request_send(sender=asha, receiver=asha),
    )
    services.friend_request_send(sender=asha, receiver=bilal)
    refused = _refused(
        FriendRefusal.ALREADY_ASKED,
        lambda: services.friend_request_send(sender=asha, receiver=bilal),
    )
    assert "Bilal" in str(refused)
    _refused(
        FriendRefusal.ASKED_YOU, lambda: services.friend_request_send(sender=bilal, receiver=asha)
    )
    services.player_block(blocker=chen, blocked=asha)
    _refused(
        FriendRefusal.BLOCKED_YOU,
        lambda: services.friend_request_send(sender=asha, receiver=chen),
    )
    _refused(
        FriendRefusal.YOU_BLOCKED,
        lambda: services.friend_request_send(sender=chen, receiver=asha),
    )
    _friends(asha, dev)
    _refused(
        FriendRefusal.ALREADY_FRIENDS,
        lambda: services.friend_request_send(sender=dev, receiver=asha),
    )


def test_only_the_receiver_answers_a_request_and_only_once(user_factory: Make) -> None:
    asha, bilal, chen = user_factory(), user_factory(), user_factory()
    request = services.friend_request_send(sender=asha, receiver=bilal)
    for stranger in (chen, asha):  # someone else's request, or one's own
        _refused(
            FriendRefusal.NO_SUCH_REQUEST,
            partial(services.friend_request_accept, user=stranger, request_id=request.pk),
        )
        _refused(
            FriendRefusal.NO_SUCH_REQUEST,
            partial(services.friend_request_refuse, user=stranger, request_id=request.pk),
        )
    _refused(
        FriendRefusal.NO_SUCH_REQUEST,
        lambda: services.friend_request_accept(user=bilal, request_id=10**9),
    )
    services.friend_request_accept(user=bilal, request_id=request.pk)
    _refused(  # a double click
        FriendRefusal.REQUEST_ANSWERED,
        lambda: services.friend_request_accept(user=bilal, request_id=request.pk),
    )
    _refused(
        FriendRefusal.REQUEST_ANSWERED,
        lambda: services.friend_request_refuse(user=bilal, request_id=request.pk),
    )


def test_the_sender_withdraws_a_pending_request_once(user_factory: Make) -> None:
    asha, bilal, chen = user_factory(), user_factory(), user_factory()
    request = services.friend_request_send(sender=asha, receiver=bilal)
    for other in (bilal, chen):  # the receiver refuses, never withdraws; a stranger neither
        _refused(
            FriendRefusal.NO_SUCH_REQUEST,
            partial(services.friend_request_cancel, user=other, request_id=request.pk),
        )
    services.friend_request_cancel(user=asha, request_id=request.pk)
    request.refresh_from_db()
    assert request.state == RequestState.CANCELLED
    assert selectors.requests_in(user=bilal) == [] and selectors.requests_out(user=asha) == []
    _refused(
        FriendRefusal.REQUEST_ANSWERED,
        partial(services.friend_request_cancel, user=asha, request_id=request.pk),
    )
    _refused(  # the withdrawn request cannot be accepted after all
        FriendRefusal.REQUEST_ANSWERED,
        partial(services.friend_request_accept, user=bilal, request_id=request.pk),
    )
    services.friend_request_send(sender=asha, receiver=bilal)  # and may be sent again


def test_removing_a_friend_and_removing_a_non_friend(user_factory: Make) -> None:
    asha, bilal, chen = user_factory(), user_factory(), user_factory()
    _friends(asha, bilal)
    services.friend_remove(user=bilal, friend=asha)  # either may end it
    assert selectors.friends_of(user=asha) == []
    _refused(FriendRefusal.NOT_FRIENDS, lambda: services.friend_remove(user=asha, friend=bilal))
    _refused(FriendRefusal.NOT_FRIENDS, lambda: services.friend_remove(user=asha, friend=chen))


def test_blocking_ends_the_friendship_and_the_pending_requests(user_factory: Make) -> None:
    asha, bilal, chen = user_factory(), user_factory(), user_factory()
    _friends(asha, bilal)
    pending = services.friend_request_send(sender=chen, receiver=asha)
    FriendInvite.objects.create(
        host=bilal, friend=asha, table_id=7, table_name="Bilal's table", invite_url="/x/"
    )
    services.player_block(blocker=asha, blocked=bilal)
    services.player_block(blocker=asha, blocked=chen)
    assert selectors.friends_of(user=asha) == []
    assert not FriendInvite.objects.exists()
    pending.refresh_from_db()
    assert pending.state == RequestState.CANCELLED
    assert selectors.is_blocked(asha, bilal) and selectors.is_blocked(bilal, asha)
    assert selectors.blocked_ids(user=bilal) == {asha.pk}
    assert selectors.blocked_ids(user=asha) == {bilal.pk, chen.pk}
    assert {u.pk for u in selectors.blocked_by(user=asha)} == {bilal.pk, chen.pk}
    _refused(
        FriendRefusal.ALREADY_BLOCKED, lambda: services.player_block(blocker=asha, blocked=bilal)
    )
    _refused(FriendRefusal.BLOCK_SELF, lambda: services.player_block(blocker=asha, blocked=asha))
    _refused(
        FriendRefusal.NOT_BLOCKED, lambda: services.player_unblock(blocker=bilal, blocked=asha)
    )
    services.player_unblock(blocker=asha, blocked=bilal)
    assert not selectors.is_blocked(asha, bilal)
    assert selectors.friends_of(user=asha) == []  # unblocking makes no friends again


def test_a_computer_player_or_a_closed_account_takes_no_request(user_factory: Make) -> None:
    from tables.models import BotProfile

    asha, bot, gone = user_factory(), user_factory(username="bot-1"), user_factory(is_active=False)
    BotProfile.objects.create(user=bot)
    for other in (bot, gone):
        _refused(
            FriendRefusal.NO_SUCH_PLAYER,
            partial(services.friend_request_send, sender=asha, receiver=other),
        )
        _refused(
            FriendRefusal.NO_SUCH_PLAYER,
            partial(services.player_block, blocker=asha, blocked=other),
        )


def test_the_database_refuses_what_the_services_refuse(user_factory: Make) -> None:
    asha, bilal = user_factory(), user_factory()
    FriendRequest.objects.create(sender=asha, receiver=bilal)
    cases: list[Callable[[], object]] = [
        lambda: FriendRequest.objects.create(sender=asha, receiver=asha),
        lambda: FriendRequest.objects.create(sender=bilal, receiver=asha),  # pending either way
        lambda: Friendship.objects.create(user_low=bilal, user_high=asha),  # out of order
        lambda: Block.objects.create(blocker=asha, blocked=asha),
    ]
    Block.objects.create(blocker=asha, blocked=bilal)
    cases.append(lambda: Block.objects.create(blocker=asha, blocked=bilal))
    for case in cases:
        with pytest.raises(IntegrityError), transaction.atomic():
            case()
    # A pending request beside answered ones of the same pair is fine.
    FriendRequest.objects.filter(sender=asha).update(state=RequestState.REFUSED)
    FriendRequest.objects.create(sender=bilal, receiver=asha)


def test_the_signals_are_sent_after_the_commit(
    user_factory: Make, django_capture_on_commit_callbacks: Any
) -> None:
    heard: list[tuple[str, dict[str, Any]]] = []

    def on_request(sender: object, **kwargs: Any) -> None:
        heard.append(("request", kwargs))

    def on_invite(sender: object, **kwargs: Any) -> None:
        heard.append(("invite", kwargs))

    friend_request_sent.connect(on_request, dispatch_uid="test.on_request")
    friend_invited.connect(on_invite, dispatch_uid="test.on_invite")
    try:
        asha, bilal = user_factory(), user_factory()
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            request = services.friend_request_send(sender=asha, receiver=bilal)
            assert heard == []  # not before the commit
        assert len(callbacks) == 1
        assert heard == [
            (
                "request",
                {"signal": friend_request_sent, "sender_user": asha, "receiver_user": bilal},
            )
        ]
        services.friend_request_accept(user=bilal, request_id=request.pk)
        heard.clear()
        with django_capture_on_commit_callbacks(execute=True):
            services.friend_invite_send(
                host=asha, friend=bilal, table_id=5, table_name="T", invite_url="/invite/tok/"
            )
            services.friend_invite_send(  # a double click: nothing new, nothing sent
                host=asha, friend=bilal, table_id=5, table_name="T", invite_url="/invite/tok/"
            )
        assert [kind for kind, _ in heard] == ["invite"]
        assert heard[0][1]["host"] == asha and heard[0][1]["friend"] == bilal
        assert heard[0][1]["table_id"] == 5 and heard[0][1]["invite_url"] == "/invite/tok/"
    finally:
        friend_request_sent.disconnect(dispatch_uid="test.on_request")
        friend_invited.disconnect(dispatch_uid="test.on_invite")


def test_an_invite_needs_a_friend_whom_neither_blocked(user_factory: Make) -> None:
    asha, bilal, chen = user_factory(), user_factory(), user_factory()

    def invite(friend: User) -> object:
        return services.friend_invite_send(
            host=asha, friend=friend, table_id=3, table_name="T", invite_url="/i/"
        )

    _refused(FriendRefusal.INVITE_NOT_FRIEND, lambda: invite(bilal))
    _friends(asha, chen)
    services.player_block(blocker=chen, blocked=asha)  # chen blocks: the friendship ends too
    _refused(FriendRefusal.INVITE_BLOCKED, lambda: invite(chen))


def test_search_by_public_name(user_factory: Make) -> None:
    me = user_factory(display_name="Meera")
    asha = user_factory(display_name="Asha Rao")
    rasha = user_factory(display_name="Prasham")
    plain = user_factory(username="ashok", display_name="")  # shown by the username
    hidden = user_factory(username="asha-login", display_name="Zed")  # not by the login name
    blocker = user_factory(display_name="Ashwin")
    user_factory(display_name="Ashley", is_active=False)
    services.player_block(blocker=blocker, blocked=me)
    services.friend_request_send(sender=me, receiver=asha)
    result = selectors.players_search(user=me, text="  ASH ")
    names = [item.user.public_name for item in result.items]
    assert names == ["Asha Rao", "ashok", "Prasham"]  # starting with it first, then by name
    assert hidden.public_name not in names and rasha.public_name in names
    relation = {item.user.pk: item.relation for item in result.items}
    assert relation[asha.pk].asked and not relation[plain.pk].asked
    assert selectors.players_search(user=me, text="a").items == []  # too short
    assert selectors.players_search(user=me, text="meera").items == []  # never oneself


def test_search_pages(user_factory: Make) -> None:
    me = user_factory(display_name="Viewer")
    for n in range(selectors.SEARCH_PAGE_SIZE + 3):
        user_factory(display_name=f"Kiran {n:02d}")
    first = selectors.players_search(user=me, text="kiran")
    assert len(first.items) == selectors.SEARCH_PAGE_SIZE and first.page.has_next()
    second = selectors.players_search(user=me, text="kiran", page="2")
    assert [i.user.public_name for i in second.items] == ["Kiran 20", "Kiran 21", "Kiran 22"]
    assert selectors.players_search(user=me, text="kiran", page="x").page.number == 1
    assert selectors.players_search(user=me, text="kiran", page="9" * 30).page.number == 2


# ---------------------------------------------------------------------------------- pages


def test_the_friends_page_flow(client: Client, user_factory: Make) -> None:
    asha, bilal = user_factory(display_name="Asha"), user_factory(display_name="Bilal")
    client.force_login(asha)
    page = client.get(reverse("friends"), {"q": "bil"})
    assert page.status_code == 200 and "Bilal" in page.content.decode()
    results = client.get(reverse("friends"), {"q": "bil", "partial": "results"})
    assert (
        'id="search-results"' in results.content.decode()
        and "<html" not in results.content.decode()
    )
    sent = client.post(reverse("friend_request_send"), {"player": bilal.pk, "q": "bil"})
    assert sent.status_code == 302 and sent["Location"] == reverse("friends") + "?q=bil"
    again = client.post(reverse("friend_request_send"), {"player": bilal.pk})  # double click
    assert again.status_code == 400 and "You asked Bilal already" in again.content.decode()
    assert FriendRequest.objects.count() == 1
    client.force_login(bilal)
    request = FriendRequest.objects.get()
    text = client.get(reverse("friends")).content.decode()
    assert "Asha" in text and reverse("friend_request_accept", args=[request.pk]) in text
    accepted = client.post(reverse("friend_request_accept", args=[request.pk]), follow=True)
    assert "You and Asha are friends now." in accepted.content.decode()
    twice = client.post(reverse("friend_request_accept", args=[request.pk]))
    assert twice.status_code == 400
    assert selectors.friends_of(user=bilal) == [asha]
    client.force_login(asha)
    asked = services.friend_request_send(sender=asha, receiver=user_factory(display_name="Chen"))
    withdrawn = client.post(reverse("friend_request_cancel", args=[asked.pk]), follow=True)
    assert "You withdrew your friend request to Chen." in withdrawn.content.decode()
    client.force_login(bilal)
    client.post(reverse("player_block"), {"player": asha.pk})
    assert selectors.is_blocked(asha, bilal) and selectors.friends_of(user=bilal) == []
    client.post(reverse("player_unblock"), {"player": asha.pk})
    assert not selectors.is_blocked(asha, bilal)


@pytest.mark.parametrize(
    ("name", "args", "data", "status"),
    [
        ("friend_request_send", [], {"player": "abc"}, 404),
        ("friend_request_send", [], {"player": "٣"}, 404),  # not an ASCII digit
        ("friend_request_send", [], {"player": "9" * 40}, 404),
        ("friend_request_send", [], {}, 404),
        ("friend_request_send", [], {"player": "999999"}, 404),
        ("friend_request_accept", ["999999"], {}, 404),
        ("friend_request_accept", ["9" * 40], {}, 404),
        ("friend_request_refuse", ["9" * 25], {}, 404),
        ("friend_request_cancel", ["999999"], {}, 404),
        ("friend_remove", [], {"player": "-1"}, 404),
        ("player_block", [], {"player": "1.5"}, 404),
        ("player_unblock", [], {"player": ""}, 404),
    ],
)
def test_forged_input_is_answered_with_words_never_500(
    client: Client,
    user_factory: Make,
    name: str,
    args: list[str],
    data: dict[str, str],
    status: int,
) -> None:
    client.force_login(user_factory())
    before = _rows()
    response = client.post(reverse(name, args=args), data)
    assert response.status_code == status
    assert "There is no such" in response.content.decode()
    assert _rows() == before


def test_the_pages_want_a_signed_in_player_and_posts(client: Client, user_factory: Make) -> None:
    assert client.get(reverse("friends"))["Location"].startswith(reverse("login"))
    client.force_login(user_factory())
    assert client.get(reverse("friend_request_send")).status_code == 405
    huge = client.get(reverse("friends"), {"q": "x" * 5000, "page": "-3"})
    assert huge.status_code == 200


def test_the_friends_page_in_hindi(client: Client, user_factory: Make) -> None:
    asha = user_factory(language="hi")
    services.friend_request_send(sender=asha, receiver=user_factory())
    client.force_login(asha)
    page = client.get(reverse("friends")).content.decode()
    assert "<h1>दोस्त</h1>" in page and "खिलाड़ी खोजें" in page
    assert "वापस लें" in page and "निकालें" not in page  # a request's "Withdraw", not money's
    refused = client.post(reverse("friend_request_send"), {"player": asha.pk})
    assert refused.status_code == 400
    assert "आप ख़ुद को दोस्ती का अनुरोध नहीं भेज सकते।" in refused.content.decode()


def test_staff_see_friends_read_only(admin_client: Client, user_factory: Make) -> None:
    asha, bilal = user_factory(display_name="Asha"), user_factory(display_name="Bilal")
    _friends(asha, bilal)
    services.player_block(blocker=asha, blocked=user_factory(display_name="Chen"))
    for model in ("friendrequest", "friendship", "block", "friendinvite"):
        listing = admin_client.get(reverse(f"admin:friends_{model}_changelist"), {"q": "asha"})
        assert listing.status_code == 200
        assert admin_client.get(reverse(f"admin:friends_{model}_add")).status_code == 403
    row = Friendship.objects.get()
    assert (
        admin_client.post(
            reverse("admin:friends_friendship_delete", args=[row.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    assert Friendship.objects.filter(pk=row.pk).exists()
