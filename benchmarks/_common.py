"""Helpers shared by the benchmarks: machine description, markdown tables, best-of timing."""
import os
import platform
import time
from typing import Callable, List, Sequence


def machine_info() -> dict:
    """What the numbers were measured on."""
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
    }


def machine_line(info: dict = None) -> str:
    info = info or machine_info()
    return (f"{info['processor']}, {info['cpu_count']} CPUs, Python {info['python']},"
            f" {info['platform']}")


def markdown_table(headers: Sequence[str], rows: List[Sequence], right: Sequence[bool] = None) -> str:
    """A markdown table; columns right-aligned unless `right` says otherwise (first left)."""
    if right is None:
        right = [False] + [True] * (len(headers) - 1)
    lines = ["| " + " | ".join(headers) + " |",
             "|" + "|".join("---:" if r else ":---" for r in right) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def per_call_seconds(call: Callable[[], object], batch_seconds: float = 0.002, repeats: int = 3) -> float:
    """Seconds per `call()`: batches long enough to time (at least `batch_seconds`), the best
    of `repeats` batches."""
    count, elapsed = 1, 0.0
    while True:                                     # calibrate the batch size
        start = time.perf_counter()
        for _ in range(count):
            call()
        elapsed = time.perf_counter() - start
        if elapsed >= batch_seconds:
            break
        count *= 2 if elapsed <= 0 else max(2, min(10, int(batch_seconds / elapsed) + 1))
    best = elapsed / count
    for _ in range(repeats - 1):
        start = time.perf_counter()
        for _ in range(count):
            call()
        best = min(best, (time.perf_counter() - start) / count)
    return best


def rate(play, batch: int, seconds: float) -> float:
    """Rounds per second of `play(batch)`, repeated for about `seconds`; the best of 3 runs."""
    best = 0.0
    for _ in range(3):
        done, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds / 3:
            play(batch)
            done += batch
        best = max(best, done / (time.perf_counter() - start))
    return best
