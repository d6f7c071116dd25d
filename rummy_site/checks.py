"""System checks of the site as installed (``manage.py check``, ``runserver``, ``migrate``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.checks import Error


def frontend_packages(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """Every front-end file a page loads from npm (``settings.FRONTEND_FILES``, relative to
    ``settings.FRONTEND_PACKAGES_DIR``) is installed. Without it the page would still render and
    the browser would only get a 404 (no dragging of cards without SortableJS)."""
    root = Path(settings.FRONTEND_PACKAGES_DIR)
    return [
        Error(
            f"The front-end file {root / name} is missing.",
            hint="Install the front-end packages: run npm ci (scripts/setup does).",
            id="rummy_site.E001",
        )
        for name in settings.FRONTEND_FILES
        if not (root / name).is_file()
    ]
