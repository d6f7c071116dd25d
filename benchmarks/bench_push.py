"""Benchmark of one move's server work at a 6-seat table, in process, without the network.

Run from the repository root::

    .venv/bin/python benchmarks/bench_push.py [--moves 300]

Sets up a throw-away database (SQLite in memory, the in-memory channel layer), seats six
players at a Pool 101 table with every seat's socket counted open (``presence``), then plays
``--moves`` moves (pick from the closed deck, discard the card drawn) the way the page does:
``POST /tables/<id>/act`` through Django's test client (the session, the middleware, the view,
the service, the commit and the pushes after it). Printed, per move, in CPU time
(``time.thread_time``): the whole request, and the pushes' own share; the renders per move
(felt and fragments, ``tables.live.realtime.renders``); the bytes of the felt and of a fragment
as rendered; and the frames the sockets get, as the consumer sends them (its version marker and
the felt, or the felt's regions that changed, to each of the six sockets; a fragment to its own
seat's socket): the median frame to a seat and all the frames of one move.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=300)
    args = parser.parse_args()
    from benchmarks.in_memory import django_in_memory

    django_in_memory()
    run(args.moves)


FORM = "application/x-www-form-urlencoded"


def six_seat_table(name: str) -> tuple[Any, list[Any]]:
    """A practice Pool 101 table of six seats with long turns, every seat taken by a funded
    player ``<name>0`` to ``<name>5``: the game has started."""
    from django.contrib.auth import get_user_model

    from ledger.services import wallet_deposit
    from tables import services
    from tables.models import TableTemplate

    template = TableTemplate.objects.create(
        name=f"Bench pool {name}",
        variant="pool101",
        currency="practice",
        practice=True,
        entry_fee=100,
        seats_min=6,
        seats_max=6,
        turn_s=600,
        extra_time_s=0,
        bot_count=0,
    )
    table = services.table_create(template=template, name=f"Bench table {name}")
    users = []
    for i in range(6):
        user = get_user_model().objects.create_user(username=f"{name}{i}", password="x" * 12)
        wallet_deposit(user=user, currency="practice", amount=10**7, idempotency_key=f"{name}:{i}")
        services.table_join(table=table, user=user, seat_no=i + 1)
        users.append(user)
    return table, users


def run(moves: int) -> None:
    import re
    from urllib.parse import urlencode

    from django.test import Client

    from tables.engines import engine_of, game_state
    from tables.live import fanout, presence, realtime
    from tables.models import Game
    from tables.rules.game import GameState

    table, users = six_seat_table("bench")
    for user in users:
        presence.socket_opened(table_id=table.pk, user_id=user.pk)
    clients = []
    for user in users:
        client = Client()
        client.force_login(user)
        clients.append(client)
    url = f"/tables/{table.pk}/act"
    cpu: list[float] = []
    push_cpu: list[float] = []
    renders = {"felt": 0, "seat": 0}
    sizes: dict[str, list[int]] = {"felt": [], "seat": []}
    original_felt, original_seat = realtime.render_felt, realtime.render_seat

    render_cpu: dict[str, list[float]] = {"felt": [], "seat": []}

    def felt(context: Any) -> str:
        started = time.thread_time()
        html = original_felt(context)
        render_cpu["felt"].append(time.thread_time() - started)
        sizes["felt"].append(len(html.encode()))
        if os.environ.get("BENCH_DUMP_FELT"):
            Path(os.environ["BENCH_DUMP_FELT"]).write_text(html)
        return html

    def seat(*a: Any, **k: Any) -> str:
        started = time.thread_time()
        html = original_seat(*a, **k)
        render_cpu["seat"].append(time.thread_time() - started)
        sizes["seat"].append(len(html.encode()))
        if os.environ.get("BENCH_DUMP"):
            Path(os.environ["BENCH_DUMP"]).write_text(html)
        return html

    realtime.render_felt, realtime.render_seat = felt, seat

    frames: list[int] = []  # every frame a socket gets
    move_bytes: list[int] = []  # all the frames of one move
    publish = fanout.table_publish

    async def counted(table_id: int, outbox: list[dict[str, Any]]) -> None:
        total = 0
        for event in outbox:
            kind = "felt" if event["type"] == "table.felt" else "seat"
            # The frames as the consumer sends them (encoded once by the push).
            if kind == "felt":
                body = event["frames"]["en"] if event["frames"] else event["bare"]
                frames.extend([len(body.encode())] * len(users))
                total += len(body.encode()) * len(users)
            else:
                body = event["frame"]
                frames.append(len(body.encode()))
                total += len(body.encode())
            if os.environ.get("BENCH_DUMP_FRAMES"):
                with Path(os.environ["BENCH_DUMP_FRAMES"]).open("a") as dump:
                    dump.write(f"=== {kind} {len(body.encode())} bytes\n{body}\n")
        move_bytes.append(total)
        await publish(table_id, outbox)

    fanout.table_publish = counted  # type: ignore[assignment]
    push = realtime.table_push  # (read at run time: a profiler may wrap it)

    def timed_push(moved: Any) -> None:
        started = time.thread_time()
        if not os.environ.get("BENCH_NO_PUSH"):
            push(moved)
        push_cpu.append(time.thread_time() - started)

    from tables import events

    # The push alone, timed: the live push's own receiver is replaced by the timed one.
    events.table_moved.disconnect(dispatch_uid="tables.live.realtime.table_push")
    events.table_moved_subscribe(timed_push)
    for _ in range(moves):
        game = Game.objects.get(table=table)
        engine = engine_of(game.variant)
        state = game_state(game)
        # the deal is over (the closed deck ran out): stop there
        if not isinstance(state, GameState) or state.deal is None or state.deal.turn is None:
            break
        seat_no = state.deal.turn
        view = engine.view(state, seat_no)
        client = clients[seat_no - 1]
        data: dict[str, Any] = {"version": game.version, "game": game.pk}
        if "pick_closed" in view.allowed:
            data["action"] = "pick_closed"
        else:
            hand = view.hand
            assert hand is not None
            data["action"] = "discard"
            data["card"] = hand.picked or hand.groups[-1][-1]
        before = dict(realtime.renders)
        started = time.thread_time()
        response = client.post(url, urlencode(data), content_type=FORM, HTTP_HX_REQUEST="true")
        cpu.append(time.thread_time() - started)
        for kind in renders:
            renders[kind] += realtime.renders[kind] - before[kind]
        if response.status_code not in (200, 204):
            alert = re.findall(r'role="alert"[^>]*>([^<]*)', response.content.decode())
            raise SystemExit(f"move refused: {response.status_code} {data} {alert}")
        if Game.objects.get(table=table).status != "running":
            break
    done = len(cpu)
    print(f"moves: {done} at a 6-seat Pool 101 table, every seat's socket open")
    print(f"CPU per move (request + pushes): median {statistics.median(cpu) * 1000:.2f} ms")
    print(f"CPU of the pushes per move:      median {statistics.median(push_cpu) * 1000:.2f} ms")
    felts, fragments = renders["felt"] / done, renders["seat"] / done
    print(f"renders per move: felt {felts:.2f}, fragments {fragments:.2f}")
    print(
        f"frames: median {int(statistics.median(frames))} bytes to a socket; one move's frames"
        f" mean {statistics.mean(move_bytes) / 1000:.1f} KB, median"
        f" {statistics.median(move_bytes) / 1000:.1f} KB"
    )
    for kind in ("felt", "seat"):
        if sizes[kind]:
            print(
                f"{kind}: median {int(statistics.median(sizes[kind]))} bytes, render"
                f" {statistics.median(render_cpu[kind]) * 1000:.2f} ms CPU"
            )


if __name__ == "__main__":
    main()
