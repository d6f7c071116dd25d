"""``manage.py bench_setup --tables N --seats 6 [--deal D] --out FILE``: the fixture the load
harness (``benchmarks/load.py``) plays on.

Creates (or reuses) N practice tables of a "Bench" template (no computer players, long turn
timers so the clock never plays), seats ``bench-<table>-<seat>`` players at each (the games
start at once), opens a logged-in session per player, and writes the table ids with each
player's session key to FILE as JSON. The harness then plays over HTTP and WebSockets like
the page does; the sessions spare the server a password hash per player, which is not what the
benchmark measures. With ``--deal D``, each game is brought to its deal D first (in each deal
before it every player but one drops), so that the moves played carry what a game's later
deals show: the last deal's result sheet and the scoreboard. For a benchmark database only:
never run it against a real site.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils.module_loading import import_string

from ledger.services.cashier import practice_chips_welcome_grant
from tables import services
from tables.engines import game_state
from tables.models import Game, GameStatus, Seat, Table, TableTemplate
from tables.rules.game import GameState


def bench_deal_reach(*, table: Table, deal: int) -> None:
    """Bring the table's running game to its deal number ``deal``: in each deal before it,
    every player but one drops in turn; each break between deals is let run out."""
    while True:
        game = Game.objects.get(table=table, status=GameStatus.RUNNING)
        state = game_state(game)
        if not isinstance(state, GameState):
            raise CommandError(f"table {table.pk}: not a 13-card game")
        turn = state.deal.turn if state.deal is not None else None
        if turn is not None and state.deal_number >= deal:
            return
        if turn is not None:
            user = Seat.objects.get(game=game, seat_no=turn).user
            services.game_act(
                game_id=game.pk, user=user, action="drop", expected_version=game.version
            )
        elif state.deadline is not None:  # the break: deal at its end
            services.deal_start(game=game, now=float(state.deadline))
        else:
            raise CommandError(f"table {table.pk}: the game is over before deal {deal}")


class Command(BaseCommand):
    help = "Create the tables, players and sessions the load harness plays on (benchmarks)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--tables", type=int, default=10)
        parser.add_argument("--seats", type=int, default=6)
        parser.add_argument("--deal", type=int, default=1, help="the deal the games are in")
        parser.add_argument("--out", required=True)

    def handle(self, *args: Any, **options: Any) -> None:
        count, seats = int(options["tables"]), int(options["seats"])
        if not 1 <= count <= 1000 or not 2 <= seats <= 6:
            raise CommandError("--tables must be 1..1000 and --seats 2..6")
        template, _ = TableTemplate.objects.update_or_create(
            name=f"Bench {seats}",
            defaults={
                "variant": "pool101",
                "practice": True,
                "currency": "practice",
                "entry_fee": 100,
                "seats_min": seats,
                "seats_max": seats,
                "bot_count": 0,
                "human_wait_s": 0,
                "turn_s": 3600,
                "extra_time_s": 0,
                "min_open_tables": 0,
                "max_tables": 1000,
                "is_active": True,
            },
        )
        user_model = get_user_model()
        store = import_string(f"{settings.SESSION_ENGINE}.SessionStore")
        fixture = []
        for n in range(1, count + 1):
            table = services.table_create(template=template, name=f"Bench {seats} #{n}")
            players = []
            for seat in range(1, seats + 1):
                user, _ = user_model.objects.get_or_create(
                    username=f"bench-{table.pk}-{seat}",
                    defaults={"display_name": f"Bench {n}.{seat}"},
                )
                practice_chips_welcome_grant(user=user)  # as a sign-up: chips for the entry
                services.table_join(table=table, user=user, seat_no=seat)
                session = store()
                session[SESSION_KEY] = str(user.pk)
                session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
                session[HASH_SESSION_KEY] = user.get_session_auth_hash()
                session.create()
                players.append({"seat": seat, "user_id": user.pk, "session": session.session_key})
            if int(options["deal"]) > 1:
                bench_deal_reach(table=table, deal=int(options["deal"]))
            fixture.append({"table_id": table.pk, "players": players})
        Path(options["out"]).write_text(json.dumps(fixture))
        self.stdout.write(f"{count} tables of {seats} seated; fixture written to {options['out']}")
