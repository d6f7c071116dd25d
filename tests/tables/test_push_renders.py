"""What one move renders for the live pages, like the statement counts: at a 6-seat table the
felt once per language in use, and a seat's fragment only for the seats it changed for that
have a socket open."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from tables.live import presence, realtime

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def six(seated: Any, toss: Any) -> Any:
    toss(1)
    t = seated(6)
    cache.delete_many([presence.presence_key(t.table.pk, u.pk) for u in t.users.values()])
    return t


def _renders(act: Any) -> dict[str, int]:
    before = dict(realtime.renders)
    act()
    return {kind: realtime.renders[kind] - before[kind] for kind in before}


def _open_sockets(t: Any, seats: list[int]) -> None:
    for seat in seats:
        presence.socket_opened(table_id=t.table.pk, user_id=t.users[seat].pk)


def test_a_move_renders_the_felt_once_and_only_the_fragments_it_changed(six: Any) -> None:
    _open_sockets(six, [1, 2, 3, 4, 5])  # seat 6 has no socket open
    # Nothing was sent before: the fragments are told against the state before the move,
    # which changed the mover's alone.
    assert _renders(lambda: six.act(1, "pick_closed")) == {"felt": 1, "seat": 1}
    card = six.view(1)["hand"]["picked"]
    # The discard changes the mover's fragment and that of seat 2, whose turn begins.
    assert _renders(lambda: six.act(1, "discard", card=card)) == {"felt": 1, "seat": 2}
    # A pick changes the mover's own fragment only.
    assert _renders(lambda: six.act(2, "pick_closed")) == {"felt": 1, "seat": 1}


def test_the_felt_is_rendered_once_per_language_in_use(six: Any) -> None:
    _open_sockets(six, [1, 2])
    for seat in (3, 4):
        six.users[seat].language = "hi"
        six.users[seat].save(update_fields=["language"])
    six.act(1, "pick_closed")
    card = six.view(1)["hand"]["picked"]
    assert _renders(lambda: six.act(1, "discard", card=card))["felt"] == 2  # English, Hindi


def test_arranging_renders_no_felt(six: Any) -> None:
    _open_sockets(six, [1, 2, 3])
    six.act(1, "pick_closed")
    groups = [list(g) for g in six.view(1)["hand"]["groups"]][::-1]
    assert _renders(lambda: six.act(1, "arrange", groups=groups)) == {"felt": 0, "seat": 1}


def test_nobody_with_a_socket_means_no_fragment_rendered(six: Any) -> None:
    assert _renders(lambda: six.act(1, "pick_closed")) == {"felt": 1, "seat": 0}


def test_a_push_works_out_what_its_viewers_see_alike_once(six: Any, monkeypatch: Any) -> None:
    """The seats with a socket open and the spectators are shown one state: the push asks the
    engine for their views together, and the public part of them is worked out once."""
    from tables.rules.game import view as game_view_module

    publics = []
    public_view = game_view_module._public_view

    def counted(state: Any) -> Any:
        publics.append(state)
        return public_view(state)

    _open_sockets(six, [1, 2, 3, 4, 5, 6])
    six.act(1, "pick_closed")
    card = six.view(1)["hand"]["picked"]
    monkeypatch.setattr(game_view_module, "_public_view", counted)
    assert _renders(lambda: six.act(1, "discard", card=card)) == {"felt": 1, "seat": 2}
    assert len(publics) == 1  # for the push's seven viewers (before: one each)
