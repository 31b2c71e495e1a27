"""How much transposition table each worker of a batch may use.

A full deal's table is 3.2 GB by default (`exact.engine.TT_MB_BY_HAND`): N workers solving
full deals at once need N of them. `plan_tables` caps each worker's table so that the N
workers, their 2-card caches and their Python processes fit in a share of the memory
available (MemAvailable of /proc/meminfo, where the system has it); `--tt-size` sets the size
instead.
"""
import math
from dataclasses import dataclass
from typing import Iterable, Optional

from .. import errors
from ..exact.engine import (ENDGAME_LOG2_BY_HAND, SMALL_ENDGAME_LOG2, SMALL_TT_MB,
                            TT_MB_BY_HAND)

MEMINFO = "/proc/meminfo"
USABLE_SHARE = 0.8          # of the memory available: the rest stays for the system
PROCESS_MB = 100.0          # a worker's Python, numpy and the search besides its table
MIN_TABLE_MB = 1.0          # below this a worker cannot run


@dataclass(frozen=True)
class TablePlan:
    """Each worker's table: the default size by hand size, capped at `cap_mb` (None: no cap),
    or `fixed_mb` for every position (`--tt-size`)."""
    workers: int
    fixed_mb: Optional[float] = None
    cap_mb: Optional[float] = None
    available_mb: Optional[float] = None     # MemAvailable, when known
    largest_default_mb: float = SMALL_TT_MB  # the default table of the input's largest hands

    def table_mb(self, hand_size: int) -> float:
        if self.fixed_mb is not None:
            return self.fixed_mb
        default = TT_MB_BY_HAND.get(hand_size, SMALL_TT_MB)
        return default if self.cap_mb is None else min(default, self.cap_mb)

    @property
    def capped(self) -> bool:
        return (self.fixed_mb is None and self.cap_mb is not None
                and self.cap_mb < self.largest_default_mb)


def available_mb(path: str = MEMINFO) -> Optional[float]:
    """MemAvailable in MB, None where the system does not say (no /proc/meminfo)."""
    try:
        with open(path, encoding="ascii") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) / 1024.0
    except (OSError, ValueError, IndexError):
        return None
    return None


def cache_mb(hand_size: int) -> float:
    """The 2-card cache of a search at `hand_size` cards (16-byte slots)."""
    return 16.0 * 2 ** ENDGAME_LOG2_BY_HAND.get(hand_size, SMALL_ENDGAME_LOG2) / 2 ** 20


def plan_tables(workers: int, hand_sizes: Iterable[int], tt_mb: Optional[float] = None,
                available: Optional[float] = None) -> TablePlan:
    """The tables of `workers` workers for positions of these hand sizes. Refused (a
    `NimmtError`) when the memory available cannot hold even small tables for them all."""
    sizes = list(hand_sizes) or [1]
    largest = max(TT_MB_BY_HAND.get(h, SMALL_TT_MB) for h in sizes)
    if tt_mb is not None:
        if available is not None and workers * tt_mb > available:
            raise errors.NimmtError(
                f"--tt-size {tt_mb:g} MB for {workers} worker(s) is more than the {available:.0f}"
                f" MB of memory available: give a smaller --tt-size or fewer --jobs")
        return TablePlan(workers, fixed_mb=tt_mb, available_mb=available,
                         largest_default_mb=largest)
    if available is None:
        return TablePlan(workers, largest_default_mb=largest)
    per_worker = available * USABLE_SHARE / workers - PROCESS_MB - max(map(cache_mb, sizes))
    if per_worker < MIN_TABLE_MB:
        raise errors.NimmtError(
            f"not enough memory for {workers} workers: {available:.0f} MB available; use"
            " fewer --jobs or set --tt-size")
    return TablePlan(workers, cap_mb=float(math.floor(per_worker)), available_mb=available,
                     largest_default_mb=largest)
