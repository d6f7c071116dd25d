from typing import Any

from django.apps import AppConfig
from django.http import HttpRequest

from .roles import SUPPORT_PERMISSIONS


def _logged_out(sender: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
    """A logout ends the open sockets of its session (``accounts.live``)."""
    from . import live

    key = request.session.session_key if request is not None else None
    if key:
        live.session_sockets_end(session_key=key)


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    support_permissions = SUPPORT_PERMISSIONS

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        user_logged_out.connect(_logged_out, dispatch_uid="accounts.sockets_end")
