"""Staff's view of Web Push: the subscriptions (read-only: a browser makes them) and the
players' preferences."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import PushPreferences, PushSent, PushSubscription


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin[PushSubscription]):
    list_display = ("user", "service", "created", "last_used")
    list_filter = ("created", "last_used")
    search_fields = ("user__username", "user__display_name")
    readonly_fields = ("user", "endpoint", "p256dh", "auth", "created", "last_used")
    list_select_related = ("user",)

    @admin.display(description="push service")
    def service(self, obj: PushSubscription) -> str:
        return obj.endpoint.split("/")[2] if obj.endpoint.count("/") >= 2 else obj.endpoint

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(PushPreferences)
class PushPreferencesAdmin(admin.ModelAdmin[PushPreferences]):
    list_display = ("user", "tournament_starting", "your_turn", "friend_invite", "friend_request")
    list_filter = ("tournament_starting", "your_turn", "friend_invite", "friend_request")
    search_fields = ("user__username", "user__display_name")
    raw_id_fields = ("user",)
    list_select_related = ("user",)


@admin.register(PushSent)
class PushSentAdmin(admin.ModelAdmin[PushSent]):
    list_display = ("key", "user", "kind", "sent_at")
    list_filter = ("kind",)
    search_fields = ("key", "user__username")
    readonly_fields = ("user", "key", "kind", "sent_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
