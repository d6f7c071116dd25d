"""The shoe commitment (docs/fairness.md) and the shuffle's fairness: the hash is stored with the
deal before its first card, shown to the deal's players and revealed only after the deal; one
card changed breaks it; the shuffle is the CSPRNG Fisher-Yates and a chi-square test over card
positions finds no bias (20,000 shuffles here; 100,000 with ``RUN_SLOW=1``)."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse
from tables_testkit import TableDriver, plant, play

from tables.models import Deal, Move
from tables.rules import fairness, shoe
from tables.rules.cards import parse_cards
from tables.rules.settings import GameSettings

SHOE: dict[str, Any] = {
    "type": "start_deal",
    "shoe": {"cards": ["AS", "2S", "JK", "10H"], "reshuffle_keys": [[1, 0, 3, 2], [0, 1, 2, 3]]},
}


def test_the_commitment_is_sha256_of_the_documented_message() -> None:
    secret = "ab" * 32
    message = "rummy-shoe-v1\nAS,2S,JK,10H\n1,0,3,2;0,1,2,3\n\n" + secret
    assert fairness.shoe_message(SHOE, secret) == message
    expected = hashlib.sha256(message.encode()).hexdigest()
    assert fairness.commitment_of(SHOE, secret) == expected
    assert fairness.commitment_of(SHOE["shoe"], secret) == expected  # the shoe part alone
    assert fairness.commitment_matches(SHOE, secret, expected.upper())
    classic = {"shoe": {"cards": ["AS"], "reshuffle_keys": []}, "seed": "5eed"}
    assert fairness.shoe_message(classic, "s") == "rummy-shoe-v1\nAS\n\n5eed\ns"


def test_one_card_another_key_or_secret_breaks_the_commitment() -> None:
    secret = fairness.new_secret()
    assert len(secret) == 64 and int(secret, 16) >= 0
    published = fairness.commitment_of(SHOE, secret)
    swapped = {"shoe": {**SHOE["shoe"], "cards": ["2S", "AS", "JK", "10H"]}}
    other_keys = {"shoe": {**SHOE["shoe"], "reshuffle_keys": [[0, 1, 2, 3], [0, 1, 2, 3]]}}
    assert not fairness.commitment_matches(swapped, secret, published)
    assert not fairness.commitment_matches(other_keys, secret, published)
    assert not fairness.commitment_matches(SHOE, fairness.new_secret(), published)
    assert not fairness.commitment_matches({"cards": "AS"}, secret, published)  # malformed


def test_a_deal_stores_its_commitment_before_the_first_card(
    seated: Callable[..., TableDriver],
) -> None:
    t = seated(2)
    deal = Deal.objects.get(game=t.game())
    assert fairness.commitment_matches(deal.shoe, deal.shoe_secret, deal.shoe_commitment)
    # The same transaction stored the Deal row before the move that dealt it.
    start = Move.objects.get(game=t.game(), action="start_deal")
    assert start.deal_id == deal.pk and start.version == deal.version_before + 1
    other = Deal.objects.exclude(pk=deal.pk).first()
    assert other is None or other.shoe_secret != deal.shoe_secret


def test_players_see_the_commitment_and_the_reveal_only_after_the_deal(
    seated: Callable[..., TableDriver],
    planter: Any,
    toss: Callable[[int], None],
    client: Any,
    players: list[Any],
) -> None:
    toss(1)
    first = {1: 0, 2: 34}
    planned = plant(planter, first)
    t = seated(2)
    deal = Deal.objects.get(game=t.game())
    url = reverse("table", args=[t.table.pk])
    client.force_login(players[0])
    html = client.get(url).content.decode()
    assert deal.shoe_commitment in html and deal.shoe_secret not in html
    client.force_login(players[5])  # not a player of the game
    assert deal.shoe_commitment not in client.get(url).content.decode()
    play(t, *planned, first)
    client.force_login(players[1])
    html = client.get(url).content.decode()
    assert deal.shoe_commitment in html and deal.shoe_secret in html
    assert " ".join(deal.shoe["shoe"]["cards"][:13]) in html


def test_the_shuffle_is_fisher_yates_on_the_os_csprng(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    draw = secrets.randbelow

    def counting(n: int) -> int:
        calls.append(n)
        return draw(n)

    monkeypatch.setattr("tables.rules.shoe.secrets.randbelow", counting)
    cards = shoe.build_cards(GameSettings.for_variant("pool101"))
    shuffled = shoe.shuffle_cards(cards)
    assert sorted(shuffled) == sorted(cards)
    assert calls == list(range(len(cards), 1, -1))  # one draw per position, n down to 2


def chi_square_positions(shuffles: int, shuffle: Callable[[list[int]], Any]) -> float:
    """Pearson's chi-square of the card x position table of ``shuffles`` shuffles of 52 cards
    (expected: every card at every position equally often)."""
    size = 52
    counts = [[0] * size for _ in range(size)]
    deck = list(range(size))
    for _ in range(shuffles):
        for position, card in enumerate(shuffle(deck)):
            counts[card][position] += 1
    expected = shuffles / size
    return sum((n - expected) ** 2 / expected for row in counts for n in row)


# The statistic has (52 - 1)^2 = 2601 degrees of freedom: mean 2601, standard deviation
# sqrt(2 * 2601) = 72.1. The bound is mean + 6 sd: a fair shuffle fails it about once in 10^9.
DOF = 51 * 51
BOUND = DOF + 6 * (2 * DOF) ** 0.5


def _csprng(deck: list[int]) -> Any:
    return shoe.shuffle_cards(deck)  # type: ignore[arg-type]


def _naive(deck: list[int]) -> list[int]:
    """The classic biased shuffle (swap every position with any position)."""
    order = list(deck)
    for i in range(len(order)):
        j = secrets.randbelow(len(order))
        order[i], order[j] = order[j], order[i]
    return order


def test_chi_square_finds_no_bias_in_20000_shuffles_and_finds_a_biased_one() -> None:
    assert chi_square_positions(20_000, _csprng) < BOUND
    assert chi_square_positions(20_000, _naive) > BOUND  # the test has the power to see bias


@pytest.mark.slow
def test_chi_square_finds_no_bias_in_100000_shuffles() -> None:
    assert chi_square_positions(100_000, _csprng) < BOUND


def test_parse_of_a_revealed_shoe_gives_the_pack(seated: Callable[..., TableDriver]) -> None:
    t = seated(2)
    deal = Deal.objects.get(game=t.game())
    cards = parse_cards(deal.shoe["shoe"]["cards"])
    assert sorted(cards) == sorted(shoe.build_cards(GameSettings.for_variant("pool101")))
