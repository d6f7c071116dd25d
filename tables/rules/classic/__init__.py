"""Classic 10-card rummy played as a ring game (RULES.md section 8).

A pure state machine with the same shape as the 13-card engine (``game``): immutable,
JSON-serialisable state; time (``now``) and randomness (the shoe and a reshuffle seed) are passed
in, so replaying the move log rebuilds the same state.

```python
state = classic_new(settings=ClassicSettings(...), seats=[1, 2, 3], now=t, toss=2)
result = classic_apply(state, new_start_deal(state.settings), now=t)   # Transition(state, events)
classic_view(result.state, viewer_seat_or_None)                        # what that viewer may see
ClassicState.from_json(result.state.to_json()) == result.state
```

Rules as implemented (``docs/classic-rummy.md`` has the full text):

* 2 packs of 52, no jokers; 10 cards each; one card face up starts the discard pile.
* A turn: pick (stock = ``PickClosed``, top of the discard pile = ``PickOpen``), then any number
  of ``LayDown`` (new melds) and ``LayOff`` (cards added to any meld on the table), then
  ``Discard``. Discarding the last card goes out and wins the hand (setting: melding or laying
  off the last card goes out too). Going out without having laid down or laid off in an earlier
  turn of the hand is going rummy: every loser adds the rummy bonus.
* When the stock runs out, the discard pile except its top card (the card discarded by the player
  who drew the last stock card) is shuffled into a new stock; the shuffle is a Fisher-Yates
  driven by SHA-256 of the hand's reshuffle seed (``StartDeal.seed``), so it is reproducible.
* A ring game is a fixed number of hands; losers add the points of the cards left in their hand;
  after the last hand the prize pool is paid out by :func:`ring_payout`.

Modules: ``settings`` (``ClassicSettings``), ``melds`` (points, sets and runs, ``TableMeld``,
laying off), ``payout`` (``ring_payout``), ``shoe`` (the shoe, seeded reshuffles,
``new_start_deal``), ``actions``, ``events``, ``state`` (``ClassicState``), ``turns`` (play within
a hand, timeouts), ``hand_end`` (scoring a hand, the end of the game), ``engine``
(``classic_new``, ``classic_apply``), ``view`` (``classic_view``, ``legal_actions``) and ``bot``.
This package re-exports the public names of all of them.
"""

from __future__ import annotations

from ..game.actions import (
    Discard,
    Leave,
    PickClosed,
    PickOpen,
    SetConnected,
    Timeout,
)
from ..game.events import (
    BreakStarted,
    CardDiscarded,
    CardPicked,
    ConnectionChanged,
    DealEnded,
    DeckReshuffled,
    Dropped,
    GameEnded,
    PlayerLeft,
    TurnMissed,
    TurnStarted,
)
from ..machine import (
    Transition,
)
from .actions import (
    ACTIONS,
    SHARED_ACTION_TYPES,
    Action,
    LayDown,
    LayOff,
    StartDeal,
    classic_action_from_json,
)
from .bot import (
    CLASSIC_STRENGTHS,
    bot_meld_action,
    classic_bot_decide,
)
from .engine import (
    classic_apply,
    classic_new,
)
from .events import (
    CardsLaidOff,
    DealStarted,
    Event,
    HandsShown,
    MeldsLaidDown,
    WentOut,
)
from .melds import (
    End,
    MeldType,
    TableMeld,
    card_points,
    classify_meld,
    hand_points,
    lay_off_result,
)
from .payout import (
    ring_payout,
)
from .settings import (
    BPS,
    MIN_MELD,
    ClassicSettings,
)
from .shoe import (
    classic_shoe,
    new_start_deal,
    seeded_shuffle,
    stacked_classic_shoe,
)
from .state import (
    ClassicPlayer,
    ClassicState,
    DeadlineKind,
    HandResult,
    Phase,
    deal_due,
)
from .turns import (
    DropReason,
)
from .view import (
    classic_view,
    legal_actions,
)

__all__ = [
    "ACTIONS",
    "BPS",
    "CLASSIC_STRENGTHS",
    "MIN_MELD",
    "SHARED_ACTION_TYPES",
    "Action",
    "BreakStarted",
    "CardDiscarded",
    "CardPicked",
    "CardsLaidOff",
    "ClassicPlayer",
    "ClassicSettings",
    "ClassicState",
    "ConnectionChanged",
    "DeadlineKind",
    "DealEnded",
    "DealStarted",
    "DeckReshuffled",
    "Discard",
    "DropReason",
    "Dropped",
    "End",
    "Event",
    "GameEnded",
    "HandResult",
    "HandsShown",
    "LayDown",
    "LayOff",
    "Leave",
    "MeldType",
    "MeldsLaidDown",
    "Phase",
    "PickClosed",
    "PickOpen",
    "PlayerLeft",
    "SetConnected",
    "StartDeal",
    "TableMeld",
    "Timeout",
    "Transition",
    "TurnMissed",
    "TurnStarted",
    "WentOut",
    "bot_meld_action",
    "card_points",
    "classic_action_from_json",
    "classic_apply",
    "classic_bot_decide",
    "classic_new",
    "classic_shoe",
    "classic_view",
    "classify_meld",
    "deal_due",
    "hand_points",
    "lay_off_result",
    "legal_actions",
    "new_start_deal",
    "ring_payout",
    "seeded_shuffle",
    "stacked_classic_shoe",
]
