from django.apps import AppConfig

from .roles import SUPPORT_PERMISSIONS


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    support_permissions = SUPPORT_PERMISSIONS
