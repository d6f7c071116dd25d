from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from .models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (*BaseUserAdmin.fieldsets, ("Table", {"fields": ("display_name",)}))  # type: ignore[misc]
    list_display = ("username", "display_name", "email", "is_staff", "is_active", "date_joined")
    search_fields = ("username", "display_name", "email")
