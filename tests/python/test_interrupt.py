"""Long calls: a progress callback's exception ends the call and propagates; Ctrl-C
(SIGINT) interrupts a running sweep, and a single long integration, with KeyboardInterrupt;
the interpreter survives both."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import libcont


class Stop(Exception):
    pass


def raise_at(count):
    calls = []

    def progress(report):
        calls.append(report)
        if len(calls) >= count:
            raise Stop("enough")
    return progress, calls


def test_callback_exception_stops_a_branch():
    progress, calls = raise_at(2)
    with pytest.raises(Stop, match="enough"):
        libcont.continue_branch(libcont.system("two-body", contact="hertz"), "lambda", 1.0, 0.1,
                                progress=progress)
    # The interpreter and the library go on working.
    assert libcont.system("moving-base")["omega"] > 0


def test_callback_exception_stops_a_sweep():
    progress, calls = raise_at(1)
    start = time.monotonic()
    with pytest.raises(Stop):
        libcont.sweep(libcont.system("moving-base"), "omega", 2.0, 10.0, steps=200, transient=100,
                      periods=100, progress=progress)
    assert time.monotonic() - start < 30


def test_callback_exception_stops_a_simulation_and_basins():
    progress, _ = raise_at(1)
    with pytest.raises(Stop):
        libcont.simulate(libcont.system("moving-base"), t_end=1e5, sample_step=1.0,
                         progress=progress)
    progress, _ = raise_at(1)
    with pytest.raises(Stop):
        libcont.basins(libcont.system("moving-base"), x=("x", -0.1, 0.1, 30),
                       y=("v", -0.5, 0.5, 30), transient=200, progress=progress)


def test_progress_must_be_callable():
    with pytest.raises(TypeError, match="progress"):
        libcont.sweep(libcont.system("moving-base"), "omega", 2.0, 3.0, steps=2, progress=3)


def interrupted_after(call, wait=0.0):
    """Runs `call` (Python text using libcont; it prints "running" once it runs) in a child
    interpreter, sends SIGINT `wait` seconds after that line, and returns how long the child
    took from the signal to its end, having checked that the call raised KeyboardInterrupt."""
    script = textwrap.dedent("""
        import sys, libcont
        def progress(report):
            print("running", flush=True)
        try:
            {call}
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(7)
        print("finished", flush=True)
    """).format(call=call)
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=os.environ.copy())
    try:
        assert child.stdout.readline().strip() == "running"
        time.sleep(wait)
        child.send_signal(signal.SIGINT)
        start = time.monotonic()
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 7, err
    assert "interrupted" in out
    return time.monotonic() - start


@pytest.mark.parametrize("threads", [1, 2])
def test_sigint_interrupts_a_long_sweep(threads):
    elapsed = interrupted_after(
        'libcont.sweep(libcont.system("moving-base"), "omega", 2.0, 10.0, steps=400, '
        f'periods=20000, threads={threads}, progress=progress)')
    # The points already running end at their next integration step; no new one starts
    # (a point of 20000 periods takes about 0.04 s on the exact path: 5 s is the budget of a
    # loaded machine, not of the points).
    assert elapsed < 5


def test_sigint_interrupts_one_long_lyapunov_run():
    """A single integration (no progress reports): the flow itself checks for Ctrl-C."""
    elapsed = interrupted_after(
        'progress(None); '
        'libcont.lyapunov(libcont.system("moving-base"), transient=10**5, periods=10**7)', wait=1.0)
    # 10^7 periods take about 20 s; the interrupt ends the run at once.
    assert elapsed < 5


def test_the_gil_is_released_while_computing():
    """Another Python thread keeps running while a sweep computes."""
    import threading
    s = libcont.system("moving-base")
    # About a second of points (300000 periods each): a sweep held under the GIL would let
    # the loop below tick once or not at all, whatever its length.
    worker = threading.Thread(target=libcont.sweep,
                              args=(s, "omega", 2.0, 10.0, 8), kwargs={"periods": 300000})
    ticks = 0
    worker.start()
    while worker.is_alive():
        ticks += 1
        time.sleep(0.002)
    worker.join()
    assert ticks > 50
