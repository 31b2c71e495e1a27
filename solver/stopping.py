"""Long work in a thread that Ctrl-C stops cleanly: the main thread waits (Python takes
signals there) and, on Ctrl-C or a termination signal, asks the work to stop and waits for
it to end with what it has, so that nothing it owns is freed under it."""
import threading
from typing import Callable, Optional, Tuple, TypeVar

from .files import interrupts_held

T = TypeVar("T")
TICK = 0.1      # seconds between the waiting thread's ticks (progress, saves)


def run_stoppable(work: Callable[[threading.Event], T], tick: Optional[Callable[[], None]] = None,
                  on_stop: Optional[Callable[[], None]] = None) -> Tuple[Optional[T], bool]:
    """`work(stop)` run in a thread: what it returns, and whether a Ctrl-C (or a termination
    signal) stopped it. The first sets `stop` and calls `on_stop()`, then waits for the work
    to end (a second one comes after it: the work may own memory that its caller would free
    while it runs); an exception of the work is raised here.
    `tick()` every TICK seconds while it runs."""
    stop, done = threading.Event(), threading.Event()
    box: dict = {}

    def target() -> None:
        try:
            box["result"] = work(stop)
        except BaseException as exc:               # raised again in the caller's thread
            box["error"] = exc
        finally:
            done.set()

    # an event, not Thread.join: a join cut by Ctrl-C can leave the thread looking finished
    # while it still runs (CPython 3.11, bpo-45274's fix)
    thread = threading.Thread(target=target, daemon=True)
    try:
        with interrupts_held():     # a Ctrl-C while the thread starts comes once it runs
            thread.start()
        while not done.wait(TICK):
            if tick is not None:
                tick()
    except KeyboardInterrupt:
        stop.set()
        if on_stop is not None:
            on_stop()
        with interrupts_held():     # a second Ctrl-C comes once the work has ended
            done.wait()
    if "error" in box:
        raise box["error"]
    return box.get("result"), stop.is_set()
