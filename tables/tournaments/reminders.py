"""A tournament's five-minute warning (issue 35): each player registered for a scheduled
tournament that starts within ``REMIND_BEFORE`` gets a Web Push, once: ``push_notify`` records
it under the key ``tournament-starting:<id>`` in the transaction that queues it, so a sweep
run twice (or by two workers at once) tells nobody twice. Run by Celery beat
(``tournament-reminders``) or, on the embedded default, by the timer loop's tick."""

from __future__ import annotations

import time
from datetime import datetime, timedelta

from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from accounts.middleware import player_language, player_time_zone
from accounts.push.models import PushKind
from accounts.push.selectors import push_configured, push_sent_user_ids
from accounts.push.services import push_notify
from tables.tournaments.models import (
    OPEN_STATUSES,
    Registration,
    RegistrationStatus,
    Tournament,
    TournamentKind,
)

REMIND_BEFORE = timedelta(minutes=5)
# The embedded loop ticks every half second; the warnings need no more than this.
LOOP_EVERY_S = 10.0
_loop_last = [0.0]


def reminder_key(tournament_id: int) -> str:
    return f"tournament-starting:{tournament_id}"


def tournament_reminders_send(*, now: datetime | None = None) -> int:
    """Warn the players of every scheduled tournament starting within five minutes who have
    not been warned; returns how many notices were queued."""
    if not push_configured():
        return 0
    now = now or timezone.now()
    due = Tournament.objects.filter(
        kind=TournamentKind.SCHEDULED,
        status__in=OPEN_STATUSES,
        starts_at__gt=now,
        starts_at__lte=now + REMIND_BEFORE,
    ).order_by("starts_at", "pk")
    queued = 0
    for tournament in due:
        key = reminder_key(tournament.pk)
        told = push_sent_user_ids(key=key)
        registrations = (
            Registration.objects.filter(tournament=tournament, status=RegistrationStatus.REGISTERED)
            .exclude(user_id__in=told)
            .select_related("user")
            .order_by("pk")
        )
        for registration in registrations:
            user = registration.user
            starts = timezone.localtime(tournament.starts_at, player_time_zone(user))
            with translation.override(player_language(user)):
                queued += push_notify(
                    user_id=user.pk,
                    kind=PushKind.TOURNAMENT_STARTING,
                    title=_("%(name)s starts soon") % {"name": tournament.display_name()},
                    body=_("Your tournament starts at %(time)s: be at your table.")
                    % {"time": formats.time_format(starts, "TIME_FORMAT")},
                    url=reverse("tournaments:detail", args=[tournament.pk]),
                    once_key=key,
                )
    return queued


def reminders_loop_sweep() -> int:
    """The embedded loop's sweep: the warnings every ``LOOP_EVERY_S`` seconds at most."""
    clock = time.monotonic()
    if clock - _loop_last[0] < LOOP_EVERY_S:
        return 0
    _loop_last[0] = clock
    return tournament_reminders_send()
