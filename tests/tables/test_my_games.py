"""My games: the list of a player's finished games with the money the ledger moved, the review
of a deal they played (once it ended) with the engine's advice, shared links, and statistics
that match the ledger and the move log."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from tables_testkit import WINNER_GROUPS, Planter, TableDriver, balance, flatten

from tables.engines import engine_of
from tables.history import selectors, services
from tables.management.commands.verify_deal import verify_export
from tables.models import Deal, DealShare, GameStatus
from tables.rules.game.state import GameState
from tables.rules.replay import LoggedMove, replay_moves
from tables.rules.review import deal_review
from tables.rules.settings import GameSettings
from tables.support.export import deal_export

LOSER = ["2C", "5D", "8H", "JS", "KD", "3H", "6S", "9C", "4D", "7S", "10H", "AD", "QS"]


def _login(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _showable_deal(
    seated: Callable[..., TableDriver], planter: Planter, toss: Callable[[int], None]
) -> TableDriver:
    """A Points game of two, seat 1 to play with a hand it could show at once; 8C, 2D and 9H
    on top of the closed deck."""
    toss(1)
    planter.add(
        hands={1: flatten(WINNER_GROUPS), 2: LOSER},
        open_card="JC",
        cut_card="QC",
        closed_top=["8C", "2D", "9H"],
    )
    t = seated(2, variant="points", point_value=10, platform_fee_bps=0)
    return t


def _worse_throw_game(
    seated: Callable[..., TableDriver], planter: Planter, toss: Callable[[int], None]
) -> TableDriver:
    """Seat 1 holds a hand it could show at once; it picks 8C and throws 5H (breaking its
    hearts run) instead; seat 2 picks and throws back; seat 1 then middle-drops."""
    t = _showable_deal(seated, planter, toss)
    t.act(1, "pick_closed")
    t.act(1, "discard", card="5H")
    t.act(2, "pick_closed")
    t.act(2, "discard", card="2D")
    t.act(1, "drop")
    assert t.game().status == GameStatus.FINISHED
    return t


def test_the_reviews_steps_are_turns_with_the_arrangements_inside(
    seated: Callable[..., TableDriver], planter: Planter, toss: Callable[[int], None]
) -> None:
    """Re-arranging says nothing to the table: it is part of the turn around it, not a blank
    step. The deal, seat 1's turn (pick, two re-arrangements, throw), seat 2's turn, a
    re-arrangement between turns, seat 1's drop: four steps from eight moves."""
    t = _showable_deal(seated, planter, toss)

    def rearrange(seat: int) -> None:
        groups = [list(g) for g in t.view(seat)["hand"]["groups"]]
        t.act(seat, "arrange", groups=groups[::-1])

    t.act(1, "pick_closed")
    rearrange(1)
    rearrange(1)
    t.act(1, "discard", card="5H")
    t.act(2, "pick_closed")
    t.act(2, "discard", card="2D")
    rearrange(1)
    t.act(1, "drop")
    deal = Deal.objects.get(game=t.game())
    data = selectors.deal_review_data(deal=deal, seat=1)
    assert data is not None
    kinds = [[line["kind"] for line in step["lines"]] for step in data["steps"]]
    assert kinds == [
        ["dealt"],
        ["picked_closed", "threw"],
        ["picked_closed", "threw"],
        ["dropped", "ended"],
    ]
    assert data["steps"][1]["advice"]["discard"] == "5H"  # the turn keeps its advice
    page = _login(t.users[1]).get(reverse("history_deal", args=[deal.pk])).content.decode()
    assert page.count('<li class="review-step') == 4 and "Step 4 of 4" in page


def test_the_review_advises_on_a_worse_throw(
    seated: Callable[..., TableDriver], planter: Planter, toss: Callable[[int], None]
) -> None:
    t = _worse_throw_game(seated, planter, toss)
    deal = Deal.objects.get(game=t.game())
    data = selectors.deal_review_data(deal=deal, seat=1)
    assert data is not None
    advice = [s["advice"] for s in data["steps"] if s["advice"]]
    assert len(advice) == 1
    first = advice[0]
    assert first["turn"] == 1 and first["picked"] == "8C" and first["source"] == "closed"
    assert first["best_discard"] == "8C" and first["best_count"] == 0
    assert first["discard"] == "5H" and first["discard_count"] > 0
    assert first["show_possible"] and not first["showed"]
    assert first["count_after_pick"] == 8  # the 8C loose, every meld kept
    assert data["turns_lost"] == 1 and data["points_lost"] == first["discard_count"]
    assert data["show_turns"] == [1]
    # seat 2's closed picks are never named to seat 1; seat 1's own pick is
    lines = [line for s in data["steps"] for line in s["lines"]]
    closed = [line for line in lines if line["kind"] == "picked_closed"]
    assert {(line["seat"], line["card"]) for line in closed} == {(1, "8C"), (2, None)}
    # the review's page says it in words
    response = _login(t.users[1]).get(reverse("history_deal", args=[deal.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "A valid show was possible here" in page
    assert "you threw 5♥" in page and "Best discard: 8♣, leaving 0" in page
    assert "1 turn lost" in page and "a show was possible at turn 1" in page
    # seat 2's review of the same deal: its own advice, not seat 1's hand
    other = selectors.deal_review_data(deal=deal, seat=2)
    assert other is not None
    assert all(
        line["card"] is None
        for s in other["steps"]
        for line in s["lines"]
        if line["kind"] == "picked_closed" and line["seat"] == 1
    )
    assert next(s["hand"] for s in other["steps"] if s["hand"]) != data["steps"][0]["hand"]


def test_the_review_is_verify_deals_replay(
    seated: Callable[..., TableDriver], planter: Planter, toss: Callable[[int], None]
) -> None:
    """The review is computed from the same replay ``verify_deal`` checks: replaying the deal's
    export (which verify_deal accepts) gives the same review, state for state."""
    t = _worse_throw_game(seated, planter, toss)
    deal = Deal.objects.get(game=t.game())
    doc = json.loads(json.dumps(deal_export(deal=deal)))
    assert verify_export(doc)[0] == []
    engine = engine_of(doc["game"]["variant"])
    before = engine.state_from_json(doc["deal"]["state_before"])
    assert isinstance(before, GameState)
    moves = [
        LoggedMove(version=m["version"], action=m["action"], payload=m["payload"], clock=m["clock"])
        for m in doc["moves"]
    ]
    replayed = list(replay_moves(engine, before, doc["deal"]["shoe"], moves))
    assert replayed[-1].state.to_json() == doc["state_after"]
    assert [list(r.events) for r in replayed] == [m["events"] for m in doc["moves"]]
    settings = engine.settings_from_json(doc["game"]["settings"])
    assert isinstance(settings, GameSettings)
    from_export = deal_review(replayed, seat=1, settings=settings, before=before).to_json()
    assert json.loads(json.dumps(from_export)) == json.loads(
        json.dumps(selectors.deal_review_data(deal=deal, seat=1))
    )


def test_only_a_player_of_an_ended_deal_sees_its_review(
    seated: Callable[..., TableDriver],
    planter: Planter,
    toss: Callable[[int], None],
    players: list[Any],
) -> None:
    t = _worse_throw_game(seated, planter, toss)
    deal = Deal.objects.get(game=t.game())
    url = reverse("history_deal", args=[deal.pk])
    assert _login(players[5]).get(url).status_code == 403  # did not sit in it
    assert _login(players[5]).post(reverse("history_share", args=[deal.pk])).status_code == 403
    assert Client().get(url).status_code == 302  # log in first
    assert _login(t.users[1]).get(reverse("history_deal", args=[999_999])).status_code == 404
    # a live deal: nobody reviews it, not even its players
    live = seated(2, variant="points", point_value=10)
    live_deal = Deal.objects.get(game=live.game())
    assert live_deal.ended_at is None
    for user in live.users.values():
        assert _login(user).get(reverse("history_deal", args=[live_deal.pk])).status_code == 403
    with pytest.raises(selectors.DealNotReviewable):
        selectors.deal_review_data(deal=live_deal, seat=1)


def test_a_shared_link_shows_the_review_and_nothing_else(
    seated: Callable[..., TableDriver],
    planter: Planter,
    toss: Callable[[int], None],
    players: list[Any],
) -> None:
    t = _worse_throw_game(seated, planter, toss)
    deal = Deal.objects.get(game=t.game())
    owner = _login(t.users[1])
    page = owner.get(reverse("history_deal", args=[deal.pk])).content.decode()
    assert "This review is private" in page and not DealShare.objects.exists()  # off by default
    owner.post(reverse("history_share", args=[deal.pk]), {"on": "1"})
    share = DealShare.objects.get()
    assert share.active and len(share.token) >= 40
    shared_url = reverse("history_shared", args=[share.token])
    assert shared_url in owner.get(reverse("history_deal", args=[deal.pk])).content.decode()
    anonymous = Client().get(shared_url)
    assert anonymous.status_code == 200
    text = anonymous.content.decode()
    assert "A valid show was possible here" in text
    assert "history_share" not in text and "Share this review" not in text
    assert reverse("history_games") not in text  # no link into the owner's games
    assert reverse("history_share", args=[deal.pk]) not in text
    # another token, a guessed one, or the link turned off: nothing
    assert Client().get(reverse("history_shared", args=["x" * 43])).status_code == 404
    owner.post(reverse("history_share", args=[deal.pk]), {"on": "0"})
    assert Client().get(shared_url).status_code == 404
    owner.post(reverse("history_share", args=[deal.pk]), {"on": "1"})
    assert DealShare.objects.get().token == share.token
    assert Client().get(shared_url).status_code == 200
    # another player cannot share a deal they did not play
    with pytest.raises(selectors.DealNotReviewable):
        selectors.reviewable_deal(user=players[5], deal_id=deal.pk)
    assert services.deal_share_set(user=players[5], deal=deal, on=False) is None


def test_statistics_match_the_ledger_and_the_move_log(
    seated: Callable[..., TableDriver],
    planter: Planter,
    toss: Callable[[int], None],
    players: list[Any],
) -> None:
    """Three planted points games for players[0]: a worse throw then a middle drop, a first
    drop, and a wrong show."""
    me = players[0]
    start = balance(me)
    _worse_throw_game(seated, planter, toss)  # middle drop (40)
    toss(1)
    t = seated(2, variant="points", point_value=10, platform_fee_bps=0)
    t.act(1, "drop")  # first drop (20)
    toss(1)
    planter.add(hands={1: LOSER, 2: flatten(WINNER_GROUPS)}, open_card="JC", cut_card="QC")
    t = seated(2, variant="points", point_value=10, platform_fee_bps=0)
    t.act(1, "pick_closed")
    picked = t.view(1)["hand"]["picked"]
    t.act(1, "declare", finish_card=picked, groups=[LOSER])  # a wrong show (80)
    assert t.game().status == GameStatus.FINISHED
    (row,) = selectors.player_stats(user=me)
    assert (row.variant, row.currency) == ("points", "cash")
    assert row.games == 3 and row.deals == 3 and row.deals_won == 0
    assert (row.first_drops, row.middle_drops, row.wrong_shows) == (1, 1, 1)
    assert sorted(row.lost_points) == [20, 40, 80] and row.average_lost == pytest.approx(140 / 3)
    lost = start - balance(me)
    assert lost == (40 + 20 + 80) * 10
    assert (row.money_won, row.money_lost) == (0, lost)
    # the other player won all three
    (other,) = selectors.player_stats(user=players[1])
    assert other.deals_won == 3 and other.money_won == lost and other.money_lost == 0
    # the running total follows the ledger game by game
    totals = selectors.running_totals(user=me, currency="cash")
    assert [p["total"] for p in totals] == [-400, -600, -1400]
    page = _login(me).get(reverse("history_stats")).content.decode()
    assert '<td class="n-first">1</td>' in page and '<td class="n-wrong">1</td>' in page
    assert "<svg" in page and "<polyline" in page


def test_my_games_lists_finished_games_with_their_money_and_filters(
    seated: Callable[..., TableDriver],
    planter: Planter,
    toss: Callable[[int], None],
    players: list[Any],
) -> None:
    me = players[0]
    t = _worse_throw_game(seated, planter, toss)
    live = seated(2, variant="points", point_value=10)
    client = _login(me)
    page = client.get(reverse("history_games")).content.decode()
    assert page.count('class="game-row"') == 1  # the live game is not listed
    assert f'data-game-id="{t.game().pk}"' in page
    assert f'data-game-id="{live.game().pk}"' not in page
    assert "₹8.00" in page  # the buy-in paid in (80 points x 10 paise)
    assert "₹4.00" in page  # got back after the 40-point middle drop
    # The result is the deal's: 2nd with the 40 points of the middle drop (not "0 points").
    assert "Place 2 · 40 points" in page
    (row,) = selectors.game_rows(user=me, games=selectors.games_of_player(user=me))
    assert (row["place"], row["total"], row["chips"]) == (2, 40, None)
    assert (row["paid_in"], row["paid_out"]) == (800, 400)
    (theirs,) = selectors.game_rows(
        user=players[1], games=selectors.games_of_player(user=players[1])
    )
    assert (theirs["place"], theirs["total"]) == (1, 0)
    deal = Deal.objects.get(game=t.game())
    assert reverse("history_deal", args=[deal.pk]) in page
    assert (
        'class="game-row"'
        not in client.get(reverse("history_games") + "?variant=pool101").content.decode()
    )
    assert (
        'class="game-row"'
        not in client.get(reverse("history_games") + "?kind=practice").content.decode()
    )
    assert (
        'class="game-row"'
        in client.get(reverse("history_games") + "?kind=cash&page=x").content.decode()
    )
    # bad filters are ignored, never a 500
    assert (
        client.get(reverse("history_games") + "?variant=<b>&kind=gold&page=-3").status_code == 200
    )
    # the other player's list is theirs
    other = _login(players[5]).get(reverse("history_games")).content.decode()
    assert 'class="game-row"' not in other


def test_the_reviews_first_line_speaks_to_the_player_who_starts() -> None:
    from django.utils import translation

    from tables.history.presenters import line_words

    dealt = {"kind": "dealt", "seat": 1, "card": "6S"}
    with translation.override("en"):
        assert line_words(dealt, {1: "Asha", 2: "Bilal"}, me=1) == (
            "Cards dealt; you start; the open card is 6♠"
        )
        assert line_words(dealt, {1: "Asha", 2: "Bilal"}, me=2) == (
            "Cards dealt; Asha starts; the open card is 6♠"
        )
    with translation.override("hi"):
        assert "आपकी" in line_words(dealt, {1: "Asha"}, me=1)
