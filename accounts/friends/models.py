"""Friend requests, friendships, blocks and invites to a private table.

A friendship is one row per pair, its two players in id order (``user_low`` < ``user_high``),
so a pair is friends once whoever asked. The database refuses a request to oneself, a second
pending request between the same two players (either way), a block of oneself and a block
twice. An invite names its table by id only: accounts import nothing of the tables."""

from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Greatest, Least
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class RequestState(models.TextChoices):
    PENDING = "pending", _("pending")
    ACCEPTED = "accepted", _("accepted")
    REFUSED = "refused", _("refused")
    CANCELLED = "cancelled", _("cancelled")


class FriendRequest(models.Model):
    """``sender`` asked ``receiver`` to be friends; answered once (accepted or refused), or
    cancelled when either blocks the other. Rows are kept as the pair's history."""

    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friend_requests_sent"
    )
    receiver = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="friend_requests_received",
    )
    state = models.CharField(max_length=10, choices=RequestState.choices, default="pending")
    created_at = models.DateTimeField(default=timezone.now)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["-created_at", "-id"]
        constraints: ClassVar[list[Any]] = [
            models.CheckConstraint(
                condition=~Q(sender=F("receiver")), name="friends_request_not_to_self"
            ),
            models.CheckConstraint(
                condition=Q(state__in=RequestState.values), name="friends_request_state"
            ),
            models.UniqueConstraint(
                Least("sender", "receiver"),
                Greatest("sender", "receiver"),
                condition=Q(state="pending"),
                name="friends_request_one_pending_per_pair",
            ),
        ]
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["receiver", "state"], name="friends_request_in"),
            models.Index(fields=["sender", "state"], name="friends_request_out"),
        ]

    def __str__(self) -> str:
        return f"{self.sender} -> {self.receiver} ({self.state})"


class Friendship(models.Model):
    """Two players are friends: one row, the lower id first."""

    user_low = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friendships_low"
    )
    user_high = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friendships_high"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering: ClassVar[list[str]] = ["-created_at", "-id"]
        constraints: ClassVar[list[Any]] = [
            models.CheckConstraint(
                condition=Q(user_low__lt=F("user_high")), name="friends_pair_in_order"
            ),
            models.UniqueConstraint(fields=["user_low", "user_high"], name="friends_pair_once"),
        ]
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["user_high"], name="friends_pair_high"),
        ]

    def __str__(self) -> str:
        return f"{self.user_low} & {self.user_high}"


class Block(models.Model):
    """``blocker`` blocked ``blocked``: no requests or invites between them either way, and
    Play now seats them apart where another table exists."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_made"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_received"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering: ClassVar[list[str]] = ["-created_at", "-id"]
        constraints: ClassVar[list[Any]] = [
            models.CheckConstraint(
                condition=~Q(blocker=F("blocked")), name="friends_block_not_self"
            ),
            models.UniqueConstraint(fields=["blocker", "blocked"], name="friends_block_once"),
        ]
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["blocked"], name="friends_block_blocked"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker} blocked {self.blocked}"


class FriendInvite(models.Model):
    """``host`` invited ``friend`` to the private table ``table_id`` (its name and invite link
    kept as they were): shown in the friend's lobby while the table is open."""

    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friend_invites_sent"
    )
    friend = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="friend_invites_received",
    )
    table_id = models.PositiveBigIntegerField()
    table_name = models.CharField(max_length=120)
    invite_url = models.CharField(max_length=200)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering: ClassVar[list[str]] = ["-created_at", "-id"]
        constraints: ClassVar[list[Any]] = [
            models.CheckConstraint(condition=~Q(host=F("friend")), name="friends_invite_not_self"),
            models.UniqueConstraint(
                fields=["host", "friend", "table_id"], name="friends_invite_once"
            ),
        ]
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["friend", "created_at"], name="friends_invite_for"),
        ]

    def __str__(self) -> str:
        return f"{self.host} invites {self.friend} to table {self.table_id}"
