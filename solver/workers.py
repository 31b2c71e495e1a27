"""Worker processes that take one task at a time over a pipe, for work that must survive the
loss of a worker (a batch's solves, a tournament's games).

The parent hands each worker one task, waits on every busy worker's pipe and process at
once, and passes each result on as it comes. A worker that dies with its task (killed, out
of memory) is seen at once (its process sentinel): it is replaced, and `on_death` says
whether its task goes to the new worker. Workers ignore Ctrl-C: the parent stops on it
(KeyboardInterrupt) and terminates them (kills one that outlives SIGTERM). A worker whose parent died stops: an idle one
within `PARENT_CHECK_SECONDS`, a busy one when its work next calls `watch()` (which raises
KeyboardInterrupt once the parent is gone).
"""
import multiprocessing
import os
import signal
from collections import deque
from multiprocessing.connection import wait
from typing import Any, Callable, Deque, Dict, List, Optional

PARENT_CHECK_SECONDS = 0.5     # how often an idle worker checks that its parent lives
STOP_SECONDS = 5.0             # a worker still running this long after SIGTERM is killed

# work(task, watch) -> the task's result, or None to stop the worker (a search stopped by
# `watch`); it runs in the worker, and its result is pickled back to the parent
Work = Callable[[Any, Callable[..., None]], Any]


def _worker_main(conn, work: Work, parent: int) -> None:
    """A worker: do each task received, send back its result; stop at None, at the end of
    the pipe, or when the parent is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # the parent stops the work on Ctrl-C
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})

    def watch(*_):
        if os.getppid() != parent:                   # orphaned: stop the work
            raise KeyboardInterrupt

    while True:
        try:
            # waits in short steps: a worker forked later holds this pipe's other end too,
            # so the end of the parent alone need not close it
            while not conn.poll(PARENT_CHECK_SECONDS):
                if os.getppid() != parent:
                    return
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        result = work(task, watch)
        if result is None:
            return
        try:
            conn.send(result)
        except OSError:
            return


class Unwatched:
    """Work that never stops early: `fn(task)` (it pickles where workers are spawned when
    `fn` does)."""

    def __init__(self, fn: Callable[[Any], Any]):
        self.fn = fn

    def __call__(self, task: Any, watch: Callable[..., None]) -> Any:
        return self.fn(task)


class Worker:
    def __init__(self, context, number: int, work: Work, name: str):
        self.number = number
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_worker_main, name=f"{name}-{number}",
                                       args=(child, work, os.getpid()), daemon=True)
        # started with Ctrl-C held back, so that it never reaches the worker before the
        # worker ignores it (the terminal sends it to every process of the command)
        masks = hasattr(signal, "pthread_sigmask")          # not on Windows
        if masks:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            self.process.start()
        finally:
            if masks:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        child.close()
        self.task: Any = None

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.terminate()
            if hasattr(signal, "SIGCONT"):      # a stopped worker (Ctrl-Z, kill -STOP) too
                try:
                    os.kill(self.process.pid, signal.SIGCONT)
                except OSError:
                    pass
            self.process.join(STOP_SECONDS)
            if self.process.is_alive():         # deaf to SIGTERM: no wait without end
                self.process.kill()
        self.process.join()
        self.conn.close()


def fork_or_spawn():
    """Fork where the system has it (the work needs no pickling), else spawn."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def run_workers(next_task: Callable[[], Any], workers: int, work: Work, name: str,
                on_result: Callable[[Any, Any, int], None],
                on_death: Callable[[Any, Optional[int], int, int], bool],
                context=None) -> None:
    """Do every task `next_task()` gives (None: no more; tasks are hashable) with `work` in
    `workers` processes (the caller sizes it to the tasks): `on_result(task, result, worker
    number)` in this process as each ends; a worker dead with its task: `on_death(task, exit
    code, worker number, how many workers have died on that task)`, True to give the task
    again (to a fresh worker, before any new task)."""
    context = context or fork_or_spawn()
    again: Deque[Any] = deque()
    deaths: Dict[Any, int] = {}

    def take() -> Any:
        return again.popleft() if again else next_task()

    pool: List[Worker] = []
    try:
        for number in range(1, workers + 1):
            pool.append(Worker(context, number, work, name))

        def feed(k: int) -> None:
            task = pool[k].task = take()
            try:
                pool[k].conn.send(task)            # None: no more work
            except OSError:                        # it died before taking it: a fresh one
                pool[k].stop()
                pool[k] = Worker(context, pool[k].number, work, name)
                pool[k].task = task
                pool[k].conn.send(task)

        for k in range(len(pool)):
            feed(k)
        while any(w.task is not None for w in pool):
            busy = [w for w in pool if w.task is not None]
            ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy])
            for k, worker in enumerate(pool):
                if worker.task is None or not (worker.conn in ready
                                               or worker.process.sentinel in ready):
                    continue
                try:
                    result = worker.conn.recv() if worker.conn.poll() else None
                except (EOFError, OSError):
                    result = None
                if result is None:                 # the worker died with its task
                    worker.process.join()
                    deaths[worker.task] = deaths.get(worker.task, 0) + 1
                    if on_death(worker.task, worker.process.exitcode, worker.number,
                                deaths[worker.task]):
                        again.append(worker.task)
                    worker.stop()
                    pool[k] = Worker(context, worker.number, work, name)
                else:
                    on_result(worker.task, result, worker.number)
                feed(k)
    finally:
        for worker in pool:
            worker.stop()
