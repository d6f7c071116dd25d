"""The request type of the views that only a signed-in user reaches."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpRequest

if TYPE_CHECKING:
    from .models import User


class AuthenticatedHttpRequest(HttpRequest):
    """A request behind ``login_required`` (or the admin's ``admin_view``, or a check of
    ``request.user.is_authenticated``): ``user`` is a signed-in ``User``, never
    ``AnonymousUser``. For annotations only: Django still builds a plain ``HttpRequest``."""

    user: User
