"""Staff see friendships, requests, blocks and invites, read-only, searched by a player's
username or display name. Changes are the players' own (the Friends page)."""

from __future__ import annotations

from typing import Any, TypeVar

from django.contrib import admin
from django.db import models
from django.http import HttpRequest

from .models import Block, FriendInvite, FriendRequest, Friendship

M = TypeVar("M", bound=models.Model)


class _ReadOnly(admin.ModelAdmin[M]):
    list_per_page = 50

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _by_name(*players: str) -> tuple[str, ...]:
    """Search fields: each of these players by username or display name."""
    return tuple(f"{player}__{name}" for player in players for name in ("username", "display_name"))


@admin.register(FriendRequest)
class FriendRequestAdmin(_ReadOnly[FriendRequest]):
    list_display = ("sender", "receiver", "state", "created_at", "answered_at")
    list_filter = ("state",)
    list_select_related = ("sender", "receiver")
    search_fields = _by_name("sender", "receiver")
    date_hierarchy = "created_at"


@admin.register(Friendship)
class FriendshipAdmin(_ReadOnly[Friendship]):
    list_display = ("user_low", "user_high", "created_at")
    list_select_related = ("user_low", "user_high")
    search_fields = _by_name("user_low", "user_high")


@admin.register(Block)
class BlockAdmin(_ReadOnly[Block]):
    list_display = ("blocker", "blocked", "created_at")
    list_select_related = ("blocker", "blocked")
    search_fields = _by_name("blocker", "blocked")


@admin.register(FriendInvite)
class FriendInviteAdmin(_ReadOnly[FriendInvite]):
    list_display = ("host", "friend", "table_id", "table_name", "created_at")
    list_select_related = ("host", "friend")
    search_fields = _by_name("host", "friend")
