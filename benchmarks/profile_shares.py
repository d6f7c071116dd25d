"""Where a server's CPU goes: shares of a py-spy profile by part of the stack.

Record a running web process under the load harness, then read the shares::

    .venv/bin/py-spy record --pid <daphne> --duration 30 --rate 200 --format raw \\
        --output /tmp/daphne.txt --nonblocking
    .venv/bin/python benchmarks/profile_shares.py /tmp/daphne.txt

A sample counts for the first part (in the order below) that any frame of its stack belongs to,
so the shares add up to 100 %: rendering a template inside a push counts as templates. With
``--by leaf`` a sample counts for the part of its innermost frame that belongs to one (the
library doing the work: a push's Redis round trip counts as the channel layer even though the
push runs inside the database's commit hooks); with ``--by activity``, for what the process
was doing (a move's request, the pushes after it, a page's GET, a socket...).
"""

from __future__ import annotations

import argparse
from collections import Counter

# (part, substrings of a frame "function (file:line)"), the first that matches wins.
PARTS: list[tuple[str, tuple[str, ...]]] = [
    ("templates (rendering)", ("django/template/", "template_partials/", "templatetags/")),
    ("rules engine", ("tables/rules/",)),
    ("ORM: building and reading queries", ("django/db/models/",)),
    ("database driver and round trips", ("psycopg", "django/db/backends/")),
    ("channel layer and Redis", ("channels_redis", "redis/", "msgpack")),
    ("WebSocket frames (autobahn, twisted)", ("autobahn/", "websocket")),
    ("HTTP server (daphne, twisted)", ("daphne/", "twisted/")),
    ("translations", ("django/utils/translation",)),
    ("sessions, auth, middleware", ("django/contrib/", "django/middleware", "axes/", "csp/")),
    ("asgiref (sync/async hops)", ("asgiref/",)),
    ("the project's own code", ("tables/", "ledger/", "accounts/", "rummy_site/")),
    ("event loop", ("asyncio/",)),
]


# What the process was doing, the first that any frame of the stack matches.
ACTIVITIES: list[tuple[str, tuple[str, ...]]] = [
    ("pushes after a commit (felt, parts)", ("table_push ",)),
    ("lobby pushes", ("tables/live/lobby.py",)),
    ("a move's request (POST /act)", ("table_act ",)),
    ("a page's view (GET /view, the table page)", ("table_view ", "table_detail ")),
    ("sockets (connect, presence, frames)", ("tables/live/consumers.py", "autobahn/")),
    ("other requests", ("django/core/handlers/",)),
    ("the channel layer's receive loop", ("channels_redis", "channels/")),
    ("HTTP server (daphne, twisted)", ("daphne/", "twisted/")),
]
OTHER = "other (idle, interpreter, libraries)"


def _part_of(frame: str, parts: list[tuple[str, tuple[str, ...]]]) -> str | None:
    for part, needles in parts:
        if any(needle in frame for needle in needles):
            return part
    return None


def shares(lines: list[str], by: str = "part") -> tuple[Counter[str], int]:
    counts: Counter[str] = Counter()
    total = 0
    for line in lines:
        stack, _, samples = line.rstrip().rpartition(" ")
        if not stack or not samples.isdigit():
            continue
        n = int(samples)
        total += n
        if by == "leaf":
            found = next(
                (
                    part
                    for frame in reversed(stack.split(";"))
                    if (part := _part_of(frame, PARTS)) is not None
                ),
                None,
            )
        else:
            found = _part_of(stack, ACTIVITIES if by == "activity" else PARTS)
        counts[found or OTHER] += n
    return counts, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("profile", help="py-spy's raw (collapsed stacks) output")
    parser.add_argument("--by", choices=("part", "leaf", "activity"), default="part")
    args = parser.parse_args()
    with open(args.profile) as handle:
        counts, total = shares(handle.readlines(), args.by)
    if not total:
        raise SystemExit("no samples in the profile")
    print(f"{total} samples")
    for part, n in counts.most_common():
        print(f"{n / total * 100:5.1f} %  {part}")


if __name__ == "__main__":
    main()
