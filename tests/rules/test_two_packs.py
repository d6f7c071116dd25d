"""Two packs: a hand can hold two copies of a card. A discard moves the copy the player means,
and no operation breaks a valid meld the player built unless the player moves that card."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.rules.cards import Card, parse_card
from tables.rules.game import Arrange, Discard, GameState, PickClosed, StartDeal, game_new
from tables.rules.game.state import remove_from_groups
from tables.rules.melds import MeldSettings, classify_group, count_points
from tables.rules.settings import GameSettings
from tables.rules.shoe import stacked_shoe

from .test_game_support import Played

CUT = "JC"  # jacks are wild: no jack in the hands below
RUN = ["2H", "3H", "4H"]
ARRANGED = [RUN, ["5S", "6S", "7S"], ["9C", "9D", "9S"], ["KD"], ["QS"], ["8D"], ["2C"]]
OTHER = ["AS", "AD", "AC", "3S", "3D", "3C", "6D", "6C", "7D", "7C", "10S", "10D", "10C"]


def _start(variant: str = "deals") -> Played:
    settings = GameSettings.for_variant(variant, entry_fee=500, turn_s=30.0, extra_time_s=0.0)
    played = Played(state=game_new(settings=settings, seats=[1, 2], now=0.0, toss=1))
    hand = [card for group in ARRANGED for card in group]
    shoe = stacked_shoe(
        settings, hands=[hand, OTHER], open_card="10H", cut_card=CUT, closed_top=["3H"]
    )
    played.apply(StartDeal(shoe))
    # Arrange takes card codes as a page sends them (its __post_init__ parses them).
    played.apply(Arrange(seat=1, groups=ARRANGED))  # type: ignore[arg-type]
    return played


def _groups(state: GameState, seat: int = 1) -> list[list[str]]:
    assert state.deal is not None
    hand = next(h for h in state.deal.hands if h.seat == seat)
    return [[c.code for c in g] for g in hand.groups]


def _count(state: GameState) -> int:
    return count_points(_groups(state), CUT)


def test_throwing_back_a_drawn_twin_keeps_the_run_built_with_the_other_copy() -> None:
    played = _start()
    before = _count(played.state)
    played.apply(PickClosed(seat=1))  # the second 3H
    assert _groups(played.state)[-1] == ["3H"]
    played.apply(Discard(seat=1, card=parse_card("3H")))
    assert RUN in _groups(played.state)
    assert _count(played.state) == before  # 30 before the pick, 30 after the throw
    assert played.state.deal is not None and played.state.deal.open[-1].code == "3H"


def test_a_discard_that_names_the_copy_in_the_run_throws_that_copy() -> None:
    played = _start()
    played.apply(PickClosed(seat=1))
    played.apply(Discard(seat=1, card=parse_card("3H"), group=0, index=1))
    groups = _groups(played.state)
    assert RUN not in groups and ["2H", "4H"] in groups
    assert ["3H"] in groups  # the drawn copy stays where it was


def test_a_place_that_does_not_hold_the_card_falls_back_to_the_loose_copy() -> None:
    played = _start()
    played.apply(PickClosed(seat=1))
    played.apply(Discard(seat=1, card=parse_card("3H"), group=2, index=0))  # 9C is there
    assert RUN in _groups(played.state)


def test_a_timed_out_turn_throws_back_the_drawn_copy() -> None:
    played = _start()
    before = _count(played.state)
    played.apply(PickClosed(seat=1))
    played.timeout()  # the server plays the turn
    assert RUN in _groups(played.state)
    assert _count(played.state) == before
    assert played.state.deal is not None and played.state.deal.turn == 2


# ------------------------------------------------------------------------- the property


SUITS = "SHDC"
RANKS = ["A", *map(str, range(2, 11)), "J", "Q", "K"]
DOUBLE_DECK = [parse_card(f"{r}{s}") for r in RANKS for s in SUITS for _ in range(2)]


@st.composite
def hands_with_a_loose_twin(draw: st.DrawFn) -> tuple[list[tuple[Card, ...]], Card, Card]:
    """A 14-card arrangement: a pure sequence of 3, one of whose cards has its twin elsewhere
    in a group that is not a valid meld, and 10 more cards grouped at random."""
    cut = parse_card(draw(st.sampled_from([f"{r}{s}" for r in RANKS for s in SUITS])))
    suit = draw(st.sampled_from(SUITS))
    start = draw(st.integers(min_value=1, max_value=10))  # 2..4 up to J..K (index in RANKS)
    sequence = tuple(parse_card(f"{RANKS[i]}{suit}") for i in range(start, start + 3))
    twin = draw(st.sampled_from(sequence))
    pool = list(DOUBLE_DECK)
    for card in (*sequence, twin):
        pool.remove(card)
    order = draw(st.permutations(range(len(pool))))
    rest = [pool[i] for i in order[:10]]  # drawn without replacement: at most two copies
    cards = [twin, *rest]
    sizes = draw(st.lists(st.integers(min_value=1, max_value=4), min_size=1, max_size=11))
    groups: list[tuple[Card, ...]] = [sequence]
    i = 0
    for size in sizes:
        if i >= len(cards):
            break
        groups.append(tuple(cards[i : i + size]))
        i += size
    if i < len(cards):
        groups.append(tuple(cards[i:]))
    twin_group = next(g for g in groups[1:] if twin in g)
    if classify_group(twin_group, cut).is_meld:  # the twin must be loose: put it on its own
        groups = [tuple(c for c in g if c != twin) if g is twin_group else g for g in groups]
        groups = [g for g in groups if g] + [(twin,)]
    return groups, twin, cut


@settings(max_examples=300, deadline=None)
@given(hands_with_a_loose_twin())
def test_discarding_a_card_with_a_loose_twin_never_raises_the_count(
    case: tuple[list[tuple[Card, ...]], Card, Card],
) -> None:
    groups, twin, cut = case
    meld = MeldSettings()
    before = count_points(groups, cut, settings=meld)
    after_groups = remove_from_groups(tuple(groups), twin, cut=cut, meld=meld)
    assert count_points(after_groups, cut, settings=meld) <= before
    # every valid meld the player built is still there
    for group in groups:
        if classify_group(group, cut, settings=meld).is_meld:
            assert group in after_groups
