"""The deal export: a finished deal's whole history as one JSON document
(docs/deal-export.md), which ``manage.py verify_deal`` checks by replaying it."""

from __future__ import annotations

from typing import Any

from tables.models import Deal
from tables.selectors import deal_moves, game_ledger
from tables.support.replay import deal_is_reviewable, deal_players, deal_state_after

__all__ = ["deal_export"]


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
