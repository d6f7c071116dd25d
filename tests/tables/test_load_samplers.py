"""The load harness's reading of a server's threads (``benchmarks.load_samplers``): which
thread of a process held the CPU over a level, the event loop's or the others'."""

from __future__ import annotations

import os
import threading
import time

from benchmarks.load_report import answer_windows, threads_line
from benchmarks.load_samplers import cpu_by_thread, thread_cores, with_descendants


def _burn(seconds: float) -> None:
    """Hold the CPU (and the interpreter) for about ``seconds`` of CPU time."""
    started = time.thread_time()
    while time.thread_time() - started < seconds:
        sum(range(1_000))


def test_the_thread_that_used_the_cpu_is_told_from_the_first_thread() -> None:
    pid = os.getpid()
    burnt, read = threading.Event(), threading.Event()

    def burn_then_wait() -> None:  # still listed when the threads are read, as a pool's are
        _burn(0.3)
        burnt.set()
        read.wait(5)

    before = cpu_by_thread(pid)
    started = time.monotonic()
    worker = threading.Thread(target=burn_then_wait)
    worker.start()
    assert burnt.wait(5)
    wall = time.monotonic() - started
    after = cpu_by_thread(pid)
    read.set()
    worker.join()

    loop, others = thread_cores(pid, before, after, wall)
    assert pid in after and worker.native_id in after
    assert others, "the burning thread's CPU was not seen"
    assert others[0] >= 0.25 / wall  # the CPU clock ticks by hundredths: some slack
    assert loop < others[0]  # the first thread only waited
    assert others == sorted(others, reverse=True)


def test_a_process_that_is_gone_has_no_threads() -> None:
    assert cpu_by_thread(2**22 + 12_345) == {}


def test_thread_cores_counts_new_threads_from_nothing_and_leaves_out_idle_ones() -> None:
    before = {100: 1.0, 101: 2.0, 102: 5.0}
    after = {100: 1.5, 101: 2.0, 102: 6.0, 103: 0.5}  # 103 started during the level
    loop, others = thread_cores(100, before, after, 2.0)
    assert loop == 0.25
    assert others == [0.5, 0.25]  # 102, then 103; 101 used nothing


def test_the_report_line_names_each_process_loop_and_its_busiest_threads() -> None:
    line = threads_line([(0.16, [0.18, 0.17, 0.17]), (0.4, [])])
    assert line == (
        "cores held by each server process's threads: event loop 0.16, 3 other threads 0.52"
        " (0.18, 0.17, 0.17); event loop 0.40, 0 other threads 0.00"
    )
    one = threads_line([(0.08, [0.3])])
    assert one.endswith("event loop 0.08, 1 other thread 0.30 (0.30)")
    many = threads_line([(0.1, [0.1] * 8)])
    assert many.endswith("8 other threads 0.80 (0.10, 0.10, 0.10, 0.10, 0.10, 0.10, ...)")


def test_answers_are_grouped_by_the_window_their_move_was_sent_in() -> None:
    sent_at = [0.5, 3.0, 9.9, 10.0, 25.0]
    answers = [0.900, 0.100, 0.300, 0.010, 0.020]

    windows = answer_windows(sent_at, answers, 10.0)

    assert [(start, moves) for start, moves, _p50, _p99 in windows] == [
        (0.0, 3),
        (10.0, 1),
        (20.0, 1),
    ]
    first = windows[0]
    assert first[2] == 300.0  # the middle of 100, 300 and 900 ms
    assert first[3] == 900.0
    assert windows[1][2:] == (10.0, 10.0)


def test_a_proxy_given_by_its_supervisor_counts_the_processes_under_it() -> None:
    """A child that starts a grandchild (as a supervisor starts nginx's master, which starts its
    workers): both are found under the first."""
    import subprocess
    import sys

    script = (
        "import subprocess, sys, time\n"
        "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)'])\n"
        "print(p.pid, flush=True)\n"
        "time.sleep(30)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        grandchild = int(child.stdout.readline())
        found = with_descendants([child.pid])
        assert found[0] == child.pid and grandchild in found
        assert with_descendants([os.getpid()])[0] == os.getpid()
        assert child.pid in with_descendants([os.getpid()])
    finally:
        os.kill(grandchild, 15)
        child.kill()
        child.wait()
