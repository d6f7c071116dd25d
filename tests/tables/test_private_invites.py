"""Issue 21, points 4 and 5: a private table is joined with its invite, never by its number;
the invite link's token cannot be guessed; guesses of the short code are throttled per player
and per address; every wrong code or link is answered the same way."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from tables_testkit import Clock

from tables import services
from tables.models import Seat, Table, TableStatus, TableTemplate

pytestmark = pytest.mark.django_db


def _welcomed(user: Any) -> Any:
    """A player as a sign-up leaves them: with the welcome practice chips."""
    from ledger.services.cashier import practice_chips_welcome_grant

    practice_chips_welcome_grant(user=user)
    return user


@pytest.fixture
def private_table(template_factory: Callable[..., TableTemplate], user_factory: Any) -> Table:
    template = template_factory(
        name="Friends 101",
        currency="practice",
        entry_fee=100,
        practice=True,
        seats_min=2,
        seats_max=3,
        bot_count=2,
        human_wait_s=20,
    )
    return services.table_private_create(template=template, user=_welcomed(user_factory()))


def _seated(table: Table, user: Any) -> bool:
    return Seat.objects.filter(table=table, user=user, left_at__isnull=True).exists()


def test_a_stranger_cannot_join_a_private_table_by_its_id(
    client: Client, private_table: Table, user_factory: Any, clock: Clock
) -> None:
    stranger = _welcomed(user_factory())
    client.force_login(stranger)
    response = client.post(reverse("table_join", args=[private_table.pk]), follow=True)
    assert not _seated(private_table, stranger)
    assert "This is a private table" in response.content.decode()
    # Its page does not give the invite away either.
    page = client.get(reverse("table", args=[private_table.pk])).content.decode()
    code, token = private_table.invite_code, private_table.invite_token
    assert code is not None and token is not None
    assert code not in page and token not in page


def test_the_invite_link_carries_an_unguessable_token_and_lets_the_friend_join(
    client: Client, private_table: Table, user_factory: Any, clock: Clock
) -> None:
    token, code, host = private_table.invite_token, private_table.invite_code, private_table.host
    assert token is not None and code is not None and host is not None
    assert len(token) >= 32 and token != code
    client.force_login(host)
    page = client.get(reverse("table", args=[private_table.pk])).content.decode()
    assert f"/invite/{token}/" in page and code in page
    friend = _welcomed(user_factory())
    client.force_login(friend)
    landed = client.get(f"/invite/{token}/")
    assert landed["Location"] == reverse("table", args=[private_table.pk])
    joined = client.post(reverse("table_join", args=[private_table.pk]))
    assert joined["Location"] == reverse("table", args=[private_table.pk])
    assert _seated(private_table, friend)


def test_every_wrong_invite_link_is_answered_the_same_way(
    client: Client, private_table: Table, user_factory: Any, clock: Clock
) -> None:
    closed = services.table_private_create(
        template=private_table.template, user=_welcomed(user_factory())
    )
    Table.objects.filter(pk=closed.pk).update(status=TableStatus.CLOSED)
    client.force_login(_welcomed(user_factory()))
    answers = set()
    for token in [
        private_table.invite_code,  # the short code is for typing, not a link
        "x" * 32,
        "<script>",
        private_table.invite_token[:-1] + ("A" if private_table.invite_token[-1] != "A" else "B"),
        closed.invite_token,
    ]:
        response = client.get(f"/invite/{token}/", follow=True)
        text = response.content.decode()
        start = text.index('<div id="messages"')
        answers.add(
            (response.status_code, response.redirect_chain[-1][0], text[start : start + 400])
        )
    assert len(answers) == 1, answers


def test_every_wrong_code_is_answered_the_same_way(
    client: Client, private_table: Table, user_factory: Any, clock: Clock
) -> None:
    closed = services.table_private_create(
        template=private_table.template, user=_welcomed(user_factory())
    )
    Table.objects.filter(pk=closed.pk).update(status=TableStatus.CLOSED)
    client.force_login(_welcomed(user_factory()))
    answers = set()
    for code in ["<script>", "nope", "ABCDEF", "ZZZZZZ", closed.invite_code]:
        response = client.post(reverse("join_by_code"), {"code": code}, follow=True)
        text = response.content.decode()
        start = text.index('<div id="messages"')
        answers.add(
            (response.status_code, response.redirect_chain[-1][0], text[start : start + 400])
        )
    assert len(answers) == 1, answers


def test_code_guesses_are_throttled_per_player_and_per_address(
    private_table: Table, user_factory: Any, clock: Clock
) -> None:
    guesser = Client(REMOTE_ADDR="198.51.100.7")
    guesser.force_login(_welcomed(user_factory()))
    statuses = [
        guesser.post(reverse("join_by_code"), {"code": f"AAAA{n:02d}"}).status_code
        for n in range(12)
    ]
    assert statuses[:10] == [302] * 10 and statuses[10:] == [429, 429]
    # Even the right code waits now: the throttle does not tell a good guess from a bad one.
    right = guesser.post(reverse("join_by_code"), {"code": private_table.invite_code})
    assert right.status_code == 429 and "Too many tries" in right.content.decode()
    # One address with many accounts: 20 guesses in 10 minutes.
    statuses = []
    for _n in range(22):
        other = Client(REMOTE_ADDR="198.51.100.8")
        other.force_login(_welcomed(user_factory()))
        statuses.append(other.post(reverse("join_by_code"), {"code": "BBBBBB"}).status_code)
    assert statuses[:20] == [302] * 20 and statuses[20:] == [429, 429]
