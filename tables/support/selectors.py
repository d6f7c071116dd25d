"""Support's reads for settling a dispute (staff with ``accounts.review_deals``): a deal's part
of the move log replayed (``deal_history``), its outcome with every hand, kind of group and the
engine's best arrangement (``deal_outcome``), the money it moved (``deal_money``), the whole
history as one JSON document (``deal_export``, docs/deal-export.md), notes and the access log,
and the pair signals report (``pair_signals``). Only finished deals are reviewed or exported.
(What a deal's players see of its shoe commitment comes with their table view:
``selectors.commitment_view``.)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db.models import Prefetch, QuerySet

from tables.engines import engine_of
from tables.models import Deal, DealAccess, DealNote, Game, GameStatus, Move, Seat
from tables.rules.evaluate import evaluate_hand
from tables.rules.melds import classify_group
from tables.rules.replay import replay_moves
from tables.selectors import ReplayStep, game_ledger, logged_moves

if TYPE_CHECKING:
    from accounts.models import User

__all__ = [
    "BIG_LOSS_POINTS",
    "HistoryStep",
    "deal_accesses",
    "deal_export",
    "deal_history",
    "deal_is_reviewable",
    "deal_money",
    "deal_moves",
    "deal_notes",
    "deal_outcome",
    "deal_players",
    "deal_public_state",
    "deal_state_after",
    "pair_signals",
]


# --------------------------------------------------------------------------- hand review


@dataclass(frozen=True)
class HistoryStep(ReplayStep):
    """A replayed move with the engine clock it ran at (epoch seconds)."""

    clock: float = 0.0


def deal_moves(*, deal: Deal) -> list[Move]:
    """The deal's part of the move log, oldest first: its start-deal move, every move of the
    deal and the moves after it up to the next deal (the break, rejoins, splits, the game's
    end). Consecutive deals' parts join up: the next deal's ``state_before`` is the state
    after the last of these moves."""
    following = (
        Deal.objects.filter(game_id=deal.game_id, number__gt=deal.number)
        .order_by("number")
        .values_list("version_before", flat=True)
        .first()
    )
    moves = Move.objects.filter(game_id=deal.game_id, version__gt=deal.version_before)
    if following is not None:
        moves = moves.filter(version__lte=following)
    return list(moves.select_related("actor").order_by("version"))


def deal_state_after(*, deal: Deal) -> dict[str, Any] | None:
    """The game state after the deal's last move (``deal_moves``): the next deal's
    ``state_before``, or the game's state when this is its last deal."""
    following = (
        Deal.objects.filter(game_id=deal.game_id, number__gt=deal.number).order_by("number").first()
    )
    if following is not None:
        state: dict[str, Any] = following.state_before
        return state
    return deal.game.state


def deal_history(*, deal: Deal) -> list[HistoryStep]:
    """Every move of ``deal_moves`` replayed from the stored state and shoe (support only:
    every card). Moves that are not engine actions (none are expected after the first deal)
    carry the state unchanged."""
    game = deal.game
    engine = engine_of(game.variant)
    moves = deal_moves(deal=deal)
    replayed = replay_moves(
        engine, engine.state_from_json(deal.state_before), deal.shoe, logged_moves(moves)
    )
    return [
        HistoryStep(
            version=move.version,
            action=move.action,
            seat_no=move.seat_no,
            actor=move.actor.public_name if move.actor is not None else "server",
            payload=move.payload,
            events=list(step.events),
            logged_events=list(move.events),
            created_at=move.created_at,
            state=step.state.to_json(),
            clock=move.clock,
        )
        for move, step in zip(moves, replayed, strict=True)
    ]


def deal_players(*, deal: Deal) -> list[dict[str, Any]]:
    """The game's players: seat, user id, username and public name, by seat."""
    seats = Seat.objects.filter(game_id=deal.game_id, played=True).select_related("user")
    return [
        {
            "seat": s.seat_no,
            "user_id": s.user_id,
            "username": s.user.username,
            "name": s.user.public_name,
            "is_bot": s.is_bot,
        }
        for s in sorted(seats, key=lambda s: s.seat_no)
    ]


def _by_seat(mapping: Any) -> dict[int, int]:
    return {int(k): int(v) for k, v in dict(mapping or {}).items()}


def deal_money(*, deal: Deal, steps: list[HistoryStep] | None = None) -> dict[str, Any]:
    """What each seat paid in and got out in this deal's part of the game, from the engine's
    money events (the ledger moved exactly these amounts): the entry fees (first deal),
    rejoin fees, points settlements and, when the game ended here, the prizes.

    ``{"by_seat": {seat: {"paid_in", "paid_out", "net"}}, "prizes": {"reason", "payouts",
    "fee"} | None}``."""
    game = deal.game
    steps = deal_history(deal=deal) if steps is None else steps
    seats = [p["seat"] for p in deal_players(deal=deal)]
    paid_in = dict.fromkeys(seats, 0)
    paid_out = dict.fromkeys(seats, 0)
    if deal.number == 1:
        for seat in seats:
            paid_in[seat] += int(game.stake)
    prizes: dict[str, Any] | None = None
    nets: dict[int, int] | None = None
    points_fee = 0
    for step in steps:
        for event in step.events:
            kind = event.get("type")
            if kind == "rejoined":
                paid_in[int(event["seat"])] = paid_in.get(int(event["seat"]), 0) + int(
                    event["amount"]
                )
            elif kind == "points_settled":
                nets = _by_seat(event.get("nets"))
                points_fee = int(event.get("fee") or 0)
            elif kind == "game_ended":
                payouts = _by_seat(event.get("payouts"))
                fee = int(event.get("fee") or 0)
                if nets is not None:  # points: every seat gets its buy-in back plus its net
                    payouts = {seat: int(game.stake) + nets.get(seat, 0) for seat in seats}
                    fee = points_fee
                for seat, amount in payouts.items():
                    paid_out[seat] = paid_out.get(seat, 0) + amount
                prizes = {
                    "reason": str(event.get("reason", "")),
                    "winners": list(event.get("winners") or ()),
                    "payouts": payouts,
                    "fee": fee,
                }
    by_seat = {
        seat: {
            "paid_in": paid_in.get(seat, 0),
            "paid_out": paid_out.get(seat, 0),
            "net": paid_out.get(seat, 0) - paid_in.get(seat, 0),
        }
        for seat in seats
    }
    return {"by_seat": by_seat, "prizes": prizes}


def deal_is_reviewable(deal: Deal) -> bool:
    """Only a finished deal opens for review and export (a live deal shows its public state)."""
    return deal.ended_at is not None


def deal_public_state(*, deal: Deal) -> dict[str, Any]:
    """What anyone watching sees of a live deal (the engine's spectator view)."""
    game = deal.game
    if game.state is None:
        return {}
    engine = engine_of(game.variant)
    view: dict[str, Any] = engine.view(engine.state_from_json(game.state), None)
    return view


def deal_export(*, deal: Deal) -> dict[str, Any]:
    """The deal's whole history as one JSON document (docs/deal-export.md): the game's frozen
    settings, the players, the shoe with its commitment and secret, the state before, every
    move with its time and actor, the state after, the results and the game's ledger
    transactions with their keys. Finished deals only (``ValueError`` otherwise)."""
    if not deal_is_reviewable(deal):
        raise ValueError("the deal is still being played")
    game = deal.game
    moves = deal_moves(deal=deal)
    ledger = []
    for tx in game_ledger(game=game):
        ledger.append(
            {
                "id": tx.pk,
                "kind": tx.kind,
                "key": tx.idempotency_key,
                "ref": tx.ref,
                "currency": tx.currency,
                "memo": tx.memo,
                "reverses": tx.reverses_id,
                "created_at": tx.created_at.isoformat(),
                "entries": [
                    {
                        "account_kind": e.account.kind,
                        "user_id": e.account.user_id,
                        "ref": e.account.ref,
                        "amount": int(e.amount),
                    }
                    for e in tx.entries.all()
                ],
            }
        )
    last = not Deal.objects.filter(game_id=game.pk, number__gt=deal.number).exists()
    return {
        "format": "rummy-deal-export",
        "format_version": 1,
        "game": {
            "id": game.pk,
            "table": {"id": game.table_id, "name": game.table.name},
            "variant": game.variant,
            "currency": game.currency,
            "stake": int(game.stake),
            "settings": game.settings,
            "status": game.status,
            "result": game.result if last else None,
            "pot_ref": game.pot_ref,
        },
        "players": [
            {k: p[k] for k in ("seat", "user_id", "username", "is_bot")}
            for p in deal_players(deal=deal)
        ],
        "deal": {
            "id": deal.pk,
            "number": deal.number,
            "started_at": deal.started_at.isoformat(),
            "ended_at": deal.ended_at.isoformat() if deal.ended_at else None,
            "starter": deal.starter,
            "cut_joker": deal.cut_joker,
            "shoe": deal.shoe,
            "shoe_secret": deal.shoe_secret,
            "shoe_commitment": deal.shoe_commitment,
            "version_before": deal.version_before,
            "state_before": deal.state_before,
            "result": deal.result,
            "last_of_game": last,
        },
        "moves": [
            {
                "version": m.version,
                "action": m.action,
                "seat": m.seat_no,
                "actor_id": m.actor_id,
                "actor": m.actor.username if m.actor is not None else None,
                "payload": m.payload,
                "events": m.events,
                "clock": m.clock,
                "at": m.created_at.isoformat(),
            }
            for m in moves
        ],
        "state_after": deal_state_after(deal=deal),
        "ledger": ledger,
    }


def deal_notes(*, deal: Deal) -> QuerySet[DealNote]:
    """Support's notes on the deal, oldest first, with their authors."""
    return DealNote.objects.filter(deal=deal).select_related("author").order_by("created_at", "pk")


def deal_accesses(*, deal: Deal | None = None, user: User | None = None) -> QuerySet[DealAccess]:
    """The access log (who opened which deal's review or export, when), newest first."""
    rows = DealAccess.objects.select_related("user", "deal", "deal__game").order_by("-at", "-pk")
    if deal is not None:
        rows = rows.filter(deal=deal)
    if user is not None:
        rows = rows.filter(user=user)
    return rows


# --------------------------------------------------------------------------- pair signals

BIG_LOSS_POINTS = 60
"""A deal score at or above this counts as a big loss in ``pair_signals``."""


def pair_signals(*, since: datetime | None = None, min_games: int = 2) -> list[dict[str, Any]]:
    """Pairs of players who sat in the same finished games (at least ``min_games``), with how
    often each dropped or lost big (``BIG_LOSS_POINTS``) in a deal the other won, and the chips
    that flowed between them (in a game where one lost money and the other won, the smaller of
    the two amounts). Flags only; it judges nothing.

    Each row: ``a``/``b`` (user ids, ``a < b``), names, ``games``, ``deals``, ``a_drops``,
    ``b_drops`` (drops while the other was in the deal), ``a_big_losses_to_b``,
    ``b_big_losses_to_a``, ``flow_a_to_b``, ``flow_b_to_a``, ``currency``-keyed totals are not
    mixed (practice games are left out), ``deal_ids`` and ``flags``."""
    games = Game.objects.filter(status=GameStatus.FINISHED).exclude(currency="practice")
    if since is not None:
        games = games.filter(ended_at__gte=since)
    games = games.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.filter(played=True).select_related("user"))
    )
    deal_ids = {
        (g, n): pk
        for g, n, pk in Deal.objects.filter(game__in=games).values_list("game_id", "number", "pk")
    }
    pairs: dict[tuple[int, int], dict[str, Any]] = {}
    for game in games:
        seats = {s.seat_no: s for s in game.seats.all()}
        paid = {n: int(s.entry_paid) for n, s in seats.items()}
        payouts = _by_seat(((game.result or {}).get("settlement") or {}).get("payouts"))
        net = {n: payouts.get(n, 0) - paid[n] for n in seats}
        history = (game.state or {}).get("history") or []
        for x, y in itertools.combinations(sorted(seats), 2):
            ux, uy = seats[x].user, seats[y].user
            if ux.pk == uy.pk:
                continue
            (sa, a), (sb, b) = sorted(((x, ux), (y, uy)), key=lambda p: p[1].pk)
            row = pairs.setdefault(
                (a.pk, b.pk),
                {
                    "a": a.pk,
                    "b": b.pk,
                    "a_name": a.username,
                    "b_name": b.username,
                    "games": 0,
                    "deals": 0,
                    "a_drops": 0,
                    "b_drops": 0,
                    "a_big_losses_to_b": 0,
                    "b_big_losses_to_a": 0,
                    "flow_a_to_b": 0,
                    "flow_b_to_a": 0,
                    "deal_ids": [],
                },
            )
            row["games"] += 1
            if net[sa] < 0 < net[sb]:
                row["flow_a_to_b"] += min(-net[sa], net[sb])
            elif net[sb] < 0 < net[sa]:
                row["flow_b_to_a"] += min(-net[sb], net[sa])
            for entry in history:
                results = {int(r["seat"]): r for r in entry.get("results", [])}
                if sa not in results or sb not in results:
                    continue
                row["deals"] += 1
                pk = deal_ids.get((game.pk, int(entry.get("number", 0))))
                if pk is not None:
                    row["deal_ids"].append(pk)
                winner = entry.get("winner")
                for me, other, drops, big in (
                    (sa, sb, "a_drops", "a_big_losses_to_b"),
                    (sb, sa, "b_drops", "b_big_losses_to_a"),
                ):
                    if results[me].get("outcome") == "dropped":
                        row[drops] += 1
                    if winner == other and int(results[me].get("points", 0)) >= BIG_LOSS_POINTS:
                        row[big] += 1
    rows = []
    for row in pairs.values():
        if row["games"] < min_games:
            continue
        flags = []
        deals = max(row["deals"], 1)
        for side, them in (("a", "b"), ("b", "a")):
            name = row[f"{side}_name"]
            if row[f"{side}_drops"] * 2 >= deals and row[f"{side}_drops"] >= 2:
                flags.append(f"{name} dropped in {row[f'{side}_drops']} of {row['deals']} deals")
            if row[f"{side}_big_losses_to_{them}"] >= 2:
                flags.append(f"{name} lost big to {row[f'{them}_name']} repeatedly")
        one_way = max(row["flow_a_to_b"], row["flow_b_to_a"])
        back = min(row["flow_a_to_b"], row["flow_b_to_a"])
        if one_way > 0 and back * 4 <= one_way:
            flags.append("money flows one way")
        row["flags"] = flags
        row["deal_ids"] = sorted(set(row["deal_ids"]), reverse=True)
        rows.append(row)
    return rows


# --------------------------------------------------------------------------- deal outcome

OUTCOME_WORDS = {
    "won": "won (valid show)",
    "counted": "counted",
    "deal_show": "counted (deal show)",
    "dropped": "dropped",
    "wrong_show": "wrong show",
    "timed_out": "out: missed turns",
    "left": "left the game",
    "exhausted": "closed deck ran out",
}


def _events_of(steps: list[HistoryStep], kind: str) -> list[dict[str, Any]]:
    return [e for step in steps for e in step.events if e.get("type") == kind]


def deal_outcome(*, deal: Deal, steps: list[HistoryStep]) -> dict[str, Any]:
    """The deal's outcome as support needs it to settle a dispute (data only, card codes):
    ``winner``, ``reason``, ``cut`` (wild card), ``finish_card``, ``declarer`` with ``valid``
    and ``reason`` of the show, and one row per seat: ``outcome``, ``points``, ``groups`` (the
    player's final groups, each ``{"cards", "kind"}``), ``best`` (the engine's lowest count of
    the same cards and its groups, ``can_declare``) and ``total``/``chips`` after the deal.
    Classic hands: ``groups`` is the hand the player still held, ``best`` is ``None``."""
    ended = _events_of(steps, "deal_ended")
    end = ended[0] if ended else (deal.result if isinstance(deal.result, dict) else {})
    declared = _events_of(steps, "declared")
    dropped = {int(e["seat"]): e for e in _events_of(steps, "dropped")}
    outcome: dict[str, Any] = {
        "ended": bool(ended),
        "winner": end.get("winner"),
        "reason": end.get("reason", end.get("type", "")),
        "cut": deal.cut_joker or None,
        "finish_card": None,
        "declarer": None,
        "valid": None,
        "show_reason": "",
        "rows": [],
        "table_melds": [],
    }
    if declared:
        first = declared[0]
        outcome.update(
            declarer=int(first["seat"]),
            valid=bool(first["valid"]),
            show_reason=str(first.get("reason", "")),
            finish_card=first.get("finish_card"),
        )
    totals = _by_seat(end.get("totals"))
    chips = _by_seat(end.get("chips"))
    scores = _by_seat(end.get("scores"))
    after = steps[-1].state if steps else {}
    if "deal" not in after and "players" in after:  # classic
        shown = _events_of(steps, "hands_shown")
        hands = {int(k): list(v) for k, v in (shown[0]["hands"] if shown else {}).items()}
        went_out = _events_of(steps, "went_out")
        if went_out:
            outcome["declarer"] = int(went_out[0]["seat"])
            outcome["valid"] = True
            outcome["show_reason"] = "went rummy" if went_out[0].get("rummy") else "went out"
        for step in reversed(steps):
            melds = step.state.get("melds")
            if melds:
                outcome["table_melds"] = [list(m["cards"]) for m in melds]
                break
        for seat in sorted(scores):
            outcome["rows"].append(
                {
                    "seat": seat,
                    "outcome": "won" if seat == outcome["winner"] else "counted",
                    "points": scores[seat],
                    "groups": [{"cards": hands.get(seat, []), "kind": "hand"}],
                    "best": None,
                    "total": totals.get(seat),
                    "chips": None,
                    "dropped": None,
                }
            )
        return outcome
    history = [h for h in after.get("history") or [] if h.get("number") == deal.number]
    if not history:
        return outcome
    result = history[0]
    outcome["cut"] = result.get("cut_card") or outcome["cut"]
    outcome["finish_card"] = result.get("finish_card") or outcome["finish_card"]
    settings = engine_of(deal.game.variant).settings_from_json(deal.game.settings)
    meld = getattr(settings, "meld", None)
    cut = outcome["cut"]
    for r in result.get("results", []):
        seat = int(r["seat"])
        groups = [list(g) for g in r.get("groups") or []]
        cards = [c for g in groups for c in g]
        finish = outcome["finish_card"]
        if seat == outcome["declarer"] and finish in cards and len(cards) > 13:
            cards.remove(finish)  # the best arrangement of the 13 cards kept
        best = None
        if cards and cut:
            evaluation = evaluate_hand(cards, cut, settings=meld)
            best = {
                "points": evaluation.points,
                "groups": [[c.code for c in g] for g in evaluation.groups],
                "ungrouped": [c.code for c in evaluation.ungrouped],
                "can_declare": evaluation.can_declare,
            }
        outcome["rows"].append(
            {
                "seat": seat,
                "outcome": str(r.get("outcome", "")),
                "points": int(r.get("points", 0)),
                "counted": str(r.get("outcome", "")) in ("counted", "deal_show", "exhausted"),
                "groups": [
                    {
                        "cards": g,
                        "kind": classify_group(g, cut, settings=meld).value if cut else "",
                    }
                    for g in groups
                ],
                "best": best,
                "total": totals.get(seat),
                "chips": chips.get(seat),
                "dropped": dropped.get(seat),
            }
        )
    return outcome
