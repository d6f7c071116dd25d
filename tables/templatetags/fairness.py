"""``{% shoe_commitment game %}``: the shoe commitment of the game's newest deal for one of its
players (docs/fairness.md): the hash from the first card on, the shoe and the secret once the
deal has ended. Renders nothing for anyone else."""

from __future__ import annotations

from typing import Any

from django import template

from tables.support_selectors import deal_commitment_for_viewer

register = template.Library()


@register.inclusion_tag("tables/_commitment.html", takes_context=True)
def shoe_commitment(context: template.Context, game: Any) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    return {"commitment": deal_commitment_for_viewer(game=game, user=user)}
