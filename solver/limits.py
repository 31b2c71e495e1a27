"""How long a search may run (`Limit`), and the upper bounds of every numeric option.

`Limit` is one value for every search, as python-chess's `engine.Limit`: the exact solver
reads `nodes` and `seconds` (a limit: it stops there with the bounds proven so far), the
search player `iterations` or `seconds` (its budget: it answers when it is spent). A field a
search does not read is refused by it, never silently ignored.

The bounds make every value fit the C types it reaches and keep every command able to end: a
larger value is refused as a mistake.
"""
import math
import os
from dataclasses import dataclass
from typing import Optional

from . import errors

MAX_ITERATIONS = 10 ** 9       # search iterations of a decision: about 3 hours at 4 players
MAX_SECONDS = 86_400.0         # a search budget in seconds: one day
MAX_JOBS = 64                  # search trees in threads
MAX_NODES = 10 ** 15           # exact search nodes: decades at 10^6 a second; a C long long
MAX_TT_MB = 65_536.0           # transposition table, MB (64 GB; the default is 3.2 GB at most)
MAX_THRESHOLD = 10_000         # a game's end threshold (random bots: 1,200 rounds)
MAX_GAMES = 1_000_000          # games of a tournament: hours even for random bots


def max_threads() -> int:
    """Threads of one exact search: at most the machine's cores (more only slow it)."""
    return os.cpu_count() or 1


@dataclass(frozen=True)
class Limit:
    """A search's limit. None (or 0 for `nodes` and `seconds`) means no limit on that count.

    - `nodes`: matrix-game nodes of the exact search, 1..10^15.
    - `seconds`: wall-clock seconds (not reproducible); the exact solver also takes `inf`.
    - `iterations`: iterations of the search player over all its trees, 1..10^9.
    """
    nodes: Optional[int] = None
    seconds: Optional[float] = None
    iterations: Optional[int] = None

    def __post_init__(self):
        if self.nodes is not None and not (errors.is_integer(self.nodes)
                                           and 0 <= self.nodes <= MAX_NODES):
            raise errors.ConfigError(f"nodes must be an integer in 0..{MAX_NODES},"
                                     f" got {errors.quote(self.nodes)}")
        if self.seconds is not None and not (isinstance(self.seconds, (int, float))
                                             and self.seconds >= 0):      # nan fails too
            raise errors.ConfigError(f"seconds must be a number >= 0,"
                                     f" got {errors.quote(self.seconds)}")
        if self.iterations is not None and not (errors.is_integer(self.iterations)
                                                and 1 <= self.iterations <= MAX_ITERATIONS):
            raise errors.ConfigError(f"iterations must be an integer in 1..{MAX_ITERATIONS:,},"
                                     f" got {errors.quote(self.iterations)}")

    @property
    def max_nodes(self) -> int:
        """The node limit as the C search takes it (0: none)."""
        return self.nodes or 0

    @property
    def time_limit(self) -> float:
        """The time limit as the C search takes it (0: none; inf is none too)."""
        return 0.0 if not self.seconds or math.isinf(self.seconds) else float(self.seconds)
