"""Where a server's CPU goes: shares of a py-spy profile by part of the stack.

Record a running web process under the load harness, then read the shares::

    .venv/bin/py-spy record --pid <daphne> --duration 30 --rate 200 --format raw \\
        --output /tmp/daphne.txt --nonblocking
    .venv/bin/python benchmarks/profile_shares.py /tmp/daphne.txt

A sample counts for the first part (in the order below) that any frame of its stack belongs to,
so the shares add up to 100 %: rendering a template inside a push counts as templates, the
push's Redis round trip as the channel layer.
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


def shares(lines: list[str]) -> tuple[Counter[str], int]:
    counts: Counter[str] = Counter()
    total = 0
    for line in lines:
        stack, _, samples = line.rstrip().rpartition(" ")
        if not stack or not samples.isdigit():
            continue
        n = int(samples)
        total += n
        for part, needles in PARTS:
            if any(needle in stack for needle in needles):
                counts[part] += n
                break
        else:
            counts["other (idle, interpreter, libraries)"] += n
    return counts, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("profile", help="py-spy's raw (collapsed stacks) output")
    args = parser.parse_args()
    with open(args.profile) as handle:
        counts, total = shares(handle.readlines())
    if not total:
        raise SystemExit("no samples in the profile")
    print(f"{total} samples")
    for part, n in counts.most_common():
        print(f"{n / total * 100:5.1f} %  {part}")


if __name__ == "__main__":
    main()
