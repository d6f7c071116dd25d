"""Refuse a NUL character anywhere in a request's path, query or form before any view reads it:
PostgreSQL text cannot hold one (psycopg raises ``DataError``, which would be a 500), and no
page of the site ever sends one. The answer is Django's 400 page; nothing is read or changed."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse

NUL = "\x00"


def _has_nul(pairs: Iterable[tuple[str, list[str]]]) -> bool:
    return any(NUL in key or any(NUL in value for value in values) for key, values in pairs)


class NulRefusedMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if NUL in request.path_info or _has_nul(request.GET.lists()):
            raise BadRequest("A NUL character in the address.")
        content_type = request.content_type or ""
        is_form = content_type in ("application/x-www-form-urlencoded", "multipart/form-data")
        if request.method == "POST" and is_form and _has_nul(request.POST.lists()):
            raise BadRequest("A NUL character in the form.")
        return self.get_response(request)
