from django.apps import AppConfig


class FriendsConfig(AppConfig):
    name = "accounts.friends"
    label = "friends"
    verbose_name = "Friends"
    default_auto_field = "django.db.models.BigAutoField"
