"""The processes of scripts/start run under honcho (Procfile), each kept alive by
scripts/keep-running: a worker that dies is started again and daphne keeps serving."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.live_server import free_port, server_env
from tests.processes import alive, wait_for

ROOT = Path(__file__).resolve().parents[2]
KEEP_RUNNING = ROOT / "scripts" / "keep-running"


def _descendants(root: int) -> dict[int, str]:
    """pid -> command line of every process below ``root``."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: dict[int, str] = {}
    frontier = [root]
    while frontier:
        pid = frontier.pop()
        for child, parent in parents.items():
            if parent == pid and child not in found:
                try:
                    cmdline = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ")
                except OSError:
                    continue
                found[child] = cmdline.decode(errors="replace")
                frontier.append(child)
    return found


def test_keep_running_restarts_a_dead_command_and_stops_on_term(tmp_path):
    pids = tmp_path / "pids"
    loop = subprocess.Popen(
        [str(KEEP_RUNNING), "sh", "-c", f"echo $$ >> {pids}; exec sleep 60"],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = int(wait_for(lambda: pids.exists() and pids.read_text().split(), 10, "start")[0])
        os.kill(first, signal.SIGKILL)
        lines = wait_for(
            lambda: len(pids.read_text().split()) >= 2 and pids.read_text().split(), 10, "restart"
        )
        second = int(lines[1])
        assert second != first
        loop.send_signal(signal.SIGTERM)
        assert loop.wait(timeout=10) == 0
        with pytest.raises(ProcessLookupError):
            os.kill(second, 0)
        assert "starting it again" in loop.stderr.read()
    finally:
        if loop.poll() is None:
            loop.kill()


def test_keep_running_gives_up_on_a_command_that_keeps_failing():
    result = subprocess.run(
        [str(KEEP_RUNNING), "false"],
        env={**os.environ, "KEEP_RUNNING_MAX_FAST_FAILURES": "2"},
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert result.returncode == 1
    assert "giving up" in result.stderr


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status == 200
    except OSError:
        return False


def _worker_pids(honcho: int) -> set[int]:
    """The Celery worker main processes: a celery started by keep-running (not its pool)."""
    procs = _descendants(honcho)
    workers = set()
    for pid, cmd in procs.items():
        try:
            parent = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue
        if (
            "celery" in cmd
            and " worker" in cmd
            and "keep-running" not in cmd
            and "keep-running" in procs.get(parent, "")
        ):
            workers.add(pid)
    return workers


@pytest.mark.redis
def test_killing_the_worker_leaves_daphne_up_and_the_worker_comes_back(transactional_db):
    port = free_port()
    env = server_env(TIMERS_BACKEND="celery")
    env.pop("PORT", None)
    log = open(ROOT / "test-results-honcho.log", "a")  # noqa: SIM115
    command = [sys.executable, "-m", "honcho", "-f", "Procfile", "start", "-p", str(port)]
    honcho = subprocess.Popen(
        [*command, "web", "worker"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    health = f"http://127.0.0.1:{port}/healthz"
    try:
        wait_for(lambda: _healthy(health), 60, "daphne under honcho")
        first = wait_for(lambda: _worker_pids(honcho.pid), 60, "the celery worker")
        assert len(first) == 1
        os.kill(next(iter(first)), signal.SIGKILL)
        # The site stays up while the worker is down and after it is back.
        assert _healthy(health)
        again = wait_for(lambda: _worker_pids(honcho.pid) - first, 60, "a new celery worker")
        assert len(again) == 1
        assert honcho.poll() is None
        assert _healthy(health)
    finally:
        honcho.send_signal(signal.SIGINT)
        try:
            honcho.wait(timeout=30)
        except subprocess.TimeoutExpired:
            honcho.kill()
            honcho.wait()
        log.close()
    assert not _healthy(health)


def test_a_killed_command_leaves_no_orphan_behind(tmp_path):
    """Issue 21, point 11: kill -9 of the command (a Celery worker) also ends the children it
    started (its pool), which would otherwise run on as orphans."""
    pids, orphans = tmp_path / "pids", tmp_path / "orphans"
    script = f"sleep 300 & echo $! >> {orphans}; echo $$ >> {pids}; wait"
    loop = subprocess.Popen([str(KEEP_RUNNING), "sh", "-c", script], stderr=subprocess.PIPE)
    try:
        wait_for(
            lambda: orphans.exists() and pids.exists() and pids.read_text().split(), 10, "start"
        )
        first, orphan = int(pids.read_text().split()[0]), int(orphans.read_text().split()[0])
        assert alive(orphan)
        os.kill(first, signal.SIGKILL)
        wait_for(lambda: not alive(orphan), 15, "the orphan to be ended")
        # The command is started again, and TERM ends its whole group too.
        wait_for(lambda: len(orphans.read_text().split()) >= 2, 15, "the restart")
        second_orphan = int(orphans.read_text().split()[1])
        loop.send_signal(signal.SIGTERM)
        assert loop.wait(timeout=20) == 0
        assert not alive(second_orphan)
    finally:
        if loop.poll() is None:
            loop.kill()


def test_a_command_that_ignores_term_is_killed_after_the_grace_period(tmp_path):
    """A command that hangs on its way out (daphne waiting on a thread, say) does not hold the
    stop up, nor outlive it: keep-running kills its group once KEEP_RUNNING_STOP_GRACE_S has
    passed after the stop signal."""
    pids = tmp_path / "pids"
    script = f"trap '' TERM INT; echo $$ >> {pids}; while :; do sleep 0.1; done"
    loop = subprocess.Popen(
        [str(KEEP_RUNNING), "sh", "-c", script],
        env={**os.environ, "KEEP_RUNNING_STOP_GRACE_S": "1"},
        stderr=subprocess.PIPE,
    )
    try:
        command = int(wait_for(lambda: pids.exists() and pids.read_text().split(), 10, "start")[0])
        loop.send_signal(signal.SIGTERM)
        time.sleep(0.5)
        assert alive(command), "the command ignores TERM: it is still there within the grace"
        assert loop.wait(timeout=10) == 0
        assert not alive(command)
    finally:
        if loop.poll() is None:
            loop.kill()


def test_keep_running_stops_at_once_and_nothing_of_it_holds_its_output(tmp_path):
    """A command that stops on TERM (in half a second, as daphne closes its sockets) stops the
    loop at once, and nothing keep-running started (its grace period's timer included) is left
    holding its output: honcho waits for every holder of a process's output before it calls
    the process stopped."""
    ready = tmp_path / "ready"
    script = f"trap 'sleep 0.5; exit 0' TERM; touch {ready}; while :; do sleep 0.1; done"
    loop = subprocess.Popen(
        [str(KEEP_RUNNING), "sh", "-c", script], stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        wait_for(ready.exists, 10, "start")
        started = time.monotonic()
        loop.send_signal(signal.SIGTERM)
        assert loop.wait(timeout=10) == 0
        assert loop.stdout is not None
        loop.stdout.read()  # the end of the output: no process holds it any more
        assert time.monotonic() - started < 5  # the grace period is 10 s
    finally:
        if loop.poll() is None:
            loop.kill()
