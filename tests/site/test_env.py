"""Settings read from the environment through the typed helpers of ``rummy_site.env``: a bad
value stops the start with an error naming the variable and the value."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from rummy_site.env import env_bool, env_float, env_int, env_list, env_str

ROOT = Path(__file__).resolve().parents[2]
NAME = "RUMMY_TEST_ENV_VALUE"


@pytest.fixture
def setenv(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv(NAME, raising=False)

    def set_(value: str) -> None:
        monkeypatch.setenv(NAME, value)

    return set_


def test_unset_gives_the_default(setenv) -> None:
    assert env_str(NAME, "d") == "d"
    assert env_int(NAME, 7) == 7
    assert env_float(NAME, 0.5) == 0.5
    assert env_bool(NAME, True) is True and env_bool(NAME, False) is False
    assert env_list(NAME, ["a"]) == ["a"]


def test_values_convert(setenv) -> None:
    setenv(" 12 ")
    assert env_int(NAME, 0) == 12 and env_float(NAME, 0.0) == 12.0
    setenv("0.25")
    assert env_float(NAME, 1.0) == 0.25
    setenv("")
    assert env_str(NAME, "d") == ""  # set empty on purpose: kept
    assert env_bool(NAME, True) is True and env_list(NAME, ["a"]) == ["a"]
    setenv(" a, ,b ,")
    assert env_list(NAME, []) == ["a", "b"]
    for word in ("1", "true", "Yes", " ON "):
        setenv(word)
        assert env_bool(NAME, False) is True
    for word in ("0", "false", "No", "off"):
        setenv(word)
        assert env_bool(NAME, True) is False


@pytest.mark.parametrize(
    ("read", "value", "words"),
    [
        (lambda: env_int(NAME, 1), "ten", "must be a whole number, got 'ten'"),
        (lambda: env_int(NAME, 1), "1.5", "must be a whole number, got '1.5'"),
        (lambda: env_int(NAME, 1), "", "must be a whole number, got ''"),
        (lambda: env_float(NAME, 1.0), "soon", "must be a number, got 'soon'"),
        (lambda: env_float(NAME, 1.0), "nan", "must be a finite number, got 'nan'"),
        (lambda: env_float(NAME, 1.0), "inf", "must be a finite number, got 'inf'"),
        (
            lambda: env_bool(NAME, True),
            "treu",
            "must be one of 1/true/yes/on or 0/false/no/off, got 'treu'",
        ),
    ],
)
def test_a_bad_value_names_the_variable(setenv, read, value, words) -> None:
    setenv(value)
    with pytest.raises(ImproperlyConfigured, match=re.escape(f"{NAME} {words}")):
        read()


def test_a_bad_setting_stops_the_start_naming_it() -> None:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "rummy_site.settings"}
    env["DATABASE_POOL_MAX"] = "ten"
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode != 0
    assert "DATABASE_POOL_MAX must be a whole number, got 'ten'" in result.stderr
    env["DATABASE_POOL_MAX"] = "12"
    show = "from rummy_site import settings; print(settings.DATABASE_POOL_MAX)"
    ok = subprocess.run(
        [sys.executable, "-c", show],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.stdout.strip() == "12", ok.stderr


def test_settings_read_the_environment_only_through_the_helpers() -> None:
    source = (ROOT / "rummy_site" / "settings.py").read_text()
    assert "os.environ" not in source and "getenv" not in source
