"""Test helpers: a fake clock, planted shoes, and a driver that plays a table through the
services as its players would.

Planting a deal: ``Planter.add(hands={seat: codes}, open_card=..., cut_card=...)`` queues a
deal; when the server next stores a shoe (``_context.deal_shoe_new``) it gets a stacked shoe that
deals exactly those hands (seats left out get filler cards), whatever the deal order is.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter, deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ledger import selectors as ledger_selectors
from ledger import services as ledger_services
from tables import services
from tables.models import Game, GameStatus, Table
from tables.reconcile import reconcile
from tables.rules import classic
from tables.rules import game as game13
from tables.rules.cards import parse_cards
from tables.rules.shoe import Shoe, build_cards, stacked_shoe
from tables.rules.variants import engine_for

START = 1_900_000_000.0
_keys = itertools.count(1)


class Clock:
    """The services' clock in the tests (epoch seconds)."""

    def __init__(self, t: float = START) -> None:
        self.t = t

    def advance(self, seconds: float) -> float:
        self.t += seconds
        return self.t

    def __call__(self) -> float:
        return self.t


def fund(user: Any, amount: int, currency: str = "cash") -> None:
    ledger_services.wallet_deposit(
        user=user,
        currency=currency,
        amount=amount,
        idempotency_key=f"test-fund:{user.pk}:{next(_keys)}",
        memo="test funding",
    )


def template_form(**changes: Any) -> dict[str, Any]:
    """The template admin form's fields for a playable cash Pool 201 template, with
    ``changes``."""
    data: dict[str, Any] = {
        "name": "Evening 201",
        "variant": "pool201",
        "seats_min": 2,
        "seats_max": 6,
        "currency": "cash",
        "entry_fee": "25.00",
        "point_value": "0",
        "platform_fee_bps": "10",
        "start_countdown_s": 15,
        "extra_settings": "{}",
        "bot_count": 0,
        "bot_delay_s": 1.5,
        "bot_strength": "medium",
        "human_wait_s": 20,
        "min_open_tables": 1,
        "max_tables": 100,
        "is_active": "on",
    }
    data.update(changes)
    return data


def with_welcome_chips(factory: Callable[..., Any]) -> Callable[..., Any]:
    """A user factory whose users hold the welcome practice chips, as after a sign-up (people
    play practice tables from their own chips: nothing is credited when they sit down)."""
    from ledger.services import practice_chips_welcome_grant

    def make(**fields: Any) -> Any:
        user = factory(**fields)
        practice_chips_welcome_grant(user=user)
        return user

    return make


def balance(user: Any, currency: str = "cash") -> int:
    return ledger_selectors.wallet_balance(user=user, currency=currency)


def assert_reconciled() -> None:
    report = reconcile()
    assert report.ok, "\n".join(str(d) for d in report.discrepancies)


# --------------------------------------------------------------------------- planted shoes


@dataclass
class PlantedDeal:
    hands: dict[int, list[str]]
    open_card: str
    cut_card: str
    closed_top: list[str] = field(default_factory=list)
    seed: int | None = None


class Planter:
    """Replaces ``_context.deal_shoe_new``: queued deals are dealt as planted, the rest are
    shuffled as usual."""

    def __init__(self) -> None:
        self.queue: deque[PlantedDeal] = deque()
        self.dealt: list[PlantedDeal] = []

    def add(
        self,
        *,
        hands: Mapping[int, str | Sequence[str]],
        open_card: str,
        cut_card: str,
        closed_top: str | Sequence[str] = (),
    ) -> None:
        self.queue.append(
            PlantedDeal(
                hands={seat: _codes(h) for seat, h in hands.items()},
                open_card=open_card,
                cut_card=cut_card,
                closed_top=_codes(closed_top),
            )
        )

    def add_shuffled(self, seed: int) -> None:
        """Queue a deal shuffled by a seeded ``random.Random``: random-looking, but the same
        every run."""
        self.queue.append(PlantedDeal(hands={}, open_card="", cut_card="", seed=seed))

    def __call__(self, *, game: Game, settings: Any) -> Any:
        engine = engine_for(game.variant)
        if not self.queue:
            return engine.new_start_deal(settings)
        plan = self.queue.popleft()
        self.dealt.append(plan)
        if plan.seed is not None:
            cards = list(build_cards(settings))
            random.Random(plan.seed).shuffle(cards)
            keys = [list(range(len(cards)))] * settings.max_reshuffles
            return game13.StartDeal(Shoe(tuple(cards), tuple(map(tuple, keys))))
        order = deal_order(game)
        used = Counter(parse_cards([*itertools.chain(*plan.hands.values())]))
        used.update(parse_cards([plan.open_card, plan.cut_card, *plan.closed_top]))
        spare = Counter(build_cards(settings))
        spare.subtract(used)
        # filler: plain cards first (no printed jokers), in pack order
        pool = [c for c in build_cards(settings) if not c.is_printed_joker]
        pool += [c for c in build_cards(settings) if c.is_printed_joker]
        hands = []
        for seat in order:
            if seat in plan.hands:
                hands.append(plan.hands[seat])
                continue
            filler: list[str] = []
            for card in pool:
                if len(filler) == 13:
                    break
                if spare[card] > 0:
                    spare[card] -= 1
                    filler.append(card.code)
            hands.append(filler)
        shoe = stacked_shoe(
            settings,
            hands=hands,
            open_card=plan.open_card,
            cut_card=plan.cut_card,
            closed_top=plan.closed_top,
        )
        return game13.StartDeal(shoe)


def _codes(value: str | Iterable[str]) -> list[str]:
    return [c.code for c in parse_cards(value)]


def deal_order(game: Game) -> tuple[int, ...]:
    """The seats, in deal order, of the deal the server is about to start (found by dealing a
    throw-away shoe on a copy of the state)."""
    engine = engine_for(game.variant)
    assert game.state is not None
    state = engine.state_from_json(game.state)
    probe = engine.new_start_deal(engine.settings_from_json(game.settings))
    transition = engine.apply(state, probe, now=max(state.deadline or 0.0, START) + 10**6)
    started = next(
        e for e in transition.events if isinstance(e, game13.DealStarted | classic.DealStarted)
    )
    return tuple(started.seats)


# --------------------------------------------------------------------------- hand builders

WINNER_GROUPS: list[list[str]] = [
    ["AS", "2S", "3S", "4S"],
    ["5H", "6H", "7H"],
    ["9D", "10D", "JD"],
    ["KC", "KD", "KH"],
]
LOSER_SEQUENCES: list[list[list[str]]] = [
    [["6C", "7C", "8C"], ["2D", "3D", "4D"]],
    [["9S", "10S", "JS"], ["5C", "6C", "7C"]],
    [["8H", "9H", "10H"], ["3C", "4C", "5C"]],
]
SMALL_SET = ["KS", "KH", "KC"]


def reserved_cards() -> Counter[str]:
    """The cards of the winner's and the losers' melds (``loser_groups`` keeps off them)."""
    used: Counter[str] = Counter(flatten(WINNER_GROUPS))
    for sequences in LOSER_SEQUENCES:
        used.update(flatten(sequences))
    used.update(SMALL_SET)
    used.update(["JC", "QC"])  # the open card and the cut joker the tests plant
    return used


def loser_groups(target: int, which: int, used: Counter[str]) -> list[list[str]]:
    """An arrangement of 13 cards that counts exactly ``target`` (no wild Queens: plant the cut
    joker ``QC``): two pure sequences (+ a set for small targets), the rest loose cards, each
    loose card in its own group. ``used`` (from ``reserved_cards()``) counts the cards already
    planted in the deal; the loose cards are added to it."""
    melds = [list(g) for g in LOSER_SEQUENCES[which]]
    if target < 14:
        melds.append(list(SMALL_SET))
    loose_n = 13 - sum(len(g) for g in melds)
    if not 2 * loose_n <= target <= 10 * loose_n:
        raise ValueError(f"cannot count {target} with {loose_n} loose cards")
    picked = _loose_search(target, loose_n, used)
    if picked is None:
        raise ValueError(f"no loose cards left to count {target}")
    used.update(picked)
    loose = [[code] for code in picked]
    return melds + loose


def _loose_search(target: int, n: int, used: Counter[str]) -> list[str] | None:
    """``n`` spare cards (2..10 points, never a Queen) counting ``target``, spread evenly."""
    if n == 0:
        return [] if target == 0 else None
    aim = target / n
    for value in sorted(range(2, 11), key=lambda v: (abs(v - aim), -v)):
        if not 2 * (n - 1) <= target - value <= 10 * (n - 1):
            continue
        code = _spare_card(value, used)
        if code is None:
            continue
        used[code] += 1
        rest = _loose_search(target - value, n - 1, used)
        used[code] -= 1
        if rest is not None:
            return [code, *rest]
    return None


def _spare_card(value: int, used: Counter[str]) -> str | None:
    ranks = ["10", "J", "K", "A"] if value == 10 else [str(value)]
    for rank in ranks:
        for suit in "SHDC":
            code = f"{rank}{suit}"
            if used[code] < 2:
                return code
    return None


def flatten(groups: Iterable[Iterable[str]]) -> list[str]:
    return [code for group in groups for code in group]


# --------------------------------------------------------------------------- the driver


class TableDriver:
    """Plays one table through the services, as its players would."""

    def __init__(self, table: Table, users: Mapping[int, Any], clock: Clock) -> None:
        self.table = table
        self.users = dict(users)
        self.clock = clock

    # reads ---------------------------------------------------------------
    def game(self) -> Game:
        return Game.objects.filter(table=self.table).order_by("-pk").first()  # type: ignore[return-value]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        game = self.game()
        engine = engine_for(game.variant)
        assert game.state is not None
        return dict(engine.view(engine.state_from_json(game.state), seat).raw)

    def phase(self) -> str:
        return str(self.view()["phase"])

    def turn(self) -> int | None:
        deal = self.view()["deal"]
        return None if deal is None else deal["turn"]

    def totals(self) -> dict[int, int]:
        return {p["seat"]: p["total"] for p in self.view()["players"]}

    def chips(self) -> dict[int, int]:
        return {p["seat"]: p["chips"] for p in self.view()["players"]}

    # writes --------------------------------------------------------------
    def act(self, seat: int, action: str, **payload: Any) -> Game:
        game = self.game()
        return services.game_act(
            game_id=game.pk,
            user=self.users[seat],
            action=action,
            payload=payload,
            expected_version=game.version,
        )

    def fire(self) -> int:
        """Jump to the stored deadline and run the sweep."""
        game = self.game()
        assert game.deadline is not None, "no deadline is set"
        self.clock.t = max(self.clock.t, game.deadline.timestamp() + 0.001)
        return services.timers_sweep()

    def settle_break(self, *, decline_split: bool = True) -> None:
        """After a deal: let rejoin windows run out, decline (or leave) split offers, and run the
        break until the next deal is dealt or the game ends."""
        for _ in range(10):
            game = self.game()
            if game.status != GameStatus.RUNNING or self.phase() == "turn":
                return
            phase = self.phase()
            if phase == "split" and decline_split:
                seat = self.view()["split"]["seats"][0]
                self.act(seat, "split_decline")
                continue
            self.fire()
        raise AssertionError("the break did not end")

    def play_show(
        self,
        *,
        winner: int,
        winner_groups: list[list[str]],
        losers: Mapping[int, list[list[str]]],
    ) -> dict[str, Any]:
        """Every player in the deal takes a turn (picking from the closed deck and throwing the
        card back), then ``winner`` picks and shows ``winner_groups`` with the picked card as the
        finish card; the others submit their ``losers`` arrangement in the meld window."""
        had_turn: set[int] = set()
        playing = set(self.view()["deal"]["seats"])
        for _ in range(40):
            seat = self.turn()
            assert seat is not None
            self.act(seat, "pick_closed")
            picked = self.view(seat)["hand"]["picked"]
            if seat == winner and had_turn >= playing - {winner}:
                self.act(seat, "declare", finish_card=picked, groups=winner_groups)
                break
            self.act(seat, "discard", card=picked)
            had_turn.add(seat)
        else:  # pragma: no cover
            raise AssertionError("the winner never showed")
        for seat, groups in losers.items():
            if self.phase() == "meld":
                self.act(seat, "submit_meld", groups=groups)
        view = self.view()
        assert view["last_deal"] is not None
        return view["last_deal"]


# --------------------------------------------------------------------------- planned deals


def plant(planter: Any, added: dict[int, int | None]) -> tuple[int, dict[int, Any]]:
    """Queue a deal in which the seat adding 0 can show and every other seat still in counts
    exactly what ``added`` says (``None``: not in the deal). Returns (winner, arrangements)."""
    winner = next(seat for seat, points in added.items() if points == 0)
    used = reserved_cards()
    losers: dict[int, list[list[str]]] = {}
    for which, (seat, points) in enumerate(
        (s, p) for s, p in added.items() if p is not None and p != 0
    ):
        losers[seat] = loser_groups(points, which, used)
    hands = {winner: flatten(WINNER_GROUPS)} | {s: flatten(g) for s, g in losers.items()}
    planter.add(hands=hands, open_card="JC", cut_card="QC")
    return winner, losers


def play(
    t: TableDriver,
    winner: int,
    losers: dict[int, Any],
    added: dict[int, int | None],
) -> None:
    t.settle_break()
    assert t.phase() == "turn"
    result = t.play_show(winner=winner, winner_groups=WINNER_GROUPS, losers=losers)
    scores = {r["seat"]: r["points"] for r in result["results"]}
    assert scores == {s: p for s, p in added.items() if p is not None}


def plant_and_play(t: TableDriver, planter: Any, added: dict[int, int | None]) -> None:
    """Plant the next deal (``plant``), run the break up to it and play it (``play``)."""
    winner, losers = plant(planter, added)
    play(t, winner, losers, added)
