"""What the exact solver answers: plain data, with nothing of the search kept alive.

A `Solution` holds the value of a position (player 2's bullheads minus player 1's, from now
to the end of the round), both equilibrium strategies of the turn, each card's value against
the opponent's strategy, the root matrix entries that were proven, the principal line and the
search's statistics (`SearchStats`). Its `to_dict` is the `nimmt solve --json` output.
"""
from dataclasses import dataclass, field, fields
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ..core.position import Position

LOSS_TOLERANCE = 1e-9       # below this a card loses nothing


@dataclass(frozen=True)
class SearchStats:
    """The counters of one exact search (`--stats`, and `stats` in the JSON output).

    Node counts are the search's own: with one thread they are the same on every run (the
    regression signature of benchmarks/bench_solver.py); with two they depend on timing.
    """
    nodes: int = 0                 # matrix-game nodes searched (3 or more cards a hand)
    small_nodes: int = 0           # 2-card nodes solved in closed form
    endgame_hits: int = 0          # 2-card nodes found in the 2-card cache
    tt_probes: int = 0             # transposition table probes
    tt_hits: int = 0               # probes that found the state
    tt_cutoffs: int = 0            # probes whose stored bounds settled the node
    matrix_games: int = 0          # restricted matrix games solved
    children_total: int = 0        # joint moves at the searched nodes
    children_seen: int = 0         # joint moves evaluated at least once
    evaluations: int = 0           # child searches, re-searches included
    by_cards: Tuple[int, ...] = (0,) * 11   # matrix-game nodes by cards a hand (index 0..10)
    expanded_by_cards: Tuple[int, ...] = (0,) * 11   # ... not settled by the table
    exact_by_cards: Tuple[int, ...] = (0,) * 11      # ... whose exact value was proven
    exact_refines: int = 0         # restricted games whose entry bounds were too loose
    fail_highs: int = 0            # nodes proven >= beta
    fail_lows: int = 0             # nodes proven <= alpha
    exact_nodes: int = 0           # nodes whose exact value was proven
    shared_nodes: int = 0          # groups of tasks (tests, entries, rows) shared with helpers
    wait_us: int = 0               # microseconds the main thread waited for helpers' jobs
    helper_nodes: Optional[int] = None     # nodes of the helper threads (two or more threads)
    helper_wait_us: Optional[int] = None   # microseconds the helpers waited, for jobs or
                                           # for their own helpers (two or more threads)
    seconds: float = 0.0           # wall clock of the search, the card values included
    tt_entries: int = 0            # entries of the transposition table
    children_never_evaluated: float = 0.0  # share of the joint moves never evaluated
    card_values_complete: Optional[bool] = None   # every card's value proven (None: not asked)

    @classmethod
    def from_counters(cls, counters: Dict[str, Any], **more: Any) -> "SearchStats":
        """From the C search's counters (a dict of its Stats) and the fields it lacks."""
        names = {f.name for f in fields(cls)}
        values = {k: (tuple(v) if isinstance(v, list) else v)
                  for k, v in counters.items() if k in names}
        values.update(more)
        total = values.get("children_total", 0)
        values["children_never_evaluated"] = (1.0 - values.get("children_seen", 0) / total
                                              if total else 0.0)
        return cls(**values)

    def to_dict(self) -> Dict[str, Any]:
        """The JSON form: every field, the per-card counts as lists; `helper_nodes`,
        `helper_wait_us` and `card_values_complete` only when known."""
        out: Dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None and f.name in ("helper_nodes", "helper_wait_us",
                                            "card_values_complete"):
                continue
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True)
class Line:
    """One turn of the principal line: the cards played, their probability, the row taken."""
    cards: Tuple[int, int]
    probability: float
    row_choice: Optional[Tuple[int, int]]     # (player index, row) when a card was too low
    penalties: Tuple[int, int]                # this turn's bullheads
    value_before: float

    def to_dict(self) -> Dict[str, Any]:
        return {"cards": list(self.cards), "probability": self.probability,
                "row_choice": None if self.row_choice is None else
                {"player": self.row_choice[0] + 1, "row": self.row_choice[1]},
                "penalties": list(self.penalties), "value": self.value_before}


@dataclass(frozen=True)
class RowChoice:
    """A too-low card's row at one joint play of a turn: the row its owner's best play takes
    (the cheapest row when that is one of the best) against the row with the fewest
    bullheads, and what taking the cheapest one costs its owner in the end (>= 0)."""
    player: int                               # the owner of the too-low card: 0 or 1
    cards: Tuple[int, int]                    # the joint play (player 1's card, player 2's)
    row: int
    cheapest_row: int
    cheapest_row_costs_more: float


@dataclass
class Solution:
    """The exact solution of a 2-player position with both hands visible."""
    position: Position
    value: float
    strategies: List[Dict[int, float]]         # {card: probability}, cards played only
    card_values: List[Dict[int, Optional[float]]]   # each card against the opponent's
                                               # strategy; None: not computed
    matrix: np.ndarray                         # root entries; NaN where not proven
    stats: SearchStats
    principal_line: Optional[List[Line]] = field(default=None)   # None: not computed
    # each root entry's proven bounds, [..., 0] lower and [..., 1] upper (equal where exact;
    # where the search never looked, the game's static range)
    matrix_bounds: Optional[np.ndarray] = field(default=None)

    @property
    def hands(self):
        return self.position.hands

    def card_losses(self) -> List[Dict[int, Optional[float]]]:
        """What each card loses, for its owner, against the opponent's equilibrium strategy
        (player 1 maximizes the value, player 2 minimizes it: a loss is always >= 0; None
        where the card's value was not computed)."""
        losses = []
        for k, values in enumerate(self.card_values):
            sign = 1 if k == 0 else -1
            losses.append({c: None if v is None else no_noise(sign * (self.value - v))
                           for c, v in values.items()})
        return losses

    def to_dict(self) -> Dict[str, Any]:
        return {
            "value": self.value,
            "strategies": [[{"card": c, "probability": p} for c, p in sorted(s.items())]
                           for s in self.strategies],
            "card_values": [[{"card": c, "value": v} for c, v in sorted(cv.items())]
                            for cv in self.card_values],
            # entries to 12 decimals: their last bits depend on the order in which the
            # search's threads added them up, and the same position gives the same output
            "matrix": [[None if np.isnan(v) else entry(v) for v in row] for row in self.matrix],
            "matrix_bounds": (None if self.matrix_bounds is None else
                              [[[entry(lo), entry(hi)] for lo, hi in row]
                               for row in self.matrix_bounds]),
            "principal_line": (None if self.principal_line is None
                               else [line.to_dict() for line in self.principal_line]),
            "stats": self.stats.to_dict(),
        }


def entry(value: float) -> float:
    """A root entry as `to_dict` writes it: 12 decimals, far below the 1e-6 a value is right
    to."""
    return round(float(value), 12) + 0.0        # + 0.0: no -0.0


def no_noise(loss: float) -> float:
    """0 for a loss within rounding of nothing."""
    return 0.0 if abs(loss) < LOSS_TOLERANCE else loss
