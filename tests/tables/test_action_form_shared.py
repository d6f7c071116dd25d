"""The action form reads with its class's fields, not a deep copy of them per form, and its
forms stay independent of each other."""

from __future__ import annotations

from tables.web.action_form import ActionForm


def test_forms_read_with_the_class_fields_not_a_copy_each():
    first = ActionForm({"action": "discard", "version": "3", "card": "QH"})
    second = ActionForm({"action": "pick_closed", "version": "4"})
    assert first.fields is not second.fields  # each form its own mapping...
    assert all(first.fields[name] is field for name, field in ActionForm.base_fields.items())
    assert all(second.fields[name] is ActionForm.base_fields[name] for name in second.fields)


def test_a_refused_form_leaves_the_next_one_alone():
    refused = ActionForm({"action": "discard", "version": "x", "card": "QH" * 10})
    assert not refused.is_valid()
    assert set(refused.errors) == {"version", "card"}
    accepted = ActionForm({"action": "discard", "version": "7", "card": "QH"})
    assert accepted.is_valid(), accepted.errors
    assert (accepted.cleaned_data["version"], accepted.cleaned_data["card"]) == (7, "QH")
    again = ActionForm({"action": "discard", "card": "KS"})
    assert not again.is_valid()
    assert set(again.errors) == {"version"}
    assert str(again.errors["version"][0]) == "Missing or malformed game version."
