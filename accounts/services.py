"""Writes for accounts: sign-up, profile changes, role groups, and the player's own money
rules (deposit limits, self-exclusion) and the identity check staff record."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.apps import apps
from django.conf import settings
from django.contrib.auth.models import Group, Permission
from django.db import transaction
from django.utils import timezone
from django.utils.module_loading import import_string

from . import live
from .errors import AccountRefusal as AccountRefusal
from .errors import AccountRefused as AccountRefused
from .models import DepositLimit, LimitPeriod, SelfExclusion, SelfExclusionPeriod, User
from .roles import SUPPORT_GROUP
from .selectors import deposit_limit_current, self_exclusion_active

# A raised (or removed) deposit limit takes effect after this cooling-off; a lower one at once.
LIMIT_COOLING_OFF = timedelta(hours=24)
SELF_EXCLUSION_LENGTHS = {
    SelfExclusionPeriod.DAY: timedelta(days=1),
    SelfExclusionPeriod.WEEK: timedelta(days=7),
    SelfExclusionPeriod.MONTH: timedelta(days=30),
    SelfExclusionPeriod.HALF_YEAR: timedelta(days=182),
}
MAX_LIMIT = 10**12  # paise: far above any real limit


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
def user_sign_up(
    *,
    username: str,
    password: str,
    display_name: str = "",
    email: str = "",
    age_confirmed: bool = False,
) -> User:
    user = User(username=username, display_name=display_name.strip(), email=email)
    if age_confirmed:
        user.age_confirmed_at = timezone.now()
    user.set_password(password)
    user.full_clean(exclude=["password"])
    user.save()
    # What other apps give a new player, in the same transaction (``ACCOUNTS_ON_SIGN_UP``,
    # dotted paths: accounts imports no other app): the welcome practice chips.
    for path in getattr(settings, "ACCOUNTS_ON_SIGN_UP", ()):
        import_string(path)(user=user)
    return user


def user_profile_update(*, user: User, display_name: str) -> User:
    user.display_name = display_name.strip()
    user.full_clean(exclude=["password"])
    user.save(update_fields=["display_name"])
    return user


def user_locale_update(
    *, user: User, language: str | None = None, time_zone: str | None = None
) -> User:
    """Save the player's language (the header's switcher) and/or time zone (the profile)."""
    fields = []
    if language is not None:
        if language and language not in dict(settings.LANGUAGES):
            raise AccountRefused(AccountRefusal.LANGUAGE_NOT_OFFERED)
        user.language = language
        fields.append("language")
    if time_zone is not None:
        user.time_zone = time_zone
        fields.append("time_zone")
    if fields:
        user.full_clean(exclude=["password"])
        user.save(update_fields=fields)
    return user


def user_add_to_support(*, user: User) -> None:
    user.groups.add(role_groups_ensure())


def user_identity_set(*, user: User, verified: bool, now: datetime | None = None) -> User:
    """Staff mark the player's identity as checked (or not); the date is kept."""
    user.identity_verified = verified
    user.identity_verified_at = (now or timezone.now()) if verified else None
    user.save(update_fields=["identity_verified", "identity_verified_at"])
    return user


def _lock_user(user: User) -> User:
    return User.objects.select_for_update().get(pk=user.pk)


@transaction.atomic
def limits_set(
    *, user: User, period: str, amount: int | None, now: datetime | None = None
) -> DepositLimit | None:
    """Set the player's daily or monthly deposit limit (paise; None removes it). Lower than
    the limit in force (or a first limit): effective at once, replacing any raise still
    cooling off. Higher (or removed): effective after 24 hours. The same limit again changes
    nothing (returns None)."""
    if period not in LimitPeriod.values:
        raise AccountRefused(AccountRefusal.LIMIT_PERIOD)
    if amount is not None and (isinstance(amount, bool) or not 0 <= amount <= MAX_LIMIT):
        raise AccountRefused(AccountRefusal.LIMIT_AMOUNT)
    now = now or timezone.now()
    locked = _lock_user(user)
    current = deposit_limit_current(user=locked, period=period, now=now)
    latest = DepositLimit.objects.filter(user=locked, period=period).order_by("-set_at", "-id")
    last = latest.first()
    if (last is None and amount is None) or (last is not None and last.amount == amount):
        return None  # nothing new (a raise already cooling off keeps its time)
    lowering = amount is not None and (current is None or amount <= current)
    effective_at = now if lowering else now + LIMIT_COOLING_OFF
    return DepositLimit.objects.create(
        user=locked, period=period, amount=amount, set_at=now, effective_at=effective_at
    )


@transaction.atomic
def self_exclusion_start(*, user: User, period: str, now: datetime | None = None) -> SelfExclusion:
    """Exclude the player from money games (cash tables and deposits) for the period. It cannot
    be undone early; a longer one may be added while one runs (the later end counts)."""
    if period not in SELF_EXCLUSION_LENGTHS:
        raise AccountRefused(AccountRefusal.EXCLUSION_PERIOD)
    now = now or timezone.now()
    locked = _lock_user(user)
    ends_at = now + SELF_EXCLUSION_LENGTHS[SelfExclusionPeriod(period)]
    active = self_exclusion_active(user=locked, now=now)
    if active is not None and active.ends_at >= ends_at:
        raise AccountRefused(AccountRefusal.ALREADY_EXCLUDED, until=active.ends_at)
    exclusion = SelfExclusion.objects.create(
        user=locked, period=period, started_at=now, ends_at=ends_at
    )
    live.user_sockets_end(user_id=locked.pk)  # its open tables are judged afresh at reconnect
    return exclusion
