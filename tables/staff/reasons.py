"""The page on which a staff action of the admin asks for its reason (a game's cancellation, a
rating's reset), and the reason read back when the page is posted."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render

# The longest reason a page takes unless the action names its own limit.
REASON_MAX = 500


class ReasonForm(forms.Form):
    def __init__(self, data: QueryDict, *, max_length: int) -> None:
        super().__init__(data)
        self.fields["reason"] = forms.CharField(max_length=max_length, strip=True)


def ask_reason(
    modeladmin: admin.ModelAdmin[Any],
    request: HttpRequest,
    objects: list[Any],
    *,
    action: str,
    title: str,
    intro: str,
    label: str,
    button: str,
    max_length: int | None = None,
) -> str | HttpResponse:
    """The reason posted with the action, or the page asking for it (again, saying so, when
    the reason posted is blank or too long). A ``max_length`` the action names is shown: the
    page's field takes no more and the refusal says it."""
    if request.POST.get("confirm") == "yes":
        form = ReasonForm(request.POST, max_length=max_length or REASON_MAX)
        if form.is_valid():
            return str(form.cleaned_data["reason"])
        refused = "A reason is required."
        if max_length is not None:
            refused = f"A reason is required, at most {max_length} characters."
        modeladmin.message_user(request, refused, messages.ERROR)
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "intro": intro,
        "objects": objects,
        "action": action,
        "label": label,
        "button": button,
        "reason_max": max_length,
    }
    return render(request, "admin/ask_reason.html", context)
