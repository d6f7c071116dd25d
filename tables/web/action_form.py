"""A player action's fields, read declaratively: ``ActionForm`` declares every field an action
may carry (``tables.engines.PLAYER_ACTIONS`` says which action takes which) with its type and
limits, and words each refusal for the player. The form POST and the socket's ``move`` read
the same form (``tables.web.acting``)."""

from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from tables.web.inputs import AsciiIntegerField

# No field of an action form is longer than this (the longest, a show's groups, is ~100).
MAX_FIELD_CHARS = 2000
# A card code: "QH", "10S", "JK1"...
MAX_CARD_CHARS = 8

CardGroups = list[list[str]]


class SharedFields(dict[str, forms.Field]):
    """A form class's fields, shared by its forms: Django deep-copies ``base_fields`` for every
    form so that one form may change its own (choices, widgets, ``required``); a form that never
    does reads with the class's fields as they are, instead of 13 fields copied per move."""

    def __deepcopy__(self, memo: dict[int, object]) -> dict[str, forms.Field]:
        return dict(self)


class CardGroupsField(forms.Field):
    """Card groups as the page sends them: a JSON list of lists of card codes (empty groups
    dropped). Deeper nesting, other values, a text too long: refused in words."""

    default_error_messages = {
        "invalid": _("The card groups could not be read."),
        "too_deep": _("The card groups are nested too deeply."),
        "too_long": _("The card groups are too long (at most %(count)s characters)."),
    }

    def to_python(self, value: object) -> CardGroups | None:
        if value in self.empty_values:
            return None
        text = str(value)
        if len(text) > MAX_FIELD_CHARS:
            raise forms.ValidationError(
                self.error_messages["too_long"], code="too_long", params={"count": MAX_FIELD_CHARS}
            )
        try:
            groups = json.loads(text)
        except RecursionError as exc:  # only a very deep nesting overflows the reader
            raise forms.ValidationError(self.error_messages["too_deep"], code="too_deep") from exc
        except ValueError as exc:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid") from exc
        if not isinstance(groups, list) or not all(isinstance(g, list) for g in groups):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        cards = [c for g in groups for c in g]
        if any(isinstance(c, list | dict) for c in cards):
            raise forms.ValidationError(self.error_messages["too_deep"], code="too_deep")
        if not all(isinstance(c, str) and len(c) <= MAX_CARD_CHARS for c in cards):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return [g for g in groups if g]


class CardField(forms.CharField):
    """A card code (the engine says whether it is a card the player holds)."""

    default_error_messages = {"max_length": _("That is not a card.")}

    def __init__(self) -> None:
        super().__init__(required=False, max_length=MAX_CARD_CHARS, strip=False)


class CardsField(forms.CharField):
    """Card codes separated by spaces (classic's lay-off)."""

    def to_python(self, value: object) -> list[str] | None:  # type: ignore[override]
        text = super().to_python(value)
        return text.split() if text else None


class OnOffField(forms.ChoiceField):
    """``true`` or ``false`` (the auto-drop switch)."""

    default_error_messages = {"invalid_choice": _("Auto drop must be on or off.")}

    def __init__(self) -> None:
        super().__init__(required=False, choices=[("true", "on"), ("false", "off")])


class WholeNumberField(AsciiIntegerField):
    """A whole number in the digits 0-9, refused in the form's own words."""

    def to_python(self, value: object) -> int | None:
        try:
            return super().to_python(value)
        except forms.ValidationError as exc:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid") from exc


class ActionForm(forms.Form):
    """Every field an action may carry (which action takes which: ``PLAYER_ACTIONS``)."""

    action = forms.CharField(max_length=32, required=False)
    version = WholeNumberField(
        error_messages={
            "required": _("Missing or malformed game version."),
            "invalid": _("Missing or malformed game version."),
        }
    )
    game = forms.CharField(required=False, max_length=24)
    card = CardField()
    finish_card = CardField()
    groups = CardGroupsField(required=False)
    melds = CardGroupsField(required=False)
    on = OnOffField()
    cards = CardsField(required=False)
    group = WholeNumberField(
        required=False, error_messages={"invalid": _("That card is not in your hand.")}
    )
    index = WholeNumberField(
        required=False, error_messages={"invalid": _("That card is not in your hand.")}
    )
    meld_id = WholeNumberField(required=False, error_messages={"invalid": _("Unknown meld.")})
    end = forms.CharField(required=False, max_length=8)

    def first_error(self) -> str:
        """The first refusal of the form, in the player's words."""
        for errors in self.errors.values():
            for error in errors:
                return str(error)
        return str(_("A field of this action could not be read."))


# No form changes its fields (nothing above sets choices, widgets or ``required`` per form).
ActionForm.base_fields = SharedFields(ActionForm.base_fields)
