"""The 13-card game state machine: pool 101/201, deals and points rummy (RULES.md sections 2-7).

Pure functions over immutable, JSON-serialisable state. Time (``now``, epoch seconds) and
randomness (the ``Shoe`` of each deal, the toss) are passed in, so every transition is
reproducible and replaying the move log rebuilds the same state.

    state = game_new(settings=..., seats=[1, 2, 3], now=t, toss=2)      # phase "awaiting_deal"
    state, events = game_apply(state, StartDeal(shoe), now=t)          # the server's shoe
    state, events = game_apply(state, PickClosed(seat=2), now=t)
    game_view(state, 2)                                               # what seat 2 may see

A game spans deals. Phases (``state.phase``): ``awaiting_deal`` (the server applies
``StartDeal``), ``turn`` (a player's turn; deadline kind "turn"), ``meld`` (after a valid show;
"meld"), ``rejoin`` (pool, after an elimination; "rejoin"), ``split`` (pool, a manual split
offer; "split"), ``break`` (between deals; "break"), ``ended``. ``Timeout`` applies only when
``now >= state.deadline``. Every illegal action raises ``InvalidMove`` and changes nothing.

Modules: ``actions`` (the actions, ``action_from_json``), ``events``, ``state`` (``GameState`` and
its parts), ``turns`` (play within a deal, timeouts), ``deal_end`` (show, meld window, scoring,
pool rejoin and split, deals/points settlement, game end), ``engine`` (``game_new``,
``game_apply``), ``view`` (``game_view``, ``legal_actions``). This package re-exports the public
names of all of them. See docs/game-engine.md for the whole contract.
"""

from __future__ import annotations

from ..machine import Transition
from .actions import (
    ACTION_TYPES,
    ACTIONS,
    Action,
    Arrange,
    Declare,
    Discard,
    Drop,
    Groups,
    Leave,
    PickClosed,
    PickOpen,
    Rejoin,
    SetAutoDrop,
    SetConnected,
    SplitAccept,
    SplitDecline,
    StartDeal,
    SubmitMeld,
    Timeout,
    action_from_json,
    parse_groups,
)
from .engine import (
    game_apply,
    game_new,
    game_refunds,
)
from .events import (
    EVENT_TYPES,
    EVENTS,
    Arranged,
    AutoDropSet,
    BreakStarted,
    CardDiscarded,
    CardPicked,
    ConnectionChanged,
    DealDue,
    DealEnded,
    DealStarted,
    DeckReshuffled,
    Declared,
    Dropped,
    Eliminated,
    Event,
    ExtraTimeStarted,
    GameEnded,
    MeldSubmitted,
    PlayerLeft,
    PointsSettled,
    Rejoined,
    RejoinOffered,
    SplitAccepted,
    SplitDeclined,
    SplitOffered,
    TieBreaker,
    TurnMissed,
    TurnStarted,
)
from .state import (
    Deal,
    DealResult,
    GameResult,
    GameState,
    Hand,
    Player,
    RejoinOffer,
    SeatResult,
    SplitOffer,
    deal_due,
    default_arrangement,
)
from .view import (
    game_view,
    game_views,
    legal_actions,
)

__all__ = [
    "ACTIONS",
    "ACTION_TYPES",
    "EVENTS",
    "EVENT_TYPES",
    "Action",
    "Arrange",
    "Arranged",
    "AutoDropSet",
    "BreakStarted",
    "CardDiscarded",
    "CardPicked",
    "ConnectionChanged",
    "Deal",
    "DealDue",
    "DealEnded",
    "DealResult",
    "DealStarted",
    "DeckReshuffled",
    "Declare",
    "Declared",
    "Discard",
    "Drop",
    "Dropped",
    "Eliminated",
    "Event",
    "ExtraTimeStarted",
    "GameEnded",
    "GameResult",
    "GameState",
    "Groups",
    "Hand",
    "Leave",
    "MeldSubmitted",
    "PickClosed",
    "PickOpen",
    "Player",
    "PlayerLeft",
    "PointsSettled",
    "Rejoin",
    "RejoinOffer",
    "RejoinOffered",
    "Rejoined",
    "SeatResult",
    "SetAutoDrop",
    "SetConnected",
    "SplitAccept",
    "SplitAccepted",
    "SplitDecline",
    "SplitDeclined",
    "SplitOffer",
    "SplitOffered",
    "StartDeal",
    "SubmitMeld",
    "TieBreaker",
    "Timeout",
    "Transition",
    "TurnMissed",
    "TurnStarted",
    "action_from_json",
    "deal_due",
    "default_arrangement",
    "game_apply",
    "game_new",
    "game_refunds",
    "game_view",
    "game_views",
    "legal_actions",
    "parse_groups",
]
