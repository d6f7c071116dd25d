"""deploy/restart-web restarts the web processes one at a time: each gets SIGTERM, its keeper
(scripts/keep-running) starts it again, and the next goes once it answers /healthz. A process
that does not exit after its SIGTERM (one that hangs on its way out) is killed after
RESTART_STOP_TIMEOUT_S instead of holding the restart up for ever."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.live_server import free_port
from tests.processes import alive, wait_for

ROOT = Path(__file__).resolve().parents[2]
KEEP_RUNNING = ROOT / "scripts" / "keep-running"
RESTART_WEB = ROOT / "deploy" / "restart-web"

# A stand-in web process: answers 200 on /healthz, writes its pid, and with "ignore" set does
# not exit on SIGTERM.
WEB = """
import http.server, os, signal, sys
port, pids, ignore = int(sys.argv[1]), sys.argv[2], sys.argv[3] == "ignore"
if ignore:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
class Health(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200 if self.path == "/healthz" else 404)
        self.end_headers()
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(("127.0.0.1", port), Health)
server.allow_reuse_address = True
with open(pids, "a") as f:
    f.write(f"{os.getpid()}\\n")
server.serve_forever()
"""


def _pids(path: Path) -> list[int]:
    return [int(p) for p in path.read_text().split()] if path.exists() else []


@pytest.mark.parametrize("ignore", [True, False], ids=["hangs-on-term", "exits-on-term"])
def test_restart_web_restarts_a_process_and_kills_one_that_hangs(tmp_path, ignore):
    port = free_port()
    run_dir = tmp_path / "run"
    (run_dir / "pids").mkdir(parents=True)
    web, pids = tmp_path / "web.py", tmp_path / "web.pids"
    web.write_text(WEB)
    mode = "ignore" if ignore else "exit"
    keeper = subprocess.Popen(
        [str(KEEP_RUNNING), sys.executable, str(web), str(port), str(pids), mode],
        env={**os.environ, "KEEP_RUNNING_STOP_GRACE_S": "1"},
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        (run_dir / "pids" / "web1.pid").write_text(f"{keeper.pid}\n")
        first = wait_for(lambda: _pids(pids), 10, "the web process")[0]
        result = subprocess.run(
            [str(RESTART_WEB), "0"],
            cwd=ROOT,
            env={
                **os.environ,
                "RUN_DIR": str(run_dir),
                "WEB_PORTS": str(port),
                "WEB_HOST": "127.0.0.1",
                "RESTART_STOP_TIMEOUT_S": "1",
            },
            capture_output=True,
            text=True,
            timeout=90,
            check=False,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        killed = "did not exit 1 s after SIGTERM; killing it" in result.stdout
        assert killed is ignore, result.stdout
        assert "serving again" in result.stdout
        assert not alive(first)
        now = _pids(pids)
        assert len(now) == 2 and now[1] != first and alive(now[1])
    finally:
        os.killpg(keeper.pid, signal.SIGTERM)
        try:
            keeper.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(keeper.pid, signal.SIGKILL)
            keeper.wait()
