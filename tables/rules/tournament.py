"""Tournaments (rule book section 10), the pure part: the settings' limits, seating a round,
who goes through a table (and when a tie-breaker is needed at the cut), the ranking of the whole
field, the prize pool and the prize table with shared places and the leftover unit.

Players are any hashable, orderable keys (the package uses registration ids). Nothing here
touches a database, a clock or randomness: the draw is an argument (a permutation made by the
caller with a CSPRNG) so every decision can be replayed from what was recorded.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Generic, TypeVar

from .errors import Refusal, RulesError

P = TypeVar("P", bound=Hashable)

SEATS_MIN: Final = 2
SEATS_MAX: Final = 6
CHIPS_PER_DEAL: Final = 80
FEE_BPS_MAX: Final = 10_000
# Default prize tables (section 10): (smallest field, largest field or None, shares in %).
DEFAULT_PRIZE_TABLE: Final[tuple[tuple[int, int | None, tuple[int, ...]], ...]] = (
    (2, 6, (100,)),
    (7, 12, (70, 30)),
    (13, 36, (50, 30, 20)),
    (37, None, (40, 25, 15, 10, 10)),
)


class TournamentError(RulesError):
    """Settings or inputs that break section 10."""


# --------------------------------------------------------------------------- settings


def qualifiers_max(seats: int) -> int:
    """The largest Q for tables of ``seats``: ⌊S / 2⌋ (a larger Q could make every table of a
    round a bye, and the field would never shrink)."""
    return seats // 2


def settings_problems(
    *,
    seats: int,
    qualifiers: int,
    players_min: int,
    players_max: int,
    deals_per_round: int | None,
    fee_bps: int,
) -> dict[str, str]:
    """Every impossible setting, by field name, in staff words (empty when all is playable)."""
    problems: dict[str, str] = {}
    if not SEATS_MIN <= seats <= SEATS_MAX:
        problems["seats_per_table"] = f"A table seats {SEATS_MIN} to {SEATS_MAX} players."
    elif not 1 <= qualifiers <= qualifiers_max(seats):
        problems["qualifiers_per_table"] = (
            f"With {seats} seats a table sends 1 to {qualifiers_max(seats)} players through "
            "(at most half of it, or the field could stop shrinking)."
        )
    if players_min < 2:
        problems["players_min"] = "A tournament needs at least 2 players."
    if players_max < players_min:
        problems["players_max"] = "The most players cannot be below the fewest."
    if deals_per_round is not None and not 1 <= deals_per_round <= SEATS_MAX:
        problems["deals_per_round"] = "A table plays 1 to 6 deals a round (blank: one per player)."
    if not 0 <= fee_bps <= FEE_BPS_MAX:
        problems["fee_bps"] = "The fee is 0 to 100 % of the entries."
    return problems


# --------------------------------------------------------------------------- seating


def table_sizes(players: int, seats: int) -> list[int]:
    """t = ⌈n / S⌉ tables whose sizes differ by at most 1, the larger tables first."""
    if not SEATS_MIN <= seats <= SEATS_MAX:
        raise TournamentError(Refusal.TOURNAMENT_SEATS, low=SEATS_MIN, high=SEATS_MAX)
    if players < 1:
        raise TournamentError(Refusal.ROUND_NEEDS_PLAYER)
    tables = -(-players // seats)
    base, larger = divmod(players, tables)
    return [base + 1] * larger + [base] * (tables - larger)


def seat_round(draw: Sequence[P], seats: int) -> list[list[P]]:
    """Seat the players in the order of the draw (a random permutation): the first table takes
    the first players of the draw, and so on."""
    if len(set(draw)) != len(draw):
        raise TournamentError(Refusal.DRAW_TWICE)
    tables: list[list[P]] = []
    at = 0
    for size in table_sizes(len(draw), seats):
        tables.append(list(draw[at : at + size]))
        at += size
    return tables


def is_final(players: int, seats: int) -> bool:
    """At most S players still in at the start of a round play one final table."""
    return players <= seats


def is_bye(table_players: int, qualifiers: int, *, final: bool) -> bool:
    """A table of Q players or fewer (not the final) sends them all through without play."""
    return not final and table_players <= qualifiers


def deals_for(table_players: int, deals_per_round: int | None, *, final: bool = False) -> int:
    """Deals a table plays in a round: the setting, or as many as the table has players; the
    final always plays as many as it has players, whatever the setting says."""
    if final or deals_per_round is None:
        return table_players
    return deals_per_round


def round_plan(players: int, seats: int, qualifiers: int) -> list[list[int]]:
    """The table sizes of every round until the final, for a field of ``players`` in which
    every table sends Q through (byes send all): the worked examples of section 10."""
    rounds: list[list[int]] = []
    n = players
    while True:
        sizes = table_sizes(n, seats)
        rounds.append(sizes)
        if is_final(n, seats):
            return rounds
        through = sum(s if s <= qualifiers else qualifiers for s in sizes)
        if through >= n:
            raise TournamentError(Refusal.FIELD_DOES_NOT_SHRINK)
        n = through


# --------------------------------------------------------------------------- a table's result


def round_chips(chips: Mapping[P, int], tiebreaks: Sequence[Mapping[P, int]] = ()) -> dict[P, int]:
    """Each player's chips at the end of a round: the table's chips plus what each tie-breaker
    won or lost (``tiebreaks``: each one's chips won, negative when lost; section 10)."""
    return {p: chips[p] + sum(tb.get(p, 0) for tb in tiebreaks) for p in chips}


def _order_key(player: P, chips: Mapping[P, int], tiebreaks: Sequence[Mapping[P, int]]) -> int:
    return chips[player] + sum(tb.get(player, 0) for tb in tiebreaks)


def places(chips: Mapping[P, int], tiebreaks: Sequence[Mapping[P, int]] = ()) -> dict[P, int]:
    """Each player's place at a table (1 = best) by the round's chips (``round_chips``);
    players still equal share the better place (1, 2, 2, 4)."""
    keys = round_chips(chips, tiebreaks)
    return {p: 1 + sum(1 for q in keys if keys[q] > keys[p]) for p in keys}


@dataclass(frozen=True)
class Cut(Generic[P]):
    """A table's cut: ``through`` go on, ``out`` are knocked out, or ``tied`` players (equal at
    the cut) must play a tie-breaker deal first (``through`` and ``out`` are then empty)."""

    through: tuple[P, ...]
    out: tuple[P, ...]
    tied: tuple[P, ...]


def table_cut(
    chips: Mapping[P, int], qualifiers: int, tiebreaks: Sequence[Mapping[P, int]] = ()
) -> Cut[P]:
    """The top Q by the round's chips go through (``round_chips``: a tie-breaker's chips won or
    lost count). When the Q-th and the (Q+1)-th are equal, the players equal with them play a
    tie-breaker, and again while they are still equal at the cut."""
    if qualifiers < 1:
        raise TournamentError(Refusal.TABLE_SENDS_ONE)
    ordered = sorted(chips, key=lambda p: _order_key(p, chips, tiebreaks), reverse=True)
    if len(ordered) <= qualifiers:
        return Cut(through=tuple(ordered), out=(), tied=())
    last_in = _order_key(ordered[qualifiers - 1], chips, tiebreaks)
    first_out = _order_key(ordered[qualifiers], chips, tiebreaks)
    if last_in == first_out:
        tied = tuple(p for p in ordered if _order_key(p, chips, tiebreaks) == last_in)
        return Cut(through=(), out=(), tied=tied)
    return Cut(through=tuple(ordered[:qualifiers]), out=tuple(ordered[qualifiers:]), tied=())


def leaders_tied(chips: Mapping[P, int]) -> tuple[P, ...]:
    """The players tied for the most chips (more than one: a tie-breaker for 1st)."""
    top = max(chips.values())
    leaders = tuple(p for p in chips if chips[p] == top)
    return leaders if len(leaders) > 1 else ()


# --------------------------------------------------------------------------- ranks


@dataclass(frozen=True)
class Knockout:
    """A player knocked out: in which round (1, 2, ...), their place at their table that round
    and their chips at the end of it."""

    player: object
    round: int
    place: int
    chips: int


@dataclass(frozen=True)
class Ranked:
    """A player's final rank: ``first``..``last`` are the places shared (equal when alone)."""

    player: object
    first: int
    last: int


def rank_field(
    *, final: Mapping[P, int], final_winner: P | None, knockouts: Sequence[Knockout]
) -> list[Ranked]:
    """Ranks of the whole field: the final table by chips (its winner first: a tie for 1st was
    played off), then the players knocked out in the latest round, then the one before, and so
    on; within a round by place at their own table, then more chips; still equal: shared."""
    groups: list[list[tuple[object, tuple[int, ...]]]] = []
    final_keys: list[tuple[object, tuple[int, ...]]] = [
        (p, (1 if p == final_winner else 0, chips)) for p, chips in final.items()
    ]
    groups.append(final_keys)
    for round_no in sorted({k.round for k in knockouts}, reverse=True):
        groups.append([(k.player, (-k.place, k.chips)) for k in knockouts if k.round == round_no])
    ranked: list[Ranked] = []
    start = 1
    seen: set[object] = set()
    for group in groups:
        for player, key in group:
            if player in seen:
                raise TournamentError(Refusal.RANKED_TWICE, value=repr(player))
            seen.add(player)
            better = sum(1 for _, other in group if other > key)
            equal = sum(1 for _, other in group if other == key)
            ranked.append(
                Ranked(player=player, first=start + better, last=start + better + equal - 1)
            )
        start += len(group)
    ranked.sort(key=lambda r: (r.first, str(r.player)))
    return ranked


# --------------------------------------------------------------------------- money


@dataclass(frozen=True)
class Pool:
    """The money of a tournament: ``gross`` entries, the ``fee`` kept, the house's ``top_up``
    to reach the guarantee, and the ``prizes`` (= gross - fee + top_up) paid out by rank."""

    gross: int
    fee: int
    top_up: int
    prizes: int


def prize_pool(*, entries: int, entry_fee: int, fee_bps: int, guarantee: int = 0) -> Pool:
    """Entries x entry fee - ⌊fee % x entries x entry fee⌋; the house tops up to the guarantee."""
    if entries < 0 or entry_fee < 0 or guarantee < 0:
        raise TournamentError(Refusal.POOL_INPUTS_NEGATIVE)
    if not 0 <= fee_bps <= FEE_BPS_MAX:
        raise TournamentError(Refusal.FEE_RANGE)
    gross = entries * entry_fee
    fee = gross * fee_bps // FEE_BPS_MAX
    net = gross - fee
    top_up = max(0, guarantee - net)
    return Pool(gross=gross, fee=fee, top_up=top_up, prizes=net + top_up)


def default_shares(players: int) -> tuple[int, ...]:
    """The rule book's prize table for a field of ``players``."""
    for low, high, shares in DEFAULT_PRIZE_TABLE:
        if players >= low and (high is None or players <= high):
            return shares
    raise TournamentError(Refusal.TOURNAMENT_TWO_PLAYERS)


def prize_table_problems(
    rows: Sequence[tuple[int, int, Sequence[int]]], *, players_min: int, players_max: int
) -> list[str]:
    """What is wrong with a staff prize table: rows of (fewest players, most players, shares
    in %) that must cover ``players_min``..``players_max`` once, each summing to 100 and paying
    no more ranks than the fewest players of its row."""
    problems: list[str] = []
    covered: list[int] = []
    for low, high, shares in rows:
        label = f"{low}-{high} players"
        if low > high:
            problems.append(f"{label}: the fewest players are above the most.")
            continue
        if not shares or any(s <= 0 for s in shares):
            problems.append(f"{label}: every paid rank needs a share above 0.")
        elif sum(shares) != 100:
            problems.append(f"{label}: the shares add up to {sum(shares)}, not 100.")
        if len(shares) > low:
            problems.append(f"{label}: pays {len(shares)} ranks, more than {low} players.")
        covered.extend(range(low, high + 1))
    for n in range(players_min, players_max + 1):
        count = covered.count(n)
        if count != 1:
            problems.append(
                f"A field of {n} players is covered by {count} rows (needs exactly one)."
            )
            break
    return problems


def shares_for(
    players: int, rows: Sequence[tuple[int, int, Sequence[int]]] = ()
) -> tuple[int, ...]:
    """The shares paying a field of ``players``: the staff row covering it, else the default."""
    for low, high, shares in rows:
        if low <= players <= high:
            return tuple(shares)
    return default_shares(players)


def rank_amounts(pool: int, shares: Sequence[int]) -> list[int]:
    """What each paid rank gets: ⌊pool x share / 100⌋, rank 1 also the units left over."""
    if pool < 0:
        raise TournamentError(Refusal.PRIZE_POOL_NEGATIVE)
    if sum(shares) != 100 or any(s < 0 for s in shares):
        raise TournamentError(Refusal.PRIZE_SHARES)
    amounts = [pool * s // 100 for s in shares]
    amounts[0] += pool - sum(amounts)
    return amounts


def prizes(
    *,
    pool: int,
    shares: Sequence[int],
    ranked: Sequence[Ranked],
    registered_order: Sequence[object],
) -> dict[object, int]:
    """Every ranked player's prize (0 for the unpaid). Players sharing places share the sum of
    those places' amounts equally; a unit left over goes to the one who registered first (one
    unit each, in registration order). Sums to ``pool`` exactly when the field fills the paid
    ranks (else the amounts of empty ranks go to rank 1)."""
    amounts = rank_amounts(pool, shares)
    order = {p: i for i, p in enumerate(registered_order)}
    paid: dict[object, int] = {r.player: 0 for r in ranked}
    groups: dict[tuple[int, int], list[object]] = {}
    for r in ranked:
        groups.setdefault((r.first, r.last), []).append(r.player)
    unpaid_ranks = set(range(1, len(amounts) + 1))
    for (first, last), players in groups.items():
        if len(players) != last - first + 1:
            raise TournamentError(Refusal.PLACES_SHARED, first=first, last=last, count=len(players))
        total = sum(amounts[i - 1] for i in range(first, last + 1) if i <= len(amounts))
        unpaid_ranks -= set(range(first, last + 1))
        each, left = divmod(total, len(players))
        for i, player in enumerate(sorted(players, key=lambda p: order.get(p, len(order)))):
            paid[player] = each + (1 if i < left else 0)
    leftover = sum(amounts[i - 1] for i in unpaid_ranks)
    if leftover and ranked:
        winners = [r.player for r in ranked if r.first == 1]
        first_registered = min(winners, key=lambda p: order.get(p, len(order)))
        paid[first_registered] += leftover
    return paid
