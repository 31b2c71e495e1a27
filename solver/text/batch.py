"""The words of a batch (`nimmt deal --count`, `nimmt batch solve`) on stderr: the tables
chosen for the workers, a resume, the summary at the end."""
import os
from typing import Optional

from ..batch.memory import TablePlan
from ..batch.runner import BatchSummary
from ..errors import plural


def format_tables(plan: TablePlan, scheduler: Optional[str] = None) -> str:
    """Which table each worker uses, and why (`scheduler`: on a Dask cluster, whose worker
    threads each solve a position at a time)."""
    workers = f"{plan.workers} worker{'s' if plan.workers != 1 else ''}"
    if scheduler is not None:
        workers = (f"{plan.workers} worker thread{'s' if plan.workers != 1 else ''} on the"
                   f" cluster {scheduler}")
    if plan.fixed_mb is not None:
        return f"batch: {workers}, a {plan.fixed_mb:g} MB table each (--tt-size)"
    if plan.available_mb is None:
        return (f"batch: {workers}, tables of the default size by hand size (up to"
                f" {plan.largest_default_mb:g} MB each; memory available unknown)")
    where = "of the workers' memory limits" if scheduler is not None else "available"
    if plan.capped:
        return (f"batch: {workers}, tables of at most {plan.cap_mb:g} MB each (the default"
                f" {plan.largest_default_mb:g} MB would not fit {plan.workers}x in"
                f" {plan.available_mb:,.0f} MB {where}; --tt-size sets it)")
    return (f"batch: {workers}, tables of the default size by hand size (up to"
            f" {plan.largest_default_mb:g} MB each; {plan.available_mb:,.0f} MB {where})")


def format_jobs_note(jobs: int) -> Optional[str]:
    cores = os.cpu_count() or 1
    if jobs <= cores:
        return None
    return f"batch: {jobs} workers on {cores} cores: they share them, each runs slower"


def format_resume(done: int, total: int, torn_bytes: int, path: str) -> Optional[str]:
    parts = []
    if torn_bytes:
        parts.append(f"removed a torn last line ({plural(torn_bytes, 'byte')}) from {path}")
    if done:
        parts.append(f"resuming: {done} of {total} positions already in {path}")
    return "batch: " + "; ".join(parts) if parts else None


def format_summary(summary: BatchSummary, path: str) -> str:
    if summary.total == 0:
        return f"batch: the input holds no position (blank lines only); {path} not written"
    counts = summary.counts
    line = (f"batch: {summary.done} of {summary.total} positions in {path}; this run"
            f" {counts['solved']} solved, {counts['limit']} stopped by a limit,"
            f" {counts['error']} error{'s' if counts['error'] != 1 else ''}")
    if summary.skipped:
        line += f" ({summary.skipped} done before)"
    if summary.unsolved:
        line += f"; {summary.unsolved} not solved in all (exit status 5)"
    return line


def format_interrupted(summary: BatchSummary, path: str) -> str:
    if summary.done == 0:
        return "batch: interrupted before the first result; the same command starts afresh"
    return (f"batch: interrupted: {summary.done} of {summary.total} positions in {path};"
            " the same command resumes")


def format_worker_death(line: int, code: Optional[int], worker: int, again: bool) -> str:
    """A worker process that ended with its position (killed, out of memory)."""
    how = ("killed by signal " + str(-code) if code is not None and code < 0
           else f"exit status {code}")
    then = ("a new worker solves it again" if again
            else "recorded as an error, solved again when the batch resumes")
    return f"batch: worker {worker} ended ({how}) on input line {line}: {then}"
