"""Issue 21, points 4 and 5: a private table is joined with its invite, never by its number;
the invite link's token cannot be guessed; guesses of the short code are throttled per player
and per address; every wrong code or link is answered the same way."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from tables_testkit import Clock, with_welcome_chips

from tables import services
from tables.models import Seat, Table, TableStatus, TableTemplate

pytestmark = pytest.mark.django_db


@pytest.fixture
def user_factory(user_factory: Callable[..., Any]) -> Callable[..., Any]:
    """People here signed up: they hold the welcome practice chips."""
    return with_welcome_chips(user_factory)


@pytest.fixture
def private_table(practice_pool: TableTemplate, user_factory: Any) -> Table:
    return services.table_private_create(template=practice_pool, user=user_factory())


@pytest.fixture
def closed_table(private_table: Table, user_factory: Any) -> Table:
    """A private table of the same template, closed: its invite and its code lead nowhere."""
    closed = services.table_private_create(template=private_table.template, user=user_factory())
    Table.objects.filter(pk=closed.pk).update(status=TableStatus.CLOSED)
    return closed


def _answer(response: Any) -> tuple[int, str, str]:
    """What a wrong invite or code is answered: the status, the page it lands on, the messages."""
    text = response.content.decode()
    start = text.index('<div id="messages"')
    return response.status_code, response.redirect_chain[-1][0], text[start : start + 400]


def _seated(table: Table, user: Any) -> bool:
    return Seat.objects.filter(table=table, user=user, left_at__isnull=True).exists()


def test_a_stranger_cannot_join_a_private_table_by_its_id(
    client: Client, private_table: Table, user_factory: Any, clock: Clock
) -> None:
    stranger = user_factory()
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
    friend = user_factory()
    client.force_login(friend)
    landed = client.get(f"/invite/{token}/")
    assert landed["Location"] == reverse("table", args=[private_table.pk])
    joined = client.post(reverse("table_join", args=[private_table.pk]))
    assert joined["Location"] == reverse("table", args=[private_table.pk])
    assert _seated(private_table, friend)


def test_every_wrong_invite_link_is_answered_the_same_way(
    client: Client, private_table: Table, closed_table: Table, user_factory: Any, clock: Clock
) -> None:
    client.force_login(user_factory())
    answers = set()
    for token in [
        private_table.invite_code,  # the short code is for typing, not a link
        "x" * 32,
        "<script>",
        private_table.invite_token[:-1] + ("A" if private_table.invite_token[-1] != "A" else "B"),
        closed_table.invite_token,
    ]:
        answers.add(_answer(client.get(f"/invite/{token}/", follow=True)))
    assert len(answers) == 1, answers


def test_every_wrong_code_is_answered_the_same_way(
    client: Client, closed_table: Table, user_factory: Any, clock: Clock
) -> None:
    client.force_login(user_factory())
    answers = set()
    for code in ["<script>", "nope", "ABCDEF", "ZZZZZZ", closed_table.invite_code]:
        answers.add(_answer(client.post(reverse("join_by_code"), {"code": code}, follow=True)))
    assert len(answers) == 1, answers


def test_code_guesses_are_throttled_per_player_and_per_address(
    private_table: Table, user_factory: Any, clock: Clock
) -> None:
    guesser = Client(REMOTE_ADDR="198.51.100.7")
    guesser.force_login(user_factory())
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
        other.force_login(user_factory())
        statuses.append(other.post(reverse("join_by_code"), {"code": "BBBBBB"}).status_code)
    assert statuses[:20] == [302] * 20 and statuses[20:] == [429, 429]
