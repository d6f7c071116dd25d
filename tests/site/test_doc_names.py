"""Every repository path and Python name the docs (README.md, docs/*.md) write in backticks
exists, so a doc cannot go on naming what has moved.

The heuristics, kept simple:

* A **path** is a backticked word with a ``/`` whose first part is an entry at the top of the
  repository (``tables/web/views.py``, ``docs/deploy.md``, ``templates/tables/table.html#felt``).
  A ``#part`` is dropped, a ``*`` is a glob that must match something, and a path that names an
  attribute of a module (``tables/history/views.deal_review``) must resolve as a dotted name.
* A **dotted name** is a backticked word of identifiers joined by dots (call brackets
  dropped: ``tables.timers.tasks.game_timeout(game_id, version)``). When its first part is one of
  the project's packages it is imported: the longest importable prefix, then attributes for the
  rest. When its first part is the name of a module inside the packages (``services.table_create``,
  ``seating.table_join``) it must resolve against at least one such module. Anything else
  (``transaction.on_commit``) is not a name of this repository and is left alone, and so are
  file names (``play.py``: the last part a file extension). A Celery task's name
  (``ledger.payments.deposits_expire``) counts as a name.

Two small allow-lists: ``NOT_PYTHON``, the words that look like the project's names and are not
(permission names, a model label, a logger name, a system check id); ``OBJECTS``, the module
names the docs also use for objects (``state.phase`` is a game state's field, not
``tables.rules.game.state.phase``; ``engine.apply`` an engine's method), so relative names
starting with them are not checked.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PACKAGES = ("accounts", "ledger", "tables", "rummy_site")
NOT_PYTHON = {
    "accounts.review_deals",  # permissions (app_label.codename)
    "ledger.adjust_wallet",
    "ledger.decide_withdrawal",
    "ledger.reconcile",
    "ledger.reverse_transaction",
    "tables.Game",  # a model label (app_label.Model)
    "rummy.events",  # logger names
    "rummy_site.E001",  # a system check id
}
OBJECTS = {"engine", "game", "results", "settings", "shoe", "state", "stripe"}
FILE_EXTENSIONS = {"py", "md", "json", "html", "js", "css", "txt", "toml", "ini", "example"}

TICKED = re.compile(r"`([^`\n]+)`")
PATH = re.compile(r"[\w.\-]+(?:/[\w.\-*<>]*)+(?:#[\w-]+)?")
DOTTED = re.compile(r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?:\(.*\))?")
TOP = {p.name for p in ROOT.iterdir() if not p.name.startswith(".")}


def _ticked() -> list[tuple[str, str]]:
    return [
        (doc.relative_to(ROOT).as_posix(), m.group(1))
        for doc in DOCS
        for m in TICKED.finditer(doc.read_text(encoding="utf-8"))
    ]


@cache
def _modules() -> dict[str, list[str]]:
    """Module short name -> the project's modules of that name (``services`` ->
    ``tables.services``, ``tables.history.services``, ...)."""
    found: dict[str, list[str]] = {}
    for package in PACKAGES:
        base = importlib.import_module(package)
        found.setdefault(package, []).append(package)
        for info in pkgutil.walk_packages(base.__path__, f"{package}."):
            if ".migrations" in info.name or ".tests" in info.name:
                continue
            found.setdefault(info.name.rsplit(".", 1)[1], []).append(info.name)
    return found


@cache
def _task_names() -> frozenset[str]:
    from rummy_site.celery import app

    app.loader.import_default_modules()  # the apps' tasks modules register their tasks
    return frozenset(app.tasks)


def _resolves(dotted: str) -> bool:
    if dotted in _task_names():
        return True
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def _name_problem(dotted: str) -> str | None:
    first, _, rest = dotted.partition(".")
    if dotted in NOT_PYTHON or first in OBJECTS or dotted.rsplit(".", 1)[1] in FILE_EXTENSIONS:
        return None
    if first in PACKAGES:
        return None if _resolves(dotted) else "no such Python name"
    modules = _modules().get(first)
    if modules and not any(_resolves(f"{m}.{rest}") for m in modules):
        return f"not an attribute of {' or '.join(modules)}"
    return None


def _path_problem(word: str) -> str | None:
    if word.split("/", 1)[0] not in TOP or "<" in word:
        return None
    path = word.split("#", 1)[0].rstrip("/")
    if "*" in path:
        return None if any(ROOT.glob(path)) else "no file matches"
    if (ROOT / path).exists():
        return None
    head, _, tail = path.rpartition("/")
    if "." in tail and not (ROOT / head / tail.replace(".", "/", 1)).exists():
        # a module's attribute written as a path: tables/history/views.deal_review
        module, _, attr = tail.partition(".")
        if (ROOT / head / f"{module}.py").exists():
            dotted = f"{head.replace('/', '.')}.{module}.{attr}"
            return None if _resolves(dotted) else "no such attribute"
    return "no such file or directory"


def test_the_heuristics_catch_what_moved() -> None:
    assert _path_problem("tables/services.py")  # a package now
    assert _path_problem("tables/web/views.py") is None
    assert _path_problem("tables/history/views.deal_review") is None
    assert _path_problem("tables/history/views.no_such_view")
    assert _name_problem("tables.live.realtime.table_broadcast") == "no such Python name"
    assert _name_problem("tables.services.table_join") is None
    assert _name_problem("services.no_such_service")
    assert _name_problem("services.table_create") is None
    assert _name_problem("state.phase") is None  # an object's field: left alone
    assert _name_problem("play.py") is None  # a file name
    assert _name_problem("ledger.payments.deposits_expire") is None  # a Celery task's name
    assert _name_problem("transaction.on_commit") is None  # not the project's


def test_every_name_the_docs_give_exists() -> None:
    problems = []
    checked = {"path": 0, "name": 0}
    for doc, word in _ticked():
        if "/" in word and PATH.fullmatch(word):
            kind, problem = "path", _path_problem(word)
        elif match := DOTTED.fullmatch(word):
            kind, problem = "name", _name_problem(match.group(1))
        else:
            continue
        checked[kind] += 1
        if problem:
            problems.append(f"{doc}: `{word}`: {problem}")
    assert not problems, "\n".join(problems)
    # The docs name hundreds of paths and names: the heuristics must not have skipped them all.
    assert checked["path"] > 100 and checked["name"] > 100, checked
