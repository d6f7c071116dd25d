"""Writes for accounts: sign-up, profile changes, role groups."""

from __future__ import annotations

from django.apps import apps
from django.contrib.auth.models import Group, Permission
from django.db import transaction

from .models import User
from .roles import SUPPORT_GROUP


def _support_permissions() -> list[tuple[str, str]]:
    """Every ``(app_label, codename)`` the installed apps give the support role: the
    ``support_permissions`` declared on their ``AppConfig`` (see ``accounts.roles``)."""
    wanted: list[tuple[str, str]] = []
    for config in apps.get_app_configs():
        for item in getattr(config, "support_permissions", ()):
            if item not in wanted:
                wanted.append(item)
    return wanted


@transaction.atomic
def role_groups_ensure() -> Group:
    """Create (or complete) the support group with its permissions. Idempotent."""
    group, _ = Group.objects.get_or_create(name=SUPPORT_GROUP)
    perms = []
    for app_label, codename in _support_permissions():
        perm = Permission.objects.filter(
            content_type__app_label=app_label, codename=codename
        ).first()
        if perm is not None:
            perms.append(perm)
    group.permissions.add(*perms)
    return group


@transaction.atomic
def user_sign_up(*, username: str, password: str, display_name: str = "", email: str = "") -> User:
    user = User(username=username, display_name=display_name.strip(), email=email)
    user.set_password(password)
    user.full_clean(exclude=["password"])
    user.save()
    return user


def user_profile_update(*, user: User, display_name: str) -> User:
    user.display_name = display_name.strip()
    user.full_clean(exclude=["password"])
    user.save(update_fields=["display_name"])
    return user


def user_add_to_support(*, user: User) -> None:
    user.groups.add(role_groups_ensure())
