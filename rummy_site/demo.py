"""The demo data set (``manage.py seed_demo``): users from ``accounts``, money from ``ledger``,
tables from ``tables``. It lives in the project package, above the apps it seeds, so none of
them imports another for it."""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from accounts.services import role_groups_ensure, user_add_to_support
from ledger.services import wallet_deposit
from tables.models import TableTemplate
from tables.services import template_tables_ensure
from tables.tournaments.models import Tournament, TournamentStatus
from tables.tournaments.services import tournament_create_sit_and_go

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
    _, created = _user("staff", "Staff", staff=True)
    lines.append(f"staff user 'staff' {'created' if created else 'exists'}")
    # (a person's name: the header then says "Support" once, for the support pages' link)
    support, created = _user("support", "Sunita")
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
    lines.extend(_demo_tournaments())
    lines.append(f"demo password for every demo user: {DEMO_PASSWORD}")
    return lines


DEMO_CASH = 1_000_00  # minor units: 1,000.00
DEMO_PRACTICE = 10_000

# (name, template fields): a template of every kind, cash and practice; the lobby lists them
# with Play now, which opens tables as players come (practice tables wait 20 s for people).
DEMO_TEMPLATES: tuple[tuple[str, dict[str, object]], ...] = (
    (
        "Practice Pool 101",
        {
            "name_hi": "प्रैक्टिस पूल 101",
            "variant": "pool101",
            "seats_min": 3,
            "seats_max": 3,
            "currency": "practice",
            "entry_fee": 100,
            "practice": True,
            "bot_count": 2,
        },
    ),
    (
        "Practice Points",
        {
            "name_hi": "प्रैक्टिस पॉइंट्स",
            "variant": "points",
            "seats_min": 2,
            "seats_max": 2,
            "currency": "practice",
            "point_value": 1,
            "practice": True,
            "bot_count": 1,
            "bot_strength": "hard",
        },
    ),
    (
        "Practice Classic",
        {
            "name_hi": "प्रैक्टिस क्लासिक",
            "variant": "classic",
            "seats_min": 2,
            "seats_max": 2,
            "currency": "practice",
            "entry_fee": 100,
            "practice": True,
            "bot_count": 1,
        },
    ),
    (
        "Pool 101",
        {
            "name_hi": "पूल 101",
            "variant": "pool101",
            "seats_min": 2,
            "seats_max": 3,
            "currency": "cash",
            "entry_fee": 10_00,
            "platform_fee_bps": 1000,
        },
    ),
    (
        "Pool 201",
        {
            "name_hi": "पूल 201",
            "variant": "pool201",
            "seats_min": 2,
            "seats_max": 6,
            "currency": "cash",
            "entry_fee": 25_00,
            "platform_fee_bps": 1000,
        },
    ),
    (
        "Best of 2 deals",
        {
            "name_hi": "डील्स, 2 में से सबसे अच्छा",
            "variant": "deals",
            "seats_min": 2,
            "seats_max": 2,
            "currency": "cash",
            "entry_fee": 20_00,
            "platform_fee_bps": 1000,
        },
    ),
    (
        "Points 0.50",
        {
            "name_hi": "पॉइंट्स 0.50",
            "variant": "points",
            "seats_min": 2,
            "seats_max": 6,
            "currency": "cash",
            "point_value": 50,
            "platform_fee_bps": 1000,
        },
    ),
    (
        "Classic ring",
        {
            "name_hi": "क्लासिक रिंग",
            "variant": "classic",
            "seats_min": 2,
            "seats_max": 4,
            "currency": "cash",
            "entry_fee": 10_00,
            "platform_fee_bps": 1000,
        },
    ),
)


def _demo_money_and_tables(players: list[User]) -> list[str]:
    lines = []
    for player in players:
        wallet_deposit(
            user=player,
            currency="cash",
            amount=DEMO_CASH,
            idempotency_key=f"demo:fund:{player.pk}:cash",
            memo="Demo funds",
        )
        wallet_deposit(
            user=player,
            currency="practice",
            amount=DEMO_PRACTICE,
            idempotency_key=f"demo:fund:{player.pk}:practice",
            memo="Practice chips",
        )
    lines.append("demo players funded (cash and practice chips)")
    for name, fields in DEMO_TEMPLATES:
        template = TableTemplate.objects.filter(name=name).first()
        if template is None:
            template = TableTemplate(name=name, **fields)
            template.full_clean()
            template.save()
        elif not template.name_hi:  # seeded before templates had a Hindi name
            template.name_hi = str(fields["name_hi"])
            template.save(update_fields=["name_hi"])
        before = template.tables.count()
        template_tables_ensure(template=template)  # its minimum of open tables for Play now
        opened = template.tables.count() - before
        if opened:
            lines.append(f"template '{name}': {opened} table(s) opened")
    return lines


# (name, template name, template fields, tournament fields): sit & go tournaments that open again
# when they start, so the lobby's Tournaments tab always offers one. The practice one fills with
# computer players after 20 s: one person can play a whole tournament alone.
DEMO_TOURNAMENTS: tuple[tuple[str, str, dict[str, object], dict[str, object]], ...] = (
    (
        "Practice sit & go",
        "Tournament tables (practice)",
        {"currency": "practice", "entry_fee": 100, "practice": True, "bot_count": 1},
        {
            "currency": "practice",
            "entry_fee": 100,
            "fee_bps": 0,
            "players_min": 6,
            "players_max": 6,
            "seats_per_table": 3,
            "qualifiers_per_table": 1,
            "bots_fill": True,
            "human_wait_s": 20.0,
            "break_s": 15.0,
            "name_hi": "प्रैक्टिस सिट एंड गो",
        },
    ),
    (
        "Sit & go of 7",
        "Tournament tables (cash)",
        {"currency": "cash", "entry_fee": 50_00},
        {
            "currency": "cash",
            "entry_fee": 50_00,
            "fee_bps": 1250,
            "players_min": 7,
            "players_max": 7,
            "seats_per_table": 6,
            "qualifiers_per_table": 2,
            "name_hi": "7 खिलाड़ियों का सिट एंड गो",
        },
    ),
)


def _demo_tournaments() -> list[str]:
    lines = []
    for name, template_name, template_fields, fields in DEMO_TOURNAMENTS:
        template = TableTemplate.objects.filter(name=template_name).first()
        if template is None:
            # Inactive: the lobby opens no tables of it; only its tournaments seat players.
            template = TableTemplate(
                name=template_name, variant="deals", is_active=False, **template_fields
            )
            template.full_clean()
            template.save()
        open_ones = Tournament.objects.filter(
            status__in=[TournamentStatus.REGISTERING, TournamentStatus.RUNNING]
        )
        if not (open_ones.filter(name=name) | open_ones.filter(name__startswith=f"{name} #")):
            tournament_create_sit_and_go(name=name, template=template, repeat=True, **fields)
            lines.append(f"tournament '{name}' open for registration")
    return lines
