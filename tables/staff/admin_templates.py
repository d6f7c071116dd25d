"""The admin of table templates, in staff words: money in rupees (₹25.00) or chips, the
platform fee in percent, every blank rule showing the rule book's default it stands for, each
refusal next to its field (``tables.template_rules``), and "new template from preset".

Registered by ``tables.staff.admin`` (which imports this module).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db import models
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils.safestring import SafeString

from ledger.currencies import money_games_on
from tables import services
from tables.engines import MELD_FIELDS, SETTINGS_FIELDS
from tables.models import TableTemplate, Variant
from tables.presenters import money
from tables.staff.money_form import TypedMoneyForm
from tables.staff.presets import PRESETS, preset_by_key
from tables.template_rules import rule_defaults
from tables.web.inputs import (
    AsciiFloatField,
    AsciiIntegerField,
    LimitedJSONField,
    bps_to_percent,
)

# Rule fields a blank of which means the rule book's default.
RULE_FIELDS: tuple[str, ...] = tuple(
    f.name
    for f in TableTemplate._meta.get_fields()
    if getattr(f, "null", False)
    and f.name in (*SETTINGS_FIELDS, *MELD_FIELDS, "points_buy_in_multiple")
)
MONEY_FIELDS = ("entry_fee", "point_value")


def _words(value: Any) -> str:
    if value is None:  # a rule the rule book leaves open (classic: no largest set)
        return "no limit"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, float) and value.is_integer():
        return f"{int(value)}"
    for choices in (
        TableTemplate._meta.get_field("deal_show_rule").choices,
        TableTemplate._meta.get_field("split_weighting").choices,
        TableTemplate._meta.get_field("disconnect_policy").choices,
    ):
        for key, label in choices or ():
            if key == value:
                return str(label).lower()
    return str(value)


def default_hint(name: str) -> str:
    """ "Blank: the rule book's default: 101 pool 20 · 201 pool 25 · ..." for field ``name``."""
    parts = []
    for variant, label in Variant.choices:
        defaults = rule_defaults(variant)
        if name in defaults:
            parts.append(f"{label} {_words(defaults[name])}")
    return "Blank: the rule book's default (" + " · ".join(parts) + ")." if parts else ""


class TemplateForm(TypedMoneyForm):
    """Money typed in rupees or chips, the fee in percent; blanks show their defaults."""

    money_fields = MONEY_FIELDS
    fee_field = "platform_fee_bps"

    entry_fee = forms.CharField(
        label="Entry fee",
        required=False,
        help_text="Pool, deals and classic: rupees for cash (25.00), chips for practice (100).",
    )
    point_value = forms.CharField(
        label="Point value",
        required=False,
        help_text="Points rummy: what one point is worth, rupees (0.50) or chips (1). A seat "
        "holds the buy-in multiple x this.",
    )
    platform_fee_bps = forms.CharField(
        label="Platform fee (%)",
        help_text="Percent of every paid entry, 0 to 50 (10 = 10 %).",
    )

    class Meta:
        model = TableTemplate
        fields = [
            f.name for f in TableTemplate._meta.concrete_fields if f.editable and not f.primary_key
        ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        instance = self.instance
        variant = (
            (self.data.get("variant") if self.is_bound else None)
            or self.initial.get("variant")
            or instance.variant
        )
        defaults = rule_defaults(str(variant))
        variant_label = dict(Variant.choices).get(str(variant), str(variant))
        for name in RULE_FIELDS:
            field = self.fields.get(name)
            if field is None:
                continue
            field.help_text = default_hint(name)
            shown = (
                f"rule book: {_words(defaults[name])}"
                if name in defaults
                else f"not used in {variant_label}"
            )
            if isinstance(field, forms.NullBooleanField):
                field.widget = forms.Select(
                    choices=[("", f"({shown})"), ("true", "Yes"), ("false", "No")]
                )
            elif isinstance(field, forms.ChoiceField):
                # Read back, the choices are a list (django-stubs type the setter's inputs).
                field.choices = [("", f"({shown})"), *list(field.choices)[1:]]  # type: ignore[arg-type]
            else:
                field.widget.attrs["placeholder"] = shown


@admin.register(TableTemplate)
class TableTemplateAdmin(admin.ModelAdmin[TableTemplate]):
    form = TemplateForm
    change_list_template = "admin/tables/tabletemplate/change_list.html"
    # Counts only in the digits 0-9; the rule options' JSON with a size and depth limit.
    formfield_overrides = {
        models.IntegerField: {"form_class": AsciiIntegerField},
        models.BigIntegerField: {"form_class": AsciiIntegerField},
        models.FloatField: {"form_class": AsciiFloatField},
        models.JSONField: {"form_class": LimitedJSONField},
    }
    list_display = (
        "name",
        "variant",
        "seats_min",
        "seats_max",
        "currency",
        "stake",
        "fee",
        "practice",
        "is_active",
    )
    list_filter = ("variant", "currency", "practice", "is_active")
    search_fields = ("name",)
    readonly_fields = ("effective_settings", "created_at", "updated_at")
    actions = ("make_table",)
    fieldsets = (
        (
            None,
            {"fields": ("name", "name_hi", "variant", "is_active", ("seats_min", "seats_max"))},
        ),
        (
            "Money",
            {
                "fields": (
                    "currency",
                    "entry_fee",
                    "point_value",
                    "points_buy_in_multiple",
                    "platform_fee_bps",
                )
            },
        ),
        (
            "Scores",
            {
                "fields": (
                    ("first_drop", "middle_drop"),
                    ("full_count", "wrong_show"),
                    "drops_with_two_players",
                    "missed_turns_limit",
                    "deal_show_rule",
                    ("deal_show_min", "deal_show_max", "deal_show_flat"),
                )
            },
        ),
        (
            "Pool rummy: limit, rejoins, splits",
            {
                "fields": (
                    "pool_limit",
                    ("rejoin_max_total", "rejoin_window_s", "rejoins_per_player"),
                    ("auto_split_min_total", "split_weighting", "split_window_s"),
                )
            },
        ),
        ("Deals and classic", {"fields": (("deals_count", "chips_per_deal"), "hands_count")}),
        (
            "Timers (seconds)",
            {
                "fields": (
                    ("turn_s", "extra_time_s"),
                    ("meld_window_s", "break_s"),
                    "start_countdown_s",
                )
            },
        ),
        (
            "Rule options",
            {
                "fields": (
                    ("packs", "printed_jokers_per_pack"),
                    ("largest_set", "allow_joker_only_groups"),
                    "first_open_joker_pickable",
                    "disconnect_policy",
                    "max_reshuffles",
                    "extra_settings",
                )
            },
        ),
        ("Tables in the lobby (Play now)", {"fields": (("min_open_tables", "max_tables"),)}),
        (
            "Practice",
            {"fields": ("practice", "human_wait_s", ("bot_count", "bot_strength", "bot_delay_s"))},
        ),
        (
            "What games will use",
            {
                "classes": ("collapse",),
                "fields": ("effective_settings", "created_at", "updated_at"),
            },
        ),
    )

    @admin.display(description="entry / point value")
    def stake(self, obj: TableTemplate) -> str:
        if obj.variant == "points":
            return f"{money(obj.point_value, obj.currency)} / point"
        return money(obj.entry_fee, obj.currency)

    @admin.display(description="platform fee")
    def fee(self, obj: TableTemplate) -> str:
        return f"{bps_to_percent(obj.platform_fee_bps)} %"

    @admin.display(description="settings a new game gets")
    def effective_settings(self, obj: TableTemplate) -> SafeString | str:
        if obj.pk is None:
            return "-"
        try:
            settings = services.template_settings(obj).to_json()
        except ValueError as exc:
            return render_to_string("admin/tables/fields/settings.html", {"error": exc})
        rows = [(name, _words(value)) for name, value in sorted(settings.items())]
        return render_to_string("admin/tables/fields/settings.html", {"rows": rows})

    def formfield_for_choice_field(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "currency" and not money_games_on():
            # Chips-only mode (MONEY_GAMES off): templates are practice only.
            kwargs["choices"] = [c for c in db_field.choices if c[0] != "cash"]
        return super().formfield_for_choice_field(db_field, request, **kwargs)

    def get_urls(self) -> list[Any]:
        extra = [
            path(
                "presets/",
                self.admin_site.admin_view(self.presets_view),
                name="tables_tabletemplate_presets",
            )
        ]
        return extra + super().get_urls()

    def presets_view(self, request: HttpRequest) -> HttpResponse:
        """The presets: each opens the add form filled with the rule book's numbers."""
        add_url = reverse("admin:tables_tabletemplate_add")
        context = {
            **self.admin_site.each_context(request),
            "title": "New template from preset",
            "presets": [(p, f"{add_url}?preset={p.key}") for p in PRESETS],
            "opts": self.model._meta,
        }
        return render(request, "admin/tables/tabletemplate/presets.html", context)

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        initial: dict[str, Any] = dict(super().get_changeform_initial_data(request))
        preset = preset_by_key(request.GET.get("preset", ""))
        if preset is not None:
            initial.update(preset.fields)
            if TableTemplate.objects.filter(name=initial["name"]).exists():
                initial["name"] = f"{initial['name']} (new)"
        return initial

    def save_model(self, request: HttpRequest, obj: TableTemplate, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        try:
            services.template_tables_ensure(template=obj)
        except ValueError as exc:
            self.message_user(request, f"No table opened: {exc}", messages.WARNING)

    @admin.action(description="Create a table from each selected template")
    def make_table(self, request: HttpRequest, queryset: QuerySet[TableTemplate]) -> None:
        for template in queryset:
            try:
                table = services.table_create(template=template)
            except ValueError as exc:
                self.message_user(request, f"{template}: {exc}", messages.ERROR)
            else:
                self.message_user(request, f"Created {table}.", messages.SUCCESS)
