"""The best arrangement of a hand (RULES.md sections 2 and 3): exact lowest count, auto-sort.

``evaluate_hand`` finds the lowest count any arrangement of a hand gives (uncapped), one
arrangement reaching it, and whether the hand can be declared. ``best_discard`` picks the card
to throw from a hand one card over size (usually 14) so that the rest counts least.

How it works
------------
Jokers (printed, and wild-rank cards not standing as themselves) are interchangeable and count
0, so the search keeps them as a number, not as cards. The other cards ("naturals") are grouped
by suit (shortest suit first) and sorted by rank; a state is the bit mask of naturals already
placed. Every candidate meld is generated once per hand and filed under its first natural: a
set (2 to 4 naturals of one rank, every suit different, jokers making up 3) or a sequence
(naturals of one suit at distinct ranks, jokers filling the gaps and making up 3 cards, Ace low
or high). A sequence without jokers is pure; a wild-rank card standing as itself inside a run
keeps it pure (such a card has its own bit, after the naturals). Identical cards (several packs)
are never tried both ways: melds name first copies and take the first copy still free.

At each state the first free natural starts one of its melds or stays loose. The search is
exact: it memoises the lowest count of every (mask, jokers left, pure yet, sequences so far)
state of the hand, and 3 or more leftover jokers may form the second sequence. The answer is the
least of that, the whole hand (no pure sequence) and the hand less its richest pure sequence (no
second sequence). In those two last cases the arrangement still shows the melds the count cannot
use (``kept``: a second search with no requirement, the loose points least). Whether a hand
counting 0 can be declared (every card placed, jokers included) is checked on the arrangement
found, else by a second search that lets no natural stay loose.

Nothing is cached between calls: every hand is evaluated from scratch.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from operator import attrgetter, itemgetter
from typing import Final

from .arrangement import _bits, build_groups
from .cards import ACE, JOKER_RANK, Card, CardLike, parse_cards
from .errors import Refusal, RulesError
from .melds import DECLARATION_SIZE, MAX_SEQUENCE, MeldSettings, wild_rank

__all__ = ["DiscardChoice", "HandEvaluation", "best_discard", "evaluate_hand"]

_INF: Final = 1 << 30
_DEFAULT_SETTINGS: Final = MeldSettings()
_BY_SUIT_THEN_RANK: Final = attrgetter("suit", "rank")
_BY_JOKERS: Final = itemgetter(1)
_BY_POINTS: Final = itemgetter(0)


@dataclass(frozen=True, slots=True)
class HandEvaluation:
    """The best arrangement found for a hand.

    ``points``: the lowest count of any arrangement (RULES.md section 3, uncapped).
    ``groups``: valid melds of one arrangement whose count is ``points``. When the count can
    use no melds (no pure sequence, or no second one), the melds the hand can still form are
    kept (sets and impure sequences; sets beside the pure one), leaving the fewest points loose:
    a player arranges to build, not only to declare.
    ``ungrouped``: the cards of the hand outside ``groups``.
    ``can_declare``: whether the hand (of 13 cards) can be shown as a valid declaration; then
    ``groups`` is such a declaration and ``ungrouped`` is empty.
    """

    points: int
    groups: tuple[tuple[Card, ...], ...]
    ungrouped: tuple[Card, ...]
    can_declare: bool


@dataclass(frozen=True, slots=True)
class DiscardChoice:
    """The card to throw and the evaluation of the cards kept."""

    card: Card
    evaluation: HandEvaluation


# A candidate meld for the search: (mask of naturals, jokers taken, is a sequence, is pure,
# room for more jokers in a set).
_Meld = tuple[int, int, int, int, int]


class _Solver:
    """The search over one hand. Built per call; nothing outlives the call."""

    def __init__(self, cards: Sequence[Card], wild: int, settings: MeldSettings) -> None:
        self.settings = settings
        self.wild = wild
        naturals: list[Card] = []
        wilds: list[Card] = []
        printed: list[Card] = []
        for card in cards:
            if card.rank == JOKER_RANK:
                printed.append(card)
            elif card.rank == wild:
                wilds.append(card)
            else:
                naturals.append(card)
        # Grouped by suit, shortest suit first (the search then meets fewer states), then rank.
        length = {"S": 0, "H": 0, "D": 0, "C": 0}
        for card in naturals:
            length[card.suit] += 1
        naturals.sort(key=lambda c: (length[c.suit], c.suit, c.rank))
        wilds.sort(key=_BY_SUIT_THEN_RANK)
        self.naturals = naturals
        self.wilds = wilds
        self.printed = printed
        n = len(naturals)
        self.n = n
        self.full = (1 << n) - 1
        self.jokers = len(wilds) + len(printed)
        self.wild_bits = ((1 << len(wilds)) - 1) << n
        self.points = [10 if c.rank == ACE or c.rank > 10 else c.rank for c in naturals]
        self.total = sum(self.points)
        # Identical cards (several packs) sit side by side; ``dup`` marks every copy after the
        # first. Melds name first copies only and take, for each card, its first copy still
        # free (``_realize``): equal cards are never tried both ways.
        dup = 0
        for i in range(1, n):
            if (
                naturals[i].rank == naturals[i - 1].rank
                and naturals[i].suit == naturals[i - 1].suit
            ):
                dup |= 1 << i
        for w in range(1, len(wilds)):
            if wilds[w].suit == wilds[w - 1].suit:
                dup |= 1 << (n + w)
        self.dup = dup
        melds: list[list[_Meld]] = [[] for _ in range(n)]
        self.melds = melds
        self._generate()
        alive = 0
        pure_melds: list[_Meld] = []
        for i in range(n):
            if dup >> i & 1:
                melds[i] = melds[i - 1]  # a later copy starts the same melds
                continue
            group = melds[i]
            group.sort(key=_BY_JOKERS)
            for meld in group:
                alive |= meld[0]
                if meld[3]:
                    pure_melds.append(meld)
        self.pure_melds = pure_melds
        # Naturals in no meld at all always count: they are set aside before the search.
        while (alive << 1) & dup & ~alive:
            alive |= (alive << 1) & dup
        self.dead = self.full & ~alive
        self.memo: dict[int, int] = {}
        self.pure_ranked: list[tuple[int, _Meld]] | None = None
        self.best: Callable[[int, int, int, int], int] = _unset

    # ----------------------------------------------------------------- candidate melds
    def _generate(self) -> None:
        """Fill ``self.melds[i]`` (``i`` a first copy) with every meld whose first natural is
        ``i``, naming first copies only."""
        naturals = self.naturals
        limit = self.jokers
        largest = self.settings.largest_set
        melds = self.melds
        dup = self.dup
        by_suit: dict[str, list[tuple[int, int]]] = {}
        by_rank: dict[int, list[int]] = {}
        for i, card in enumerate(naturals):
            if dup >> i & 1:
                continue
            by_suit.setdefault(card.suit, []).append((card.rank, i))
            by_rank.setdefault(card.rank, []).append(i)

        # Sets: 2 to 4 naturals of one rank in different suits; jokers make up 3 (up to the
        # largest set). Each is filed under its lowest-numbered natural.
        most = min(4, largest)
        for members in by_rank.values():
            count = len(members)
            if count < 2:
                continue
            for chosen in range(3, 1 << count):
                size = chosen.bit_count()
                if size < 2 or size > most:
                    continue
                need = 3 - size if size < 3 else 0
                if need > limit:
                    continue
                mask = 0
                for b in range(count):
                    if chosen >> b & 1:
                        mask |= 1 << members[b]
                first = (mask & -mask).bit_length() - 1
                melds[first].append((mask, need, 0, 0, largest - (size if size > 3 else 3)))

        # Sequences: the first natural is the lowest (or an Ace on top of Q-K-A).
        wild = self.wild
        n = self.n
        for suit, ranks in by_suit.items():
            wild_bit = 0
            for w, card in enumerate(self.wilds):
                if card.suit == suit:
                    wild_bit = 1 << (n + w)  # the first copy of this suit's wild-rank card
                    break
            # a wild-rank card standing as itself sits at its rank (a wild Ace: either end)
            spots = ((ACE, 14) if wild == ACE else (wild,)) if wild_bit else ()
            last = len(ranks) - 1
            for a, (start, first) in enumerate(ranks):
                if start == ACE:
                    found: list[_Meld] = []
                    _runs(ranks, a, 1, limit, spots, wild_bit, found)
                    high = [(14, first)] + [(r, i) for r, i in reversed(ranks) if r != ACE]
                    _runs(high, 0, -1, limit, spots, wild_bit, found)
                    melds[first] += _dedupe(found)
                elif limit >= 2 or spots or (a < last and ranks[a + 1][0] - start <= limit + 1):
                    _runs(ranks, a, 1, limit, spots, wild_bit, melds[first])
                # else: no partner within reach and too few jokers to pad a single card

    # ----------------------------------------------------------------- search
    def without(self, card: Card) -> tuple[int, int, int]:
        """Search start for the hand less one of its cards: (mask of placed cards, jokers,
        points of the card)."""
        if card.rank == JOKER_RANK:
            return 0, self.jokers - 1, 0
        if card.rank == self.wild:
            return 1 << (self.n + self.wilds.index(card)), self.jokers - 1, 0
        index = self.naturals.index(card)
        return 1 << index, self.jokers, self.points[index]

    def joker_group_ok(self, used: int) -> bool:
        """Whether leftover jokers (3 or more) may form a group of their own: a wild-rank card
        among them stands as itself, or the setting allows printed jokers alone."""
        if self.settings.allow_joker_only_groups:
            return True
        return len(self.wilds) > (used & self.wild_bits).bit_count()

    def best_pure(self, used: int = 0) -> tuple[int, _Meld | None]:
        """(points, meld) of the pure sequence of free cards covering most points, or (-1, None)."""
        if self.pure_ranked is None:
            points = self.points
            full = self.full
            self.pure_ranked = sorted(
                ((sum(points[b] for b in _bits(m[0] & full)), m) for m in self.pure_melds),
                key=_BY_POINTS,
                reverse=True,
            )
        for covered, meld in self.pure_ranked:
            mask = _realize(meld[0], used, self.dup)
            if mask >= 0:
                return covered, (mask, *meld[1:])
        return -1, None

    def lowest(self, used: int, jokers: int) -> int:
        """Least count of the free naturals among arrangements with a pure sequence and a
        second sequence (``_INF`` if there are none). The memo is exact and may be shared by
        several calls on the same hand (``best_discard`` does)."""
        if not self.pure_melds:
            return _INF
        dead = self.dead & ~used
        loose = sum(self.points[b] for b in _bits(dead))
        memo = self.memo
        points = self.points
        melds = self.melds
        dup = self.dup
        full = self.full
        group_ok = self.joker_group_ok

        def best(used: int, jokers: int, pure: int, seqs: int) -> int:
            key = (used << 8 | jokers) << 3 | pure << 2 | seqs
            value = memo.get(key)
            if value is not None:
                return value
            free = full & ~used
            if not free:
                done = pure and (seqs == 2 or (jokers >= 3 and group_ok(used)))
                value = 0 if done else _INF
                memo[key] = value
                return value
            low = free & -free
            i = low.bit_length() - 1
            loose = points[i]
            value = _INF
            for mask, need, seq, is_pure, _room in melds[i]:
                if need > jokers:
                    break
                hit = mask & ~used
                if hit != mask:
                    if not dup:
                        continue
                    hit = _realize(mask, used, dup)
                    if hit < 0:
                        continue
                found = best(
                    used | hit, jokers - need, pure | is_pure, 2 if seqs + seq > 1 else seqs + seq
                )
                if found < value:
                    value = found
                    if not value:
                        break
            if value > loose:  # leaving the card loose costs at least its points
                found = loose + best(used | low, jokers, pure, seqs)
                if found < value:
                    value = found
            memo[key] = value
            return value

        self.best = best
        value = best(used | dead, jokers, 0, 0)
        return value + loose if value < _INF else _INF

    def trace(self, used: int, jokers: int) -> tuple[list[_Meld], int, int]:
        """The melds (with the copies they take) of one arrangement reaching
        ``lowest(used, jokers)``, the loose naturals and the jokers left over."""
        best = self.best
        pure = seqs = 0
        chosen: list[_Meld] = []
        loose = self.dead & ~used
        used |= loose
        while True:
            free = self.full & ~used
            if not free:
                return chosen, loose, jokers
            target = best(used, jokers, pure, seqs)
            i = (free & -free).bit_length() - 1
            step: tuple[int, int, int, int] | None = None
            for mask, need, seq, is_pure, room in self.melds[i]:
                if need > jokers:
                    break
                hit = _realize(mask, used, self.dup)
                if hit < 0:
                    continue
                state = (used | hit, jokers - need, pure | is_pure, min(2, seqs + seq))
                if best(*state) == target:
                    chosen.append((hit, need, seq, is_pure, room))
                    step = state
                    break
            if step is None:  # the card stays loose
                used |= 1 << i
                loose |= 1 << i
            else:
                used, jokers, pure, seqs = step

    def kept(self, used: int, jokers: int, sets_only: bool) -> tuple[list[_Meld], int, int]:
        """Melds (with the copies they take) for the free naturals whose loose naturals count
        least, with no pure or second sequence required (only sets when ``sets_only``); the
        loose naturals and the jokers left over. This keeps a hand's melds on show when the
        rules count cannot use them (no pure sequence, or no second one)."""
        memo: dict[int, int] = {}
        full = self.full
        dup = self.dup
        points = self.points
        melds = self.melds

        def options(used: int, jokers: int) -> list[tuple[int, _Meld]]:
            i = ((full & ~used) & -(full & ~used)).bit_length() - 1
            out: list[tuple[int, _Meld]] = []
            for mask, need, seq, is_pure, room in melds[i]:
                if need > jokers:
                    break
                if seq and sets_only:
                    continue
                hit = _realize(mask, used, dup)
                if hit >= 0:
                    out.append((hit, (hit, need, seq, is_pure, room)))
            return out

        def best(used: int, jokers: int) -> int:
            key = used << 8 | jokers
            value = memo.get(key)
            if value is not None:
                return value
            free = full & ~used
            if not free:
                memo[key] = 0
                return 0
            low = free & -free
            value = points[low.bit_length() - 1] + best(used | low, jokers)
            for hit, meld in options(used, jokers):
                if value == 0:
                    break
                found = best(used | hit, jokers - meld[1])
                if found < value:
                    value = found
            memo[key] = value
            return value

        loose = self.dead & ~used
        used |= loose
        chosen: list[_Meld] = []
        while full & ~used:
            target = best(used, jokers)
            for hit, meld in options(used, jokers):
                if best(used | hit, jokers - meld[1]) == target:
                    chosen.append(meld)
                    used |= hit
                    jokers -= meld[1]
                    break
            else:  # the card stays loose
                free = full & ~used
                low = free & -free
                used |= low
                loose |= low
        return chosen, loose, jokers

    def absorbs(self, used: int, jokers: int, pure: int, seqs: int, impure: int, room: int) -> bool:
        """Whether melds with these totals, every natural placed and ``jokers`` left over, make a
        valid declaration: a pure sequence, a second sequence (or a joker group), and the
        leftover jokers fit (an impure sequence, a second pure one, a joker group, set room)."""
        if not pure:
            return False
        group = jokers >= 3 and self.joker_group_ok(used)
        if seqs < 2 and not group:
            return False
        return jokers == 0 or bool(impure) or pure >= 2 or group or room >= jokers

    def declares(self, melds: list[_Meld], used: int, jokers: int) -> bool:
        """``absorbs`` for a list of melds placing every natural."""
        pure = seqs = impure = room = 0
        for mask, _need, seq, is_pure, extra in melds:
            used |= mask
            pure += is_pure
            seqs += seq
            impure |= seq & (1 - is_pure)
            room += extra
        return self.absorbs(used, jokers, pure, seqs, impure, room)

    def declaration(self, used: int, jokers: int) -> tuple[list[_Meld], int] | None:
        """Melds (with the copies they take) placing every free natural in a valid declaration,
        and the number of jokers left over (which the arrangement can absorb), or None."""
        failed: set[int] = set()
        full = self.full
        dup = self.dup
        melds = self.melds
        path: list[_Meld] = []
        absorbs = self.absorbs

        def search(used: int, jokers: int, pure: int, seqs: int, impure: int, room: int) -> int:
            key = ((((used << 8 | jokers) << 2 | pure) << 2 | seqs) << 1 | impure) << 8 | room
            if key in failed:
                return -1
            free = full & ~used
            if not free:
                return jokers if absorbs(used, jokers, pure, seqs, impure, room) else -1
            i = (free & -free).bit_length() - 1
            for mask, need, seq, is_pure, extra in melds[i]:
                if need > jokers:
                    break
                hit = _realize(mask, used, dup)
                if hit < 0:
                    continue
                path.append((hit, need, seq, is_pure, extra))
                left = search(
                    used | hit,
                    jokers - need,
                    min(2, pure + is_pure),
                    min(2, seqs + seq),
                    impure | (seq & (1 - is_pure)),
                    min(255, room + extra),
                )
                if left >= 0:
                    return left
                path.pop()
            failed.add(key)
            return -1

        if self.dead & ~used:
            return None
        left = search(used, jokers, 0, 0, 0, 0)
        return None if left < 0 else (path, left)


def _realize(mask: int, used: int, dup: int) -> int:
    """The cards a meld naming first copies takes: for each card its first copy not yet used
    (later copies carry a ``dup`` bit right after the earlier one), or -1 if one is missing."""
    hit = mask & ~used
    miss = mask ^ hit
    while miss:
        miss <<= 1
        if miss & dup != miss:
            return -1
        got = miss & ~used
        hit |= got
        miss ^= got
    return hit


def _unset(used: int, jokers: int, pure: int, seqs: int) -> int:
    raise AssertionError("lowest() runs before trace()")


def _meld_order(meld: _Meld) -> tuple[int, int]:
    """Fewest jokers first, then pure sequences (so good arrangements are met early)."""
    return meld[1], -meld[3]


def _runs(
    ranks: Sequence[tuple[int, int]],
    a: int,
    step: int,
    limit: int,
    wild_spots: tuple[int, ...],
    wild_bit: int,
    out: list[_Meld],
) -> None:
    """Append to ``out`` every sequence whose lowest natural (or high Ace) is ``ranks[a]``,
    with later naturals of ``ranks`` (each a position and a first copy, in order away from the
    start; ``step`` is 1 going up, -1 going down from a high Ace). The suit's wild-rank card
    (``wild_bit``) standing as itself at one of ``wild_spots`` may complete a pure run."""
    start, first = ranks[a]
    stack: list[tuple[int, int, int, int, int]] = [(a + 1, 1 << first, 1, start, start)]
    size = len(ranks)
    while stack:
        nxt, mask, count, far, total = stack.pop()
        span = (far - start) * step + 1
        need = (span if span > 3 else 3) - count
        if need <= limit:
            out.append((mask, need, 1, 0 if need else 1, 0))
        if wild_spots and count >= 2:
            low, high = (start, far) if step > 0 else (far, start)
            if span == count + 1:  # one gap inside: is it the wild rank?
                fits = (low + high) * span // 2 - total in wild_spots
            elif span == count:  # a run: can the wild-rank card extend it?
                fits = (low - 1 in wild_spots and low > 1) or (high + 1 in wild_spots and high < 14)
            else:
                fits = False
            if fits and span + (span == count) <= MAX_SEQUENCE:
                out.append((mask | wild_bit, 1, 1, 1, 0))
        for b in range(nxt, size):
            rank, index = ranks[b]
            reach = (rank - start) * step + 1
            if reach > MAX_SEQUENCE or reach - count - 1 > limit:
                break
            stack.append((b + 1, mask | 1 << index, count + 1, rank, total + rank))


def _dedupe(found: list[_Meld]) -> list[_Meld]:
    """Keep the cheaper reading of each mask (an Ace start reads low and high)."""
    best: dict[int, _Meld] = {}
    for meld in found:
        old = best.get(meld[0])
        if old is None or _meld_order(meld) < _meld_order(old):
            best[meld[0]] = meld
    return list(best.values())


def evaluate_hand(
    hand: Iterable[CardLike], cut_joker: CardLike, *, settings: MeldSettings | None = None
) -> HandEvaluation:
    """Evaluate a hand (normally 13 cards) with this cut joker.

    Returns the lowest count any arrangement gives (uncapped), one arrangement reaching it
    (``groups`` are valid melds, ``ungrouped`` the rest) and whether the hand can be declared
    (only a hand of exactly 13 cards can).
    """
    cards = parse_cards(hand)
    solver = _Solver(cards, wild_rank(cut_joker), settings or _DEFAULT_SETTINGS)
    return _evaluation(solver, len(cards))


def _evaluation(solver: _Solver, size: int) -> HandEvaluation:
    total = solver.total
    constrained = solver.lowest(0, solver.jokers)
    traced = solver.trace(0, solver.jokers) if constrained < _INF else None
    if traced is not None and constrained == 0 and size == DECLARATION_SIZE:
        # The arrangement found usually declares already; else search for one that does.
        melds, _loose, left = traced
        found = (melds, left) if solver.declares(melds, 0, left) else None
        if found is None:
            found = solver.declaration(0, solver.jokers)
        if found is not None:
            melds, left = found
            groups, rest = build_groups(solver, melds, 0, left, True)
            return HandEvaluation(0, groups, rest, True)
    pure_points, pure = solver.best_pure()
    one_pure = total - pure_points if pure is not None else _INF
    points = min(total, one_pure, constrained)
    if traced is not None and constrained == points:
        melds, loose, left = traced
        groups, rest = build_groups(solver, melds, loose, left, False)
    elif pure is not None and one_pure == points:
        # The richest pure sequence, and the sets the rest can form (a second sequence would
        # change the count: it is not there, or the count above would be lower).
        sets, loose, left = solver.kept(pure[0], solver.jokers - pure[1], True)
        groups, rest = build_groups(solver, [pure, *sets], loose, left, False)
    else:
        # No pure sequence: every card counts, whatever the groups. The sets and (impure)
        # sequences the hand can form are still shown, leaving the fewest points loose.
        melds, loose, left = solver.kept(0, solver.jokers, False)
        groups, rest = build_groups(solver, melds, loose, left, False)
    return HandEvaluation(points, groups, rest, False)


def best_discard(
    hand: Iterable[CardLike], cut_joker: CardLike, *, settings: MeldSettings | None = None
) -> DiscardChoice:
    """The card to throw from ``hand`` (normally 14 cards) so that the rest counts least.

    Ties go to a discard that leaves a hand that can be declared, then to the card worth most
    points. ``evaluation`` is ``evaluate_hand`` of the cards kept. One search serves every
    discard: a thrown card is simply marked as already placed.
    """
    cards = parse_cards(hand)
    if not cards:
        raise RulesError(Refusal.EMPTY_HAND)
    chosen = settings or _DEFAULT_SETTINGS
    wild = wild_rank(cut_joker)
    solver = _Solver(cards, wild, chosen)
    size = len(cards) - 1
    # (points, -card points, card, search start: placed mask and jokers)
    options: list[tuple[int, int, Card, int, int]] = []
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            continue
        seen.add(card)
        used, jokers, value = solver.without(card)
        points = solver.lowest(used, jokers)
        if points:
            total = solver.total - value
            pure_points, pure = solver.best_pure(used)
            points = min(points, total, total - pure_points if pure is not None else _INF)
        options.append((points, -value, card, used, jokers))
    options.sort(key=lambda o: (o[0], o[1]))
    pick = options[0]
    if size == DECLARATION_SIZE:
        for option in options:
            points, _value, card, used, jokers = option
            if points:
                break
            if solver.lowest(used, jokers):  # no pure sequence and second sequence
                continue
            melds, _loose, left = solver.trace(used, jokers)
            if solver.declares(melds, used, left) or solver.declaration(used, jokers):
                pick = option
                break
    card = pick[2]
    rest = list(cards)
    rest.remove(card)
    return DiscardChoice(card, evaluate_hand(rest, cut_joker, settings=chosen))
