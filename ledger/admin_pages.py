"""The staff tools' pages of the ledger's admin (a wallet adjustment, a transaction's reversal,
a withdrawal's decision): the action that opens a tool for the one row selected, and the tool's
page with its form."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse


def one_selected_page(
    modeladmin: admin.ModelAdmin[Any],
    request: HttpRequest,
    queryset: QuerySet[Any],
    *,
    what: str,
    url_name: str,
) -> HttpResponse | None:
    """The tool's page (``url_name``, an admin URL taking the row's id) of the one row selected,
    or a message asking for exactly one ``what``."""
    if queryset.count() != 1:
        modeladmin.message_user(request, f"Select exactly one {what}.", messages.ERROR)
        return None
    return HttpResponseRedirect(reverse(url_name, args=[queryset.get().pk]))


def form_page(
    admin_site: admin.AdminSite, request: HttpRequest, template: str, context: dict[str, Any]
) -> HttpResponse:
    """A tool's page with its form (``context["form"]``): 400 when a posted form is shown
    again, refused."""
    status = 400 if request.method == "POST" else 200
    return render(request, template, {**admin_site.each_context(request), **context}, status=status)
