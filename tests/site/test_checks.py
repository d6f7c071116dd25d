"""The system check that the front-end packages from npm are installed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.checks import run_checks
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from rummy_site.checks import frontend_packages


def _ids(errors: list[Any]) -> list[str]:
    return [e.id for e in errors]


def test_the_installed_packages_pass() -> None:
    # The checkout's own node_modules (npm ci) holds every file the pages load.
    assert frontend_packages() == []
    assert "rummy_site.E001" not in _ids(run_checks())


def test_a_missing_package_fails_loudly(settings: Any, tmp_path: Path) -> None:
    settings.FRONTEND_PACKAGES_DIR = tmp_path
    settings.FRONTEND_FILES = ["sortablejs/Sortable.min.js"]
    errors = frontend_packages()
    assert _ids(errors) == ["rummy_site.E001"]
    assert str(tmp_path / "sortablejs" / "Sortable.min.js") in errors[0].msg
    assert "npm ci" in (errors[0].hint or "")
    # Registered: `manage.py check` (and runserver, migrate) stops on it.
    assert "rummy_site.E001" in _ids(run_checks())
    with pytest.raises(SystemCheckError, match="npm ci"):
        call_command("check")


def test_each_missing_file_is_named(settings: Any, tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "here.js").write_text("//")
    (tmp_path / "a" / "dir.js").mkdir()  # a directory is not the file
    settings.FRONTEND_PACKAGES_DIR = tmp_path
    settings.FRONTEND_FILES = ["a/here.js", "a/dir.js", "b/gone.js"]
    messages = [e.msg for e in frontend_packages()]
    assert len(messages) == 2
    assert "dir.js" in messages[0] and "gone.js" in messages[1]
