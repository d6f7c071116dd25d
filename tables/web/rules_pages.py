"""The rules pages (``/rules/<variant>/``), one per variant in the player's language, written
from docs/RULES.md. Opened from a table (``?table=<id>``) they show that table's own numbers:
its running game's frozen settings, else its template's; otherwise the rule book's defaults."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from ledger.currencies import format_amount
from tables.engines import engine_of, game_settings, template_settings
from tables.models import Game, Table
from tables.presenters import variant_label
from tables.rules.settings import GameSettings
from tables.rules.variants import EngineSettings

VARIANTS = ("pool101", "pool201", "deals", "points", "classic")


def _table_settings(raw: str | None, variant: str) -> tuple[Table | None, EngineSettings | None]:
    if not raw or not raw.isdigit() or len(raw) > 12:
        return None, None
    table = Table.objects.select_related("template").filter(pk=int(raw)).first()
    if table is None or table.template.variant != variant:
        return None, None
    game = Game.objects.filter(table=table).order_by("-pk").first()
    if game is not None and game.settings:
        return table, game_settings(game)
    return table, template_settings(table.template)


@require_GET
def rules_page(request: HttpRequest, variant: str) -> HttpResponse:
    if variant not in VARIANTS:
        raise Http404(_("No such game."))
    table, rules = _table_settings(request.GET.get("table"), variant)
    if rules is None:
        rules = engine_of(variant).settings_for(variant)
    currency = table.template.currency if table is not None else "cash"
    context: dict[str, object] = {
        "variant": variant,
        "variant_label": variant_label(variant),
        "variants": [(v, variant_label(v)) for v in VARIANTS],
        "table": table,
        "s": rules,
        "fee_percent": f"{rules.platform_fee_bps / 100:g}",
        "entry_display": format_amount(rules.entry_fee, currency) if rules.entry_fee else "",
        "point_display": (
            format_amount(getattr(rules, "point_value", 0), currency)
            if getattr(rules, "point_value", 0)
            else ""
        ),
        "turn_s": f"{rules.turn_s:g}",
        "extra_s": f"{rules.extra_time_s:g}",
    }
    if isinstance(rules, GameSettings):  # the 13-card games' own timers and scores
        context.update(
            meld_s=f"{rules.meld_window_s:g}",
            rejoin_s=f"{rules.rejoin_window_s:g}",
            split_s=f"{rules.split_window_s:g}",
            chips=rules.deals_count * rules.chips_per_deal,
            buy_in=rules.points_buy_in_multiple,
        )
    return render(request, "rules/rules.html", context)
