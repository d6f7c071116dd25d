"""The results a player can check: the result sheet of the last deal (13-card) or hand
(classic), the game-over block (every prize, who won it, each player's money), what a drop
costs now, and why a show was wrong. Presentation only: the verdicts and amounts are the
engine's and the ledger's; this module puts them in words."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from tables.engines import engine_of
from tables.presenters.cards import (
    card_face,
    faces,
    money,
    signed_money,
    sort_codes,
)
from tables.presenters.moves import fault_words
from tables.presenters.page import (
    CardGroup,
    DropCost,
    GameResultView,
    PrizeLine,
    ResultSheetView,
    SettlementRow,
    SheetMeld,
    SheetRow,
)
from tables.presenters.words import Words
from tables.readmodel import TableRead
from tables.rules.engine_view import EngineView
from tables.rules.game.turns import show_fault
from tables.rules.melds import classify_group

__all__ = [
    "KIND_LABELS",
    "ResultSheet",
    "classic_meld_label",
    "drop_info",
    "meld_settings_of",
    "names_and",
    "present_result",
    "rule",
    "running_totals",
    "seat_money",
    "split_finish",
    "wrong_show_reason",
]

KIND_LABELS: dict[str, Any] = {
    "pure_sequence": gettext_lazy("pure sequence"),
    "impure_sequence": gettext_lazy("sequence"),
    "set": gettext_lazy("set"),
    "invalid": "",
}
"""A group's kind in the hand being played (nothing under a group that is not a meld yet)."""
_SHEET_KIND_LABELS = {**KIND_LABELS, "invalid": gettext_lazy("invalid")}
_ORDINALS = {1: gettext_lazy("1st"), 2: gettext_lazy("2nd"), 3: gettext_lazy("3rd")}
_CLASSIC_MELD_LABELS = {"set": gettext_lazy("set"), "run": gettext_lazy("run")}


def classic_meld_label(kind: Any) -> str:
    """A classic meld's kind (``set``, ``run``) in the viewer's language."""
    return str(_CLASSIC_MELD_LABELS.get(str(kind or ""), kind or ""))


def names_and(names: list[str]) -> str:
    """``Asha``, ``Asha and Bilal``, ``Asha and Bilal and Chen`` in the viewer's language."""
    text = names[0] if names else ""
    for name in names[1:]:
        text = gettext("%(first)s and %(second)s") % {"first": text, "second": name}
    return text


def wrong_show_reason(groups: Any, cut_joker: str, meld_settings: Any = None) -> str:
    """Why a show is wrong, in words (empty for a valid show): the card count, no pure
    sequence, only one sequence, or the group that is not a valid set or sequence. The verdict
    is the engine's (``show_fault``, the code a ``declared`` event carries); the words
    (``moves.fault_words``) name what the player has to fix."""
    verdict = show_fault([g for g in groups or [] if g], cut_joker, settings=meld_settings)
    if verdict.valid:
        return ""
    return fault_words(verdict.code, verdict.held, [c.code for c in verdict.group])


def rule(rules: Any, name: str, default: int = 0) -> int:
    value = getattr(rules, name, None)
    return int(value) if isinstance(value, int) else default


def meld_settings_of(rules: Any) -> Any:
    return getattr(rules, "meld", None)


def split_finish(groups: list[list[str]], size: int) -> tuple[list[list[str]], str | None]:
    """A wrong show keeps the declared groups followed by the finish card alone: split them."""
    if groups and len(groups[-1]) == 1 and sum(len(g) for g in groups) == size:
        return [list(g) for g in groups[:-1]], groups[-1][0]
    return [list(g) for g in groups], None


def running_totals(view: Mapping[str, Any], variant: str) -> dict[int, int | None]:
    """The running total per seat: chips in deals, the points of every deal in points (its
    players' ``total`` stays 0: money settles it), the pool or penalty total otherwise."""
    players = view.get("players", [])
    if variant == "deals":
        return {p["seat"]: p.get("chips") for p in players}
    if variant == "points":
        totals: dict[int, int | None] = {p["seat"]: 0 for p in players}
        for h in view.get("history") or []:
            for x in h["scores"]:
                totals[x["seat"]] = (totals.get(x["seat"]) or 0) + int(x["points"])
        return totals
    return {p["seat"]: p.get("total") for p in players}


def seat_money(data: TableRead) -> dict[int, dict[str, int]] | None:
    """Once the pot is paid out: what each seat paid in (entries, rejoins, buy-in held), got
    back and won or lost (``net``), in minor units."""
    settlement = data.settlement
    if settlement is None:
        return None
    out: dict[int, dict[str, int]] = {}
    for s in data.seats:
        paid = int(s.entry_paid or 0)
        got = int(settlement.payouts.get(s.seat_no, 0))
        out[s.seat_no] = {"paid": paid, "received": got, "net": got - paid}
    return out


def drop_info(
    view: EngineView, rules: Any, my_seat: int | None, variant: str, currency: str
) -> DropCost | None:
    """What dropping costs the viewer now, for the Drop and Auto drop buttons: a first drop on
    the player's first turn, a middle drop later (auto drop: at the player's next turn)."""
    me = view.player(my_seat)
    deal = view.deal
    if me is None or rules is None:
        return None
    first_turn = me.turns == 0
    on_turn_picked = deal is not None and deal.turn == my_seat and deal.turn_picked
    first_drop, middle_drop = rule(rules, "first_drop"), rule(rules, "middle_drop")
    words = Words()  # asked on every push of a seat's parts

    def cost(first: bool) -> tuple[int, str, str, str]:
        """The points, the kind of drop, its words and the confirmation asked."""
        points = first_drop if first else middle_drop
        kind = words.gettext("Drop now") if first else words.gettext("Middle drop")
        after = ""
        if variant in ("pool101", "pool201"):
            limit = rule(rules, "pool_limit", 101)
            total = (me.total or 0) + points
            after = (
                words.gettext("Your total becomes %(total)s: at %(limit)s you are out of the game.")
                if total >= limit
                else words.gettext("Your total becomes %(total)s of %(limit)s.")
            ) % {"total": total, "limit": limit}
        elif variant == "points":
            pv = rule(rules, "point_value")
            after = words.gettext("You pay %(amount)s (%(value)s a point).") % {
                "amount": money(points * pv, currency),
                "value": money(pv, currency),
            }
        elif variant == "deals":
            after = words.gettext("The deal's winner takes %(points)s chips from you.") % {
                "points": points
            }
        text = words.gettext("%(kind)s: %(points)s points.") % {"kind": kind, "points": points}
        confirm = [text, after, words.gettext("You sit out the rest of this deal. Drop?")]
        return points, kind, text, " ".join(part for part in confirm if part)

    points, kind, text, confirm = cost(first_turn)
    auto_points = cost(first_turn and not on_turn_picked)[0]
    return DropCost(
        points=points,
        kind=kind,
        text=text,
        confirm=confirm,
        label=words.gettext("Drop (%(points)s points)") % {"points": points},
        auto_label=words.gettext("Auto drop (%(points)s points)") % {"points": auto_points},
    )


_OUTCOME_WORDS = {
    "counted": gettext_lazy("counted"),
    "deal_show": gettext_lazy("deal show: had no turn yet"),
    "wrong_show": gettext_lazy("wrong show"),
    "timed_out": gettext_lazy("out after missed turns"),
    "left": gettext_lazy("left the table"),
    "exhausted": gettext_lazy("no winner"),
}


class ResultSheet:
    """The result of the last deal (13-card) or hand (classic), one row per player: the final
    groups with their kinds, the finish card, the points, the running total and, once the game
    has paid out, the money won or lost."""

    def __init__(
        self,
        *,
        view: Mapping[str, Any],
        rules: Any,
        variant: str,
        currency: str,
        name_of: Callable[[int], str],
        my_seat: int | None,
        money_by_seat: dict[int, dict[str, int]] | None,
    ) -> None:
        self.view = view
        self.rules = rules
        self.variant = variant
        self.currency = currency
        self.name_of = name_of
        self.my_seat = my_seat
        self.money_by_seat = money_by_seat
        self.totals = running_totals(view, variant)
        # With melds laid on the table during the hand (classic), a row is the cards left in
        # hand, a hand ends by going out (or rummy) and the totals are penalties.
        self.traits = engine_of(variant).traits

    def present(self, last: Mapping[str, Any], cut: str | None) -> ResultSheetView:
        rows = tuple(
            self._classic_row(r, last)
            if self.traits.table_melds
            else self._row(r, last, last.get("cut_joker") or cut)
            for r in last.get("results", [])
        )
        number = {"number": last.get("number")}
        title = (
            gettext("Hand %(number)s result")
            if self.traits.deal_word == "Hand"
            else gettext("Deal %(number)s result")
        ) % number
        if last.get("tiebreak"):
            title = gettext("Tie-breaker deal %(number)s result") % number
        rummy_note = ""
        melds: tuple[SheetMeld, ...] = ()
        if self.traits.table_melds:
            bonus = rule(self.rules, "rummy_bonus", 25)
            if last.get("reason") == "rummy":
                rummy_note = gettext("going rummy +%(bonus)s") % {"bonus": bonus}
            melds = tuple(
                SheetMeld(
                    cards=tuple(faces(m["cards"])),
                    kind=classic_meld_label(m.get("kind", "")),
                    owner=self.name_of(m["owner"]),
                )
                for m in last.get("melds", [])
            )
        return ResultSheetView(
            number=last.get("number"),
            title=title,
            headline=self._headline(last),
            rows=rows,
            total_label=gettext("Penalty total")
            if self.traits.table_melds
            else gettext("Chips")
            if self.variant == "deals"
            else gettext("Total"),
            show_money=self.money_by_seat is not None,
            money_label=(
                gettext("Won / lost this deal")
                if self.variant == "points"
                else gettext("Won / lost")
            ),
            rummy_note=rummy_note,
            melds=melds,
        )

    def _headline(self, last: Mapping[str, Any]) -> str:
        winner = last.get("winner")
        reason = last.get("reason")
        if winner is None:
            if reason != "exhausted":
                return gettext("No winner: no player is left in it.")
            if self.traits.table_melds:
                return gettext("No winner: the stock ran out; nobody adds points.")
            return gettext("No winner: the closed deck ran out; nobody adds points.")
        name = {"name": self.name_of(winner)}
        if self.traits.table_melds:
            if reason == "rummy":
                bonus = rule(self.rules, "rummy_bonus", 25)
                return gettext(
                    "%(name)s went out going rummy (in one turn, without having melded "
                    "before): every other player adds %(bonus)s."
                ) % {**name, "bonus": bonus}
            if reason == "last_player":
                return gettext("%(name)s wins the hand: every other player is out of it.") % name
            return gettext("%(name)s went out and wins the hand.") % name
        if reason == "show":
            return gettext("%(name)s made a valid show and wins the deal.") % name
        wrong = [
            self.name_of(r["seat"]) for r in last.get("results", []) if r["outcome"] == "wrong_show"
        ]
        if wrong:
            return gettext(
                "%(wrong)s made a wrong show: %(name)s, the last player in, wins the deal."
            ) % {**name, "wrong": names_and(wrong)}
        return gettext("%(name)s wins the deal: every other player is out of it.") % name

    def _money(self, seat: int) -> tuple[str, str]:
        """The money won or lost in words, and its class (``won``, ``lost``, ``even``)."""
        if self.money_by_seat is None or seat not in self.money_by_seat:
            return "", ""
        net = self.money_by_seat[seat]["net"]
        return signed_money(net, self.currency), "won" if net > 0 else "lost" if net < 0 else "even"

    def _outcome(self, r: Mapping[str, Any], last: Mapping[str, Any]) -> str:
        outcome = str(r.get("outcome", ""))
        points = int(r.get("points") or 0)
        if outcome == "won":
            if last.get("reason") == "show":
                return gettext("valid show")
            return gettext("last player in")
        if outcome == "dropped":
            first, middle = rule(self.rules, "first_drop"), rule(self.rules, "middle_drop")
            if points == first and first != middle:
                return gettext("first drop")
            if points == middle:
                return gettext("middle drop")
            return gettext("dropped")
        return str(_OUTCOME_WORDS.get(outcome, outcome.replace("_", " ")))

    def _row(self, r: Mapping[str, Any], last: Mapping[str, Any], cut: str | None) -> SheetRow:
        seat = r["seat"]
        meld = meld_settings_of(self.rules)
        groups = [list(g) for g in r.get("groups") or []]
        finish = None
        reason = ""
        if r.get("outcome") == "wrong_show":
            groups, finish = split_finish(groups, 14)
            if cut:
                reason = wrong_show_reason(groups, cut, meld)
        elif seat == last.get("winner") and last.get("reason") == "show":
            finish = last.get("finish_card")
        # The last player in (everyone else dropped or showed wrong) did not declare: their
        # hand is shown as it was, without judging its groups.
        unjudged = seat == last.get("winner") and last.get("reason") != "show"
        shown = []
        for group in groups:
            if unjudged:
                shown.append(CardGroup(cards=tuple(faces(group, cut)), kind="hand", kind_label=""))
                continue
            kind = classify_group(group, cut, settings=meld).value if cut else "invalid"
            shown.append(
                CardGroup(
                    cards=tuple(faces(group, cut)),
                    kind=kind,
                    kind_label=str(_SHEET_KIND_LABELS.get(kind, kind.replace("_", " "))),
                )
            )
        money_display, money_class = self._money(seat)
        return SheetRow(
            seat=seat,
            name=self.name_of(seat),
            is_me=seat == self.my_seat,
            winner=seat == last.get("winner"),
            outcome=self._outcome(r, last),
            reason=reason,
            points=r.get("points"),
            points_note="",
            groups=tuple(shown),
            finish=card_face(finish, cut) if finish else None,
            total=self.totals.get(seat),
            money_display=money_display,
            money_class=money_class,
        )

    def _classic_row(self, r: Mapping[str, Any], last: Mapping[str, Any]) -> SheetRow:
        seat = r["seat"]
        winner = seat == last.get("winner")
        rummy = last.get("reason") == "rummy"
        bonus = rule(self.rules, "rummy_bonus", 25)
        points = int(r.get("points") or 0)
        cards = r.get("cards") or []
        note = ""
        if rummy and not winner and last.get("winner") is not None:
            note = gettext("%(hand)s in hand + %(bonus)s going rummy") % {
                "hand": points - bonus,
                "bonus": bonus,
            }
        if winner:
            outcome = gettext("went out going rummy") if rummy else gettext("went out")
            if last.get("reason") == "last_player":
                outcome = gettext("last player in")
        else:
            outcome = gettext("cards left in hand") if cards else gettext("no cards left")
        money_display, money_class = self._money(seat)
        return SheetRow(
            seat=seat,
            name=self.name_of(seat),
            is_me=seat == self.my_seat,
            winner=winner,
            outcome=outcome,
            reason="",
            points=points,
            points_note=note,
            groups=(
                (
                    CardGroup(
                        cards=tuple(faces(sort_codes(list(cards)))), kind="hand", kind_label=""
                    ),
                )
                if cards
                else ()
            ),
            finish=None,
            total=self.totals.get(seat),
            money_display=money_display,
            money_class=money_class,
        )


def present_result(
    result: Mapping[str, Any],
    *,
    data: TableRead,
    view: Mapping[str, Any],
    rules: Any,
    variant: str,
    currency: str,
    name_of: Callable[[int], str],
    money_by_seat: dict[int, dict[str, int]] | None,
) -> GameResultView:
    """Game over: every prize and who won it, and each player's money (paid in, paid out,
    won or lost)."""
    reason = result.get("reason")
    payouts = {p["seat"]: int(p["amount"]) for p in result.get("payouts", [])}
    prize_net = int((view.get("prize") or {}).get("net") or 0)
    fee = result.get("fee")
    if money_by_seat is not None and data.settlement is not None:
        fee = data.settlement.fee
    prizes: list[PrizeLine] = []
    headline = ""
    order = [p["seat"] for p in view.get("players", [])]
    if variant == "points":
        pv = rule(rules, "point_value")
        winners = list(result.get("winners") or [])
        if reason == "no_deal":
            headline = gettext("The game ended before its deal: every buy-in is returned.")
        elif winners:
            headline = gettext(
                "%(names)s won the deal. Each loser pays %(value)s a point; the platform fee "
                "comes out of the winner's gain."
            ) % {"names": ", ".join(name_of(w) for w in winners), "value": money(pv, currency)}
        for w in winners:
            if money_by_seat and w in money_by_seat:
                prizes.append(
                    PrizeLine(
                        name=name_of(w),
                        verb="wins",
                        display=money(money_by_seat[w]["net"], currency),
                        note=gettext("after the platform fee"),
                    )
                )
    elif reason == "ring":  # classic's ring game: paid by places
        placed = [p for p in view.get("players", []) if p.get("status") != "left"]
        place = {p["seat"]: 1 + sum(1 for q in placed if q["total"] < p["total"]) for p in placed}
        headline = gettext(
            "Ring game over: the prize pool of %(amount)s is paid by places (lowest penalty "
            "total first)."
        ) % {"amount": money(prize_net, currency)}
        for seat in sorted(payouts, key=lambda s: (place.get(s, 99), s)):
            amount = payouts[seat]
            if amount <= 0:
                continue
            n = place.get(seat, 0)
            net = money_by_seat[seat]["net"] if money_by_seat and seat in money_by_seat else None
            prizes.append(
                PrizeLine(
                    place=str(_ORDINALS.get(n) or gettext("%(n)sth") % {"n": n}),
                    name=name_of(seat),
                    # A runner-up's share may be less than the entry: "gets", and the net says
                    # whether the game won or lost the player money.
                    verb="wins" if n == 1 else "gets",  # a key: the template words it
                    display=money(amount, currency),
                    note=(
                        gettext("%(amount)s overall") % {"amount": signed_money(net, currency)}
                        if net is not None
                        else ""
                    ),
                )
            )
    else:
        total = money(prize_net, currency)
        if reason == "manual_split":
            headline = gettext("The prize of %(amount)s was split by agreement.") % {
                "amount": total
            }
        elif reason == "auto_split":
            headline = gettext("The prize of %(amount)s was split equally.") % {"amount": total}
        else:
            winners = [name_of(s) for s, a in payouts.items() if a > 0]
            headline = (
                gettext("%(names)s wins the prize of %(amount)s.")
                % {"names": names_and(winners), "amount": total}
                if winners
                else ""
            )
        split = reason in ("manual_split", "auto_split")
        for seat, amount in sorted(payouts.items(), key=lambda x: -x[1]):
            if amount > 0:
                prizes.append(
                    PrizeLine(
                        name=name_of(seat),
                        verb="wins",
                        display=money(amount, currency),
                        note=(
                            gettext("share of the split prize") if split else gettext("the prize")
                        ),
                    )
                )
    rows: list[SettlementRow] = []
    if money_by_seat is not None:
        points = {}
        last = view.get("last_deal") or {}
        if variant == "points":
            points = {r["seat"]: r.get("points") for r in last.get("results", [])}
        for seat in order:
            if seat not in money_by_seat:
                continue
            m = money_by_seat[seat]
            rows.append(
                SettlementRow(
                    name=name_of(seat),
                    points=points.get(seat),
                    paid=money(m["paid"], currency),
                    received=money(m["received"], currency),
                    net=signed_money(m["net"], currency),
                    net_class="won" if m["net"] > 0 else "lost" if m["net"] < 0 else "even",
                )
            )
    return GameResultView(
        reason=reason,
        headline=headline,
        prizes=tuple(prizes),
        rows=tuple(rows),
        show_points=variant == "points",
        paid_label=gettext("Buy-in held") if variant == "points" else gettext("Paid in"),
        received_label=gettext("Returned") if variant == "points" else gettext("Paid out"),
        fee_display=money(fee, currency) if fee is not None else "",
    )
