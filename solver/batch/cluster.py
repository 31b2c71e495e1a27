"""A batch on a Dask distributed cluster (`nimmt batch solve --scheduler ADDRESS`): for work
that outgrows one machine.

The positions are submitted to the cluster's scheduler, each solved by `runner.solve_task` on
a worker thread, and every result is appended to the results file here, as it comes, exactly
as a local batch does (the same lines, resume and Ctrl-C). Dask is an optional dependency
(the `batch` extra): it is imported only when a scheduler is given. Every worker needs this
package, at the same version, importable.
"""
from typing import Any, Callable, Dict, List, Optional

from .. import errors
from .memory import TablePlan, plan_tables
from .results import ResultsFile
from .runner import BatchOptions, BatchSummary, Task, error_record, solve_task

CONNECT_SECONDS = 10


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


def _solve_on_worker(task: Task, options: BatchOptions) -> Dict[str, Any]:
    from distributed import get_worker
    record = solve_task(task, options, 0)
    assert record is not None
    record["worker"] = get_worker().address
    return record


def run_on_cluster(client, tasks: List[Task], results: ResultsFile, options: BatchOptions,
                   on_result: Optional[Callable[[Dict[str, Any], BatchSummary], None]] = None,
                   summary: Optional[BatchSummary] = None) -> BatchSummary:
    """Solve the tasks on the cluster of `client`, appending each result to `results`."""
    distributed = _distributed()
    summary = summary or BatchSummary(len(tasks))

    def write(record: Dict[str, Any]) -> None:
        results.append(record)
        summary.counts[record["status"]] += 1
        if on_result is not None:
            on_result(record, summary)

    futures = {}
    for task in tasks:
        if task.position is None:
            write(error_record(task, task.error or "not a position"))
        else:
            futures[client.submit(_solve_on_worker, task, options, pure=False)] = task
    try:
        for future in distributed.as_completed(list(futures)):
            task = futures[future]
            try:
                record = future.result()
            except Exception as exc:        # a worker lost, or an error inside Dask
                record = error_record(task, "the cluster failed on this position: "
                                            + (" ".join(str(exc).split()) or type(exc).__name__),
                                      retry=True)
            write(record)
    except BaseException:
        client.cancel(list(futures))
        raise
    return summary
