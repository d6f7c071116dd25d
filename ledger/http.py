"""The request type of the ledger's views that only a signed-in user reaches."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpRequest

if TYPE_CHECKING:
    from django.contrib.auth.models import _User  # the AUTH_USER_MODEL


class AuthenticatedHttpRequest(HttpRequest):
    """A request behind ``login_required`` or the admin's ``admin_view``: ``user`` is a signed-in
    user, never ``AnonymousUser``. For annotations only: Django still builds a plain
    ``HttpRequest``. (The ledger knows nothing of accounts, so it names the user model through
    django-stubs' ``_User``, which the mypy plugin reads as ``AUTH_USER_MODEL``.)"""

    user: _User
