from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A player, staff member or support agent. ``display_name`` is shown at the tables."""

    display_name = models.CharField(
        max_length=40,
        blank=True,
        help_text="The name other players see at the table. Defaults to the username.",
    )

    class Meta:
        permissions = [
            ("review_deals", "Can find and replay any deal"),
        ]

    @property
    def public_name(self) -> str:
        return self.display_name or self.username

    def __str__(self) -> str:
        return self.public_name
