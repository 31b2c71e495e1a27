"""A batch on a Dask distributed cluster (`nimmt batch solve --scheduler ADDRESS`): for work
that outgrows one machine.

The positions are submitted to the cluster's scheduler, each solved by `runner.solve_task` on
a worker thread, and every result is appended to the results file here, as it comes, exactly
as a local batch does (the same lines, resume and Ctrl-C). Dask is an optional dependency
(the `batch` extra): it is imported only when a scheduler is given. Every worker needs this
package, at the same version, importable.
"""
import time
import uuid
from typing import Any, Callable, Dict, List, Optional

from .. import errors
from .memory import TablePlan, plan_tables
from .results import ResultsFile
from .runner import BatchOptions, BatchSummary, Task, error_record, result_writer, solve_task

CONNECT_SECONDS = 10
STOP_CHECK_SECONDS = 1.0     # how often a worker's search asks whether the run was stopped


def _distributed():
    try:
        import distributed
    except ImportError:
        raise errors.NimmtError("--scheduler needs Dask distributed: pip install"
                                " \"nimmt[batch]\" (or \"dask[distributed]\")") from None
    return distributed


def connect(address: str):
    """A client of the scheduler at `address` (a `NimmtError` when it cannot be reached)."""
    distributed = _distributed()
    try:
        return distributed.Client(address, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError, ValueError) as exc:
        raise errors.NimmtError(f"cannot reach the Dask scheduler"
                                f" {errors.quote(address)}: {' '.join(str(exc).split())}") \
            from None


def cluster_tables(client, hand_sizes, tt_mb: Optional[float]) -> TablePlan:
    """The tables of the cluster's worker threads: each thread solves one position at a time,
    so the memory limits of the workers are shared by their threads (the defaults when a
    worker has no memory limit)."""
    workers = client.scheduler_info().get("workers", {}).values()
    threads = sum(w.get("nthreads", 1) for w in workers) or 1
    limits = [w.get("memory_limit") or 0 for w in workers]
    available = sum(limits) / 2 ** 20 if limits and all(limits) else None
    return plan_tables(threads, hand_sizes, tt_mb, available)


def _solve_on_worker(task: Task, options: BatchOptions, stop: str) -> Optional[Dict[str, Any]]:
    """The result line of `task`, or None when the run was stopped (the Dask event `stop`
    set: a running search cannot be cancelled from outside, so it looks once a second)."""
    from distributed import Event, get_worker
    event, checked = Event(stop), [time.monotonic()]

    def watch(*_):
        if time.monotonic() - checked[0] >= STOP_CHECK_SECONDS:
            checked[0] = time.monotonic()
            if event.is_set():
                raise KeyboardInterrupt
    record = solve_task(task, options, watch)
    if record is not None:
        record["worker"] = get_worker().address
    return record


def run_on_cluster(client, tasks: List[Task], results: ResultsFile, options: BatchOptions,
                   on_result: Optional[Callable[[Dict[str, Any], BatchSummary], None]] = None,
                   summary: Optional[BatchSummary] = None) -> BatchSummary:
    """Solve the tasks on the cluster of `client`, appending each result to `results`."""
    distributed = _distributed()
    summary = summary or BatchSummary(len(tasks))

    write = result_writer(results, summary, on_result)

    stop = distributed.Event(f"nimmt-batch-stop-{uuid.uuid4().hex}", client=client)
    futures = {}
    for task in tasks:
        if task.position is None:
            write(error_record(task, task.error or "not a position"))
        else:
            futures[client.submit(_solve_on_worker, task, options, stop.name, pure=False)] = task
    try:
        for future in distributed.as_completed(list(futures)):
            task = futures[future]
            try:
                record = future.result()
            except Exception as exc:        # a worker lost, or an error inside Dask
                record = error_record(task, "the cluster failed on this position: "
                                            + (" ".join(str(exc).split()) or type(exc).__name__),
                                      retry=True)
            if record is not None:      # None: stopped, which only a stop of this run does
                write(record)
    except BaseException:
        stop.set()                  # the searches running on the workers stop too
        client.cancel(list(futures))
        raise
    return summary
