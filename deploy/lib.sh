# Shared by deploy/up, deploy/down and deploy/restart-web (sourced, not run).

# start NAME COMMAND...: run COMMAND under scripts/keep-running in its own session, its output
# in $RUN_DIR/logs/NAME.log and the keeper's pid in $RUN_DIR/pids/NAME.pid.
start() {
  local name=$1
  shift
  mkdir -p "$RUN_DIR/logs" "$RUN_DIR/pids"
  setsid scripts/keep-running "$@" >>"$RUN_DIR/logs/$name.log" 2>&1 </dev/null &
  echo $! >"$RUN_DIR/pids/$name.pid"
}

# wait_port HOST PORT WHAT: until something listens there (30 s).
wait_port() {
  for _ in $(seq 300); do
    if timeout 1 bash -c "exec 3<>/dev/tcp/$1/$2" 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "deploy: $3 did not listen on $1:$2 (see $RUN_DIR/logs)" >&2
  return 1
}

# wait_healthy URL WHAT: until URL answers 200 (60 s).
wait_healthy() {
  for _ in $(seq 300); do
    if .venv/bin/python -c "import sys, urllib.request as r; sys.exit(r.urlopen(sys.argv[1], timeout=2).status != 200)" "$1" 2>/dev/null; then
      return 0
    fi
    sleep 0.2
  done
  echo "deploy: $2 is not healthy at $1 (see $RUN_DIR/logs)" >&2
  return 1
}

# child_of PID: the command a keep-running keeper runs now.
child_of() {
  pgrep -P "$1" | head -1
}

# wait_gone PID SECONDS: until PID has exited; fails if it is still there after SECONDS.
wait_gone() {
  local waited=0
  while kill -0 "$1" 2>/dev/null; do
    if ((waited >= $2 * 20)); then return 1; fi
    sleep 0.05
    waited=$((waited + 1))
  done
}

# stop NAME: TERM its keeper (which stops its command and exits) and wait up to 30 s.
stop() {
  local pidfile="$RUN_DIR/pids/$1.pid"
  [[ -f "$pidfile" ]] || return 0
  local pid
  pid="$(cat "$pidfile")"
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    if ! wait_gone "$pid" 30; then
      echo "deploy: $1 did not stop in 30 s; killing it" >&2
      local child
      child="$(child_of "$pid")"
      kill -KILL "$pid" ${child:+"$child"} 2>/dev/null || true
    fi
  fi
  rm -f "$pidfile"
}
