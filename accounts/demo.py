"""The demo data set (``manage.py seed_demo``)."""

from __future__ import annotations

from django.db import transaction

from .models import User
from .services import role_groups_ensure, user_add_to_support

DEMO_PASSWORD = "play-rummy-2026"
DEMO_PLAYERS = (("asha", "Asha"), ("bilal", "Bilal"), ("chen", "Chen"))


def _user(username: str, display_name: str, *, staff: bool = False) -> tuple[User, bool]:
    user = User.objects.filter(username=username).first()
    if user is not None:
        return user, False
    user = User(username=username, display_name=display_name, is_staff=staff, is_superuser=staff)
    user.set_password(DEMO_PASSWORD)
    user.save()
    return user, True


@transaction.atomic
def demo_seed() -> list[str]:
    lines: list[str] = []
    role_groups_ensure()
    staff, created = _user("staff", "Staff", staff=True)
    lines.append(f"staff user 'staff' {'created' if created else 'exists'}")
    support, created = _user("support", "Support")
    if not support.is_staff:
        support.is_staff = True
        support.save(update_fields=["is_staff"])
    user_add_to_support(user=support)
    lines.append(f"support user 'support' {'created' if created else 'exists'}")
    players = []
    for username, name in DEMO_PLAYERS:
        player, created = _user(username, name)
        players.append(player)
        lines.append(f"player '{username}' {'created' if created else 'exists'}")
    lines.extend(_demo_money_and_tables(players))
    lines.append(f"demo password for every demo user: {DEMO_PASSWORD}")
    return lines


def _demo_money_and_tables(players: list[User]) -> list[str]:
    return []
