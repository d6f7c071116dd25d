"""The table page, in two parts every viewer's page puts together:

- ``present_felt``: the viewer-neutral *felt* (the seats by their seat numbers, the decks, the
  wild joker, what just happened, the open deck's history, the timers, the scores, the result
  sheets), from the public ``TableRead`` (``selectors.table_view_data`` with no viewer, the
  typed read model of ``tables/readmodel.py``). It is rendered
  once per change and language and shared by every seat and spectator; the page turns the ring
  so that its viewer sits at the bottom and says "You" in the lines about its viewer.
- ``present_seat``: one player's own *fragment* (the hand, the action bar with the drop cost,
  the player's notices, the shoe commitment of a deal played), from that seat's
  ``TableRead``.

Both return frozen values (``FeltView``, ``SeatView``: ``tables/presenters/page.py``) that the
templates read as ``t`` and ``s``. Presentation only: no rule is decided here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.translation import get_language, gettext, gettext_lazy, gettext_noop, ngettext
from django_stubs_ext import StrOrPromise

from rummy_site.json_field import json_dumps
from tables.engines import engine_of
from tables.models import DeadlineKind
from tables.presenters.cards import (
    card_face,
    faces,
    format_seconds_left,
    groups_faces,
    money,
    sort_codes,
    variant_label,
)
from tables.presenters.kept import kept_presented
from tables.presenters.moves import move_lines, recent_discards
from tables.presenters.page import (
    CardGroup,
    FeltMeld,
    FeltPlayer,
    FeltSeat,
    FeltView,
    LayOffMeld,
    RejoinOffer,
    Scoreboard,
    ScoreRow,
    SeatHand,
    SeatView,
    ShowView,
    SplitAmount,
    SplitOffer,
)
from tables.presenters.results import (
    KIND_LABELS,
    ResultSheet,
    classic_meld_label,
    drop_info,
    meld_settings_of,
    names_and,
    present_result,
    rule,
    running_totals,
    seat_money,
    split_finish,
    wrong_show_reason,
)
from tables.presenters.words import Words
from tables.readmodel import SeatRead, TableRead
from tables.rules.engine_view import EngineView, JsonObject, json_int, json_object, json_objects
from tables.rules.melds import classify_group
from tables.rules.variants import EngineTraits

__all__ = ["present_felt", "present_seat", "ring_slots", "seat_keys", "seat_slots"]

# Where each seat sits around the oval felt, the viewer (or the first seat) at the bottom and
# the others clockwise from the viewer's left. The only copy: the page turns the ring for its
# viewer with the slots the felt carries (``FeltView.slot_order``, ``#felt[data-slots]``).
_SLOTS = {
    1: ["bottom"],
    2: ["bottom", "top"],
    3: ["bottom", "top-left", "top-right"],
    4: ["bottom", "left", "top", "right"],
    5: ["bottom", "left", "top-left", "top-right", "right"],
    6: ["bottom", "left", "top-left", "top", "top-right", "right"],
}


_DEAL_STATUS_WORDS = {
    "declared": gettext_noop("declared"),
    "dropped": gettext_noop("dropped"),
    "wrong_show": gettext_noop("wrong show"),
    "timed_out": gettext_noop("timed out"),
    "left": gettext_noop("left"),
    "out": gettext_noop("out"),
}
# A player's place in the game, when not simply in it.
_STATUS_WORDS = {
    "out": gettext_noop("out"),
    "left": gettext_noop("left"),
    "eliminated": gettext_noop("eliminated"),
    "waiting": gettext_noop("waiting"),
}


def _status_label(words: Words, labels: dict[str, str], status: str, otherwise: str) -> str:
    """The words for ``status`` in ``labels`` (``otherwise`` when it has none)."""
    label = labels.get(status)
    return words.gettext(label) if label is not None else otherwise


def seat_slots(seats: list[int], my_seat: int | None) -> dict[int, str]:
    """The place of every seat around the felt: ``my_seat`` at the bottom, the others in
    clockwise order (``seats`` is in clockwise order)."""
    if not seats:
        return {}
    start = seats.index(my_seat) if my_seat in seats else 0
    ordered = seats[start:] + seats[:start]
    return dict(zip(ordered, ring_slots(len(ordered)), strict=False))


def ring_slots(count: int) -> list[str]:
    """The places of ``count`` seats around the felt, from the bottom (the viewer's) on in
    clockwise order."""
    return list(_SLOTS.get(count) or [f"ring-{i}" for i in range(count)])


_DEADLINE_LABELS: dict[str, StrOrPromise] = {
    DeadlineKind.START: gettext_lazy("starts in"),
    DeadlineKind.FILL: gettext_lazy("computer players in"),
    DeadlineKind.TURN: gettext_lazy("turn"),
    DeadlineKind.MELD: gettext_lazy("meld window"),
    DeadlineKind.BREAK: gettext_lazy("next deal in"),
    DeadlineKind.REJOIN: gettext_lazy("rejoin window"),
    DeadlineKind.SPLIT: gettext_lazy("split offer"),
}


def _stake_display(data: TableRead, variant: str) -> str:
    template = data.template
    stake = data.stake or (template.point_value if variant == "points" else template.entry_fee)
    if variant == "points":
        return gettext("%(amount)s buy-in") % {"amount": money(stake, data.currency)}
    return money(stake, data.currency)


def _names(data: TableRead) -> tuple[dict[int, SeatRead], Callable[[int], str]]:
    names = {s.seat_no: s for s in data.seats}

    def name_of(seat: int) -> str:
        s = names.get(seat)
        return s.name if s is not None else gettext("Seat %(seat)s") % {"seat": seat}

    return names, name_of


def _deadline(data: TableRead, now: float) -> tuple[float | None, str, int | None]:
    """The deadline shown (a timestamp), its kind and the seconds left."""
    view = data.view
    if view is not None and view.deadline is not None:
        # The engine's own deadline (the turn, the meld window, the break), not a computer
        # player's think time.
        return view.deadline, view.deadline_kind, format_seconds_left(view.deadline, now)
    if data.deadline is not None:
        deadline = data.deadline.timestamp()
        return deadline, data.deadline_kind, format_seconds_left(deadline, now)
    return None, "", None


def present_felt(
    *,
    data: TableRead,
    now: float,
    viewer_seat: int | None = None,
    online: dict[int, bool] | None = None,
) -> FeltView:
    """The felt every viewer shares, from the public view (``table_view_data(user=None)``).

    ``viewer_seat`` only turns the ring for a page rendered whole for one player (the page
    turns a pushed felt itself); ``online`` overrides the seats' connection badges with the
    sockets open now (``presence``)."""
    template = data.template
    view = data.view
    variant = data.variant
    traits = engine_of(variant).traits
    seats = tuple(
        FeltSeat(seat=s.seat_no, name=s.name, is_bot=s.is_bot, user_id=s.user_id)
        for s in data.seats
        if not s.left
    )
    deadline, deadline_kind, seconds_left = _deadline(data, now)
    kind = deadline_kind or DeadlineKind.NONE
    deadline_label = str(_DEADLINE_LABELS.get(kind, ""))
    if kind == DeadlineKind.BREAK and traits.deal_word == "Hand":
        deadline_label = gettext("next hand in")
    deal = view.deal if view is not None else None
    if deal is not None and deal.in_extra_time:
        deadline_label = gettext("extra time")
    felt = FeltView(
        table=data.table,
        game=data.game,
        variant=variant,
        variant_label=variant_label(variant),
        stake_display=_stake_display(data, variant),
        version=data.version,
        traits=traits,
        view=view,
        seats_max=data.seats_max,
        seats_min=template.seats_min,
        join_open=data.join_open,
        grace_s=f"{float(settings.DEADLINE_GRACE_S):g}",
        seats=seats,
        seated_count=len(seats),
        waiting=data.waiting,
        deadline=deadline,
        deadline_kind=deadline_kind,
        seconds_left=seconds_left,
        deadline_label=deadline_label,
        waiting_for_people=kind == DeadlineKind.FILL,
    )
    if view is None:
        return felt
    return _felt_of_game(felt, data, view, viewer_seat=viewer_seat, online=online)


def _felt_of_game(
    felt: FeltView,
    data: TableRead,
    view: EngineView,
    *,
    viewer_seat: int | None,
    online: dict[int, bool] | None,
) -> FeltView:
    """The parts of the felt shown while a game is on the table."""
    currency = data.currency
    rules = data.rules
    variant = data.variant
    names, name_of = _names(data)
    deal = view.deal
    raw = view.raw
    prize = json_object(raw.get("prize"))
    cut = deal.cut_joker if deal is not None else None
    turn = deal.turn if deal is not None else None
    # What just happened: the public lines of the newest moves (a push: its own change's),
    # each also said to the player it is about.
    lines = move_lines(data.moves, name_of, cut, said_to_subject=True)
    last = lines[-1] if lines else None
    # Marked on the page (a brief highlight, a sound) only when it made the version shown.
    last_move_fresh = last is not None and last.version == data.version
    slots = seat_slots([p.seat for p in view.players], viewer_seat)
    in_extra = deal is not None and deal.in_extra_time
    turn_total = getattr(rules, "extra_time_s" if in_extra else "turn_s", None) or 30
    players: list[FeltPlayer] = []
    # The totals are points but in deals (chips) and points (each deal settles in money).
    points_totals = variant not in ("deals", "points")
    words = Words()  # a dozen words a seat, six seats
    for p in view.players:
        seat = p.seat
        bot = bool(names.get(seat) and names[seat].is_bot)
        connected = p.connected
        if online is not None and not bot:
            connected = online.get(seat, False)
        drops = p.drops_available
        name = name_of(seat)
        players.append(
            FeltPlayer(
                seat=seat,
                status=p.status,
                total=p.total,
                chips=p.chips,
                in_deal=p.in_deal,
                deal_status=p.deal_status,
                card_count=p.card_count,
                drops_available=drops,
                connected=connected,
                name=name,
                initial=name[:1].upper(),
                # Worded here, once a seat, rather than by a template tag per seat and field.
                total_words=words.gettext("%(total)s pts") % {"total": p.total}
                if points_totals
                else "",
                chips_words=words.gettext("%(chips)s chips") % {"chips": p.chips}
                if variant == "deals"
                else "",
                cards_words=words.gettext("%(cards)s cards") % {"cards": p.card_count},
                drops_words=words.ngettext("%(drops)s drop", "%(drops)s drops", drops)
                % {"drops": drops}
                if drops is not None
                else "",
                bank_words=words.gettext("+%(seconds)ss bank") % {"seconds": round(p.extra_time)},
                is_bot=bot,
                user_id=names[seat].user_id if seat in names else 0,
                is_me=seat == viewer_seat,
                is_turn=seat == turn and view.phase == "turn",
                slot=slots.get(seat, "bottom"),
                extra_s=round(p.extra_time),
                deal_status_label=_status_label(words, _DEAL_STATUS_WORDS, p.deal_status or "", ""),
                status_label=_status_label(words, _STATUS_WORDS, p.status, p.status),
            )
        )
    on_turn = next((p for p in players if p.is_turn), None)
    in_play = view.phase in ("turn", "meld")
    melds: tuple[FeltMeld, ...] = ()
    wrong_show_seats: tuple[int, ...] = ()
    notice = ""
    if felt.traits.table_melds:
        melds = tuple(
            FeltMeld(
                id=m.id,
                kind=m.kind,
                owner=m.owner,
                cards=tuple(faces(list(m.cards))),
                owner_name=name_of(m.owner),
                kind_label=classic_meld_label(m.kind),
            )
            for m in (deal.melds if deal is not None else ())
        )
    else:
        wrong = [p for p in players if p.deal_status == "wrong_show"]
        if wrong and in_play:
            wrong_show_seats = tuple(p.seat for p in wrong)
            notice = ngettext(
                "%(names)s made a wrong show and scores %(points)s points.",
                "%(names)s made a wrong show and score %(points)s points.",
                len(wrong),
            ) % {
                "names": names_and([p.name for p in wrong]),
                "points": rule(rules, "wrong_show", 80),
            }
    show = deal.show if deal is not None else None
    money_by_seat = seat_money(data)
    last_deal = json_object(raw.get("last_deal"))
    result = json_object(raw.get("result"))
    names_key = tuple((seat, s.name) for seat, s in sorted(names.items()))
    totals = tuple(running_totals(raw, variant).items())
    return replace(
        felt,
        tournament_table=bool(getattr(rules, "tournament_table", False)),
        deals_count=view.deals_count,
        prize_display=money(json_int(prize.get("net")), currency) if prize.get("net") else "",
        deal=deal,
        cut=card_face(cut) if cut else None,
        open_top=card_face(deal.open_top, cut) if deal is not None else None,
        moves_partial=data.moves_partial,
        last_move=last,
        last_move_fresh=last_move_fresh,
        discards=tuple(recent_discards(lines)),
        recent_lines=tuple(reversed(lines))[:6],
        players=tuple(players),
        slot_order=" ".join(ring_slots(len(players))),
        turn_total=f"{float(turn_total):g}",
        in_extra_time=in_extra,
        turn_seat=on_turn.seat if on_turn is not None else None,
        turn_name=on_turn.name if on_turn is not None else "",
        melds=melds,
        wrong_show_seats=wrong_show_seats,
        notice=notice,
        show=ShowView(
            name=name_of(json_int(show.get("seat")) or 0),
            groups=tuple(tuple(g) for g in groups_faces(show["groups"], cut)),
        )
        if show
        else None,
        scoreboard=kept_presented(
            (
                "scoreboard",
                json_dumps(raw.get("history")),
                tuple(p.seat for p in view.players),
                totals,
                variant,
                names_key,
                get_language(),
            ),
            lambda: _scoreboard(view, variant, felt.traits, name_of),
        )
        if raw.get("history")
        else None,
        last_deal=kept_presented(
            (
                "sheet",
                json_dumps(last_deal),
                totals,
                cut,
                names_key,
                viewer_seat,
                json_dumps(money_by_seat),
                currency,
                variant,
                rules,  # the game's frozen engine settings
                get_language(),
            ),
            lambda: ResultSheet(
                view=raw,
                rules=rules,
                variant=variant,
                currency=currency,
                name_of=name_of,
                my_seat=viewer_seat,
                money_by_seat=money_by_seat,
            ).present(last_deal, cut),
        )
        if last_deal
        else None,
        rejoin=_rejoin(json_object(raw.get("rejoin")), currency),
        split=_split(json_object(raw.get("split")), currency, name_of),
        result=present_result(
            result,
            data=data,
            view=raw,
            rules=rules,
            variant=variant,
            currency=currency,
            name_of=name_of,
            money_by_seat=money_by_seat,
        )
        if result
        else None,
    )


def _scoreboard(
    view: EngineView, variant: str, traits: EngineTraits, name_of: Callable[[int], str]
) -> Scoreboard | None:
    """Every deal (or classic hand) so far, with the running totals."""
    raw = view.raw
    history = json_objects(raw.get("history"))
    if not history:
        return None
    order = [p.seat for p in view.players]
    running = running_totals(raw, variant)
    return Scoreboard(
        number_label=gettext("Hand") if traits.deal_word == "Hand" else gettext("Deal"),
        names=tuple(name_of(seat) for seat in order),
        rows=tuple(
            ScoreRow(
                number=json_int(h.get("number")) or 0,
                winner=name_of(json_int(h.get("winner")) or 0)
                if h.get("winner") is not None
                else "",
                points=tuple(_score_of(h, seat) for seat in order),
            )
            for h in history
        ),
        totals=tuple(running.get(seat) for seat in order),
        totals_label=gettext("Chips") if variant == "deals" else gettext("Total"),
    )


def _score_of(row: JsonObject, seat: int) -> int | str:
    """A seat's points in a scoreboard row (blank: not in that deal)."""
    scores = json_objects(row.get("scores"))
    points = next((json_int(x.get("points")) for x in scores if x.get("seat") == seat), None)
    return "" if points is None else points


def _rejoin(rejoin: Mapping[str, Any] | None, currency: str) -> RejoinOffer | None:
    if not rejoin:
        return None
    return RejoinOffer(
        seats=tuple(rejoin.get("seats") or ()),
        total=rejoin.get("total"),
        amount=rejoin.get("amount"),
        deadline=rejoin.get("deadline"),
        amount_display=money(rejoin.get("amount"), currency),
    )


def _split(
    split: Mapping[str, Any] | None, currency: str, name_of: Callable[[int], str]
) -> SplitOffer | None:
    if not split:
        return None
    accepted = tuple(split.get("accepted") or ())
    return SplitOffer(
        seats=tuple(split.get("seats") or ()),
        amounts=tuple(
            SplitAmount(
                name=name_of(a["seat"]),
                display=money(a["amount"], currency),
                accepted=a["seat"] in accepted,
            )
            for a in split.get("amounts", [])
        ),
        accepted=accepted,
        deadline=split.get("deadline"),
    )


@lru_cache(maxsize=4096)
def _act_url(table_id: int, _prefix: str, _urlconf: object) -> str:
    """The table's action URL, worked out once per table (a push presents every seat a move)
    for the script prefix and URLconf in use."""
    return reverse("table_act", args=[table_id])


def act_url(table_id: int) -> str:
    return _act_url(table_id, get_script_prefix(), get_urlconf())


def present_seat(*, data: TableRead, now: float) -> SeatView:
    """One player's own fragment, from that seat's view (``table_view_data(user=...)``): the
    hand with its groups and the live count, the actions allowed now (the drop's cost with
    them), the player's own notice, the shoe commitment, and leaving or joining."""
    table = data.table
    view = data.view
    my_seat = data.my_seat
    traits = engine_of(data.variant).traits
    # The actions allowed, then leaving (``data-allowed`` lists them in the set's own order).
    allowed = frozenset((*data.allowed, "leave") if data.can_leave else data.allowed)
    seat = SeatView(
        table=table,
        act_url=act_url(table.pk),  # once, for every action form
        variant=data.variant,
        traits=traits,
        version=data.version,
        game_id=data.game_id if data.live else None,
        my_seat=my_seat,
        allowed=allowed,
        waiting=data.waiting,
        commitment=data.commitment,
        grace_s=f"{float(settings.DEADLINE_GRACE_S):g}",
        leave_confirm=(
            gettext("Leaving counts as a drop in this deal and refunds nothing. Leave?")
            if traits.drops
            else gettext(
                "Leaving takes you out of this hand and the rest of the ring game: the cards "
                "you hold count against you and nothing is refunded. Leave?"
            )
        ),
        private_host=bool(
            table.is_private
            and table.host_id == data.user_id
            and my_seat is not None
            and data.waiting
        ),
    )
    if view is None:
        return seat
    return _seat_of_game(seat, data, view)


def _seat_of_game(seat: SeatView, data: TableRead, view: EngineView) -> SeatView:
    """The parts of a seat shown while a game is on the table: the hand, the melds to lay off
    on, the player's notice and the drop's cost."""
    my_seat = data.my_seat
    rules = data.rules
    traits = seat.traits
    _names_by_seat, name_of = _names(data)
    deal = view.deal
    cut = deal.cut_joker if deal is not None else None
    turn = deal.turn if deal is not None else None
    my_turn = my_seat is not None and turn == my_seat and view.phase == "turn"
    hand = view.hand
    # While the deal is played a wrong show is told in a notice; after it, the sheet says why.
    in_play = view.phase in ("turn", "meld")
    groups: tuple[CardGroup, ...] | None = None
    melds: tuple[LayOffMeld, ...] = ()
    notice = ""
    if hand is not None and traits.table_melds:
        # The hand is melded onto the table, not arranged: one row, sorted.
        groups = (
            CardGroup(
                cards=tuple(faces(sort_codes(list(hand.cards)))),
                kind="hand",
                kind_label="",
                valid=False,
            ),
        )
        if "lay_off" in seat.allowed:
            melds = tuple(
                LayOffMeld(
                    id=m.id,
                    label=gettext("%(kind)s of %(owner)s")
                    % {"kind": classic_meld_label(m.kind), "owner": name_of(m.owner)},
                    cards=" ".join(m.cards),
                )
                for m in (deal.melds if deal is not None else ())
            )
    elif hand is not None and cut:
        meld = meld_settings_of(rules)
        shown = []
        picked = hand.picked
        for group in hand.groups:
            codes = list(group)
            kind = classify_group(codes, cut, settings=meld).value if len(codes) >= 3 else "invalid"
            cards = faces(codes, cut)
            for i, face in enumerate(cards):
                if picked and face.code == picked:
                    cards[i] = replace(face, picked=True)  # the card just picked, marked once
                    picked = None
            shown.append(
                CardGroup(
                    cards=tuple(cards),
                    kind=kind,
                    kind_label=str(KIND_LABELS.get(kind, kind.replace("_", " "))),
                    valid=kind != "invalid",
                )
            )
        groups = tuple(shown)
        if hand.status == "wrong_show" and in_play:
            declared, _finish = split_finish([list(g) for g in hand.groups], 14)
            notice = gettext(
                "Your show was wrong: %(reason)s You score %(points)s points for this deal and "
                "sit it out."
            ) % {
                "reason": wrong_show_reason(declared, cut, meld),
                "points": rule(rules, "wrong_show", 80),
            }
    return replace(
        seat,
        my_turn=my_turn,
        my_deadline=view.deadline if my_turn else None,
        hand=SeatHand(
            cards=hand.cards,
            picked=hand.picked,
            status=hand.status,
            auto_drop=hand.auto_drop,
            # What the hand would score: a loser's points are capped at full count (RULES.md
            # section 3) where the rules have one (the 13-card games); classic counts the cards
            # as they are.
            count=hand.count
            if hand.count is None or not hasattr(rules, "full_count")
            else min(hand.count, rule(rules, "full_count", 80)),
            groups=groups,
        )
        if hand is not None and groups is not None
        else None,
        melds=melds,
        notice=notice,
        drop=drop_info(view, rules, my_seat, data.variant, data.currency)
        if deal is not None and traits.drops
        else None,
    )


def seat_keys(data: TableRead) -> tuple[str, str]:
    """What each part of a seat's fragment reads, as two strings (the hand and the actions with
    the notices; the foot: the shoe commitment and leaving), from the seat's ``TableRead``
    before any presenting: equal keys render equal parts. Every input ``present_seat`` reads
    is named here (the version aside: the page fills it into the forms when they are sent)."""
    view = data.view
    deal = view.deal if view is not None else None
    my_seat = data.my_seat
    on_turn = my_seat is not None and deal is not None and deal.turn == my_seat
    allowed = sorted(data.allowed)
    main = (
        data.game_status,
        my_seat,
        data.can_leave,
        data.user_id,
        allowed,
        view.phase if view is not None else None,
        view.hand if view is not None else None,
        view.player(my_seat) if view is not None else None,
        deal.number if deal is not None else None,
        deal.cut_joker if deal is not None else None,
        on_turn,
        deal.turn_picked if deal is not None and on_turn else None,
        view.deadline if view is not None and on_turn else None,
        deal.melds if deal is not None and "lay_off" in allowed else None,
    )
    foot = (data.commitment, my_seat, data.can_leave, data.game_status)
    return repr(main), repr(foot)


def seat_hand_key(data: TableRead) -> str:
    """What the hand of a seat's fragment reads (``my-area`` above its actions): equal keys
    render an equal hand, so a change that moves only the actions (the turn coming to this
    player) sends the actions alone."""
    view = data.view
    deal = view.deal if view is not None else None
    allowed = set(data.allowed)
    return repr(
        (
            data.user_id,
            data.my_seat,
            data.game_status,
            view.hand if view is not None else None,
            deal.number if deal is not None else None,
            deal.cut_joker if deal is not None else None,
            "arrange" in allowed,
            "declare" in allowed,
        )
    )
