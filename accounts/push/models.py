"""A player's push subscriptions (one a browser), the kinds of notice they want, and the
notices sent once only (a tournament's five-minute warning)."""

from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class PushKind(models.TextChoices):
    """The kinds of notice; each can be switched off on the profile (on by default)."""

    TOURNAMENT_STARTING = "tournament_starting", _("A tournament I registered for is starting")
    YOUR_TURN = "your_turn", _("My turn at a table while its page is hidden")
    FRIEND_INVITE = "friend_invite", _("A friend invites me to a table")
    FRIEND_REQUEST = "friend_request", _("A friend request")


class PushSubscription(models.Model):
    """A browser's push subscription (``PushSubscription.toJSON()`` of the Push API): where to
    post (``endpoint``, the push service's URL) and the keys the payload is encrypted to."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=2048, unique=True)
    p256dh = models.CharField(max_length=128, help_text="The browser's ECDH public key.")
    auth = models.CharField(max_length=64, help_text="The browser's authentication secret.")
    created = models.DateTimeField(default=timezone.now)
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["-created", "-id"]

    def __str__(self) -> str:
        return f"{self.user} at {self.endpoint[:48]}"


class PushPreferences(models.Model):
    """Which kinds of notice the player wants. No row: every kind is on."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_preferences"
    )
    tournament_starting = models.BooleanField(_("tournament starting"), default=True)
    your_turn = models.BooleanField(_("your turn"), default=True)
    friend_invite = models.BooleanField(_("friend invites"), default=True)
    friend_request = models.BooleanField(_("friend requests"), default=True)

    class Meta:
        verbose_name_plural = "push preferences"

    def __str__(self) -> str:
        return f"{self.user}'s notices"

    def wants(self, kind: str) -> bool:
        return bool(getattr(self, kind, False)) if kind in PushKind.values else False


class PushSent(models.Model):
    """A notice that must go once only (``key``: e.g. ``tournament-starting:<id>``), recorded
    in the transaction that queued it: a second run finds the row and sends nothing."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=120)
    kind = models.CharField(max_length=32, choices=PushKind.choices)
    sent_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints: ClassVar[list[Any]] = [
            models.UniqueConstraint(fields=["user", "key"], name="push_sent_once_per_key"),
        ]

    def __str__(self) -> str:
        return f"{self.key} to {self.user}"
