"""Helpers shared by the benchmarks: machine description, markdown tables, best-of timing,
and the types of their options (a count, a time), refused at once when out of range."""
import argparse
import json
import math
import os
import platform
import time
from typing import Callable, List, Sequence

from solver.files import FileKind, check_writable, write_text_file


def _int_from(minimum: int) -> Callable[[str], int]:
    """The type of an option that is an integer of `minimum` or more."""
    def convert(text: str) -> int:
        value = int(text) if text.lstrip("-").isdigit() else None
        if value is None or value < minimum:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer of {minimum} or more")
        return value
    return convert


positive_int = _int_from(1)       # a count
natural_int = _int_from(0)        # a seed or an offset


def positive_float(text: str) -> float:
    """An option's time or weight: a finite number above 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number above 0")
    return value


def _json_head(head: bytes) -> bool:
    """A benchmark's results: `--json` files open with the machine, `--rounds-json` files
    (bench_paired) with the first deal."""
    compact = b"".join(head.split())
    return compact.startswith((b'{"machine":', b'{"first":'))


JSON_FILE = FileKind("a benchmark's results (JSON)", _json_head)


def check_json_out(path: str) -> None:
    """Refuse, before the run, a results file that cannot be written or that is there and
    is no benchmark's results (someone's file, kept)."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    check_writable(path, JSON_FILE)


def write_json(path: str, data, indent=1) -> None:
    """`data` as JSON to `path`, whole or not at all."""
    check_json_out(path)
    write_text_file(path, json.dumps(data, indent=indent))


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
