"""`solver.stopping.run_stoppable`: work in a thread that Ctrl-C stops with what it has."""
import threading

import pytest

from solver import stopping


def test_unstopped_work_returns_its_result():
    assert stopping.run_stoppable(lambda stop: 42) == (42, False)


def test_ctrl_c_asks_the_work_to_stop_and_waits_for_its_answer():
    """The first Ctrl-C (here the tick's) sets `stop` and calls `on_stop`; the work ends on
    its own time with what it has, and its answer comes back marked as stopped."""
    asked = []

    def work(stop: threading.Event) -> str:
        stop.wait(30)
        return "so far" if stop.is_set() else "timed out"

    def tick() -> None:
        raise KeyboardInterrupt

    assert stopping.run_stoppable(work, tick, lambda: asked.append(True)) == ("so far", True)
    assert asked == [True]


def test_the_work_s_exception_is_raised_in_the_caller():
    def work(stop):
        raise MemoryError("too big")

    with pytest.raises(MemoryError, match="too big"):
        stopping.run_stoppable(work)
