"""An exhaustive reference for the exact solver: every canonical state reachable from a
2-player position, solved level by level with one certified matrix game each
(cext/exhaustive.pyx; docs/exact-search.md, "An exhaustive reference").

It shares nothing with the search but the matrix-game routine: its own state, keys (each
state's live cards renumbered, a state and its player swap sharing one) and placement code,
and here its own relabelling of the root's cards by rank. It has no pruning and no
limits: it is for positions of up to about 9 cards per hand.
"""
import time
from dataclasses import dataclass
from typing import Dict, List

import numpy as np

from .._exhaustive import solve_levels
from ..core.position import Position
from ..core.rules import bullheads
from .engine import check_solvable

# Levels 1 and 2 hold the most states (at 7 cards about 0.8 and 1.1 million against 0.4
# million at 3 cards) and are the cheapest to solve again: solved in place by default.
LOWEST_STORED = 3


@dataclass
class ExhaustiveResult:
    value: float                          # player 2's bullheads minus player 1's, to the end
    strategies: List[Dict[int, float]]    # the root's certified equilibrium, {card: probability}
    matrix: np.ndarray                    # the root's game: player 1's cards (rows) ascending
    states_per_level: Dict[int, int]      # {cards per hand: canonical states}
    seconds: float
    peak_bytes: int = 0                   # the most memory the levels held at once
    retried_games: int = 0                # games solved again after a failed certificate


def rank_form(position: Position):
    """The position in ranks of its live cards (hands and row ends, ascending): the
    bullheads of each rank, both hands and the rows as (end rank, length, bullheads)."""
    live = sorted([c for hand in position.hands for c in hand] + [row[-1] for row in position.rows])
    rank = {card: r for r, card in enumerate(live)}
    hands = [sorted(rank[c] for c in hand) for hand in position.hands]
    rows = [(rank[row[-1]], len(row), sum(bullheads(c) for c in row)) for row in position.rows]
    return [bullheads(c) for c in live], hands[0], hands[1], rows


def solve_exhaustive(position: Position, lowest: int = LOWEST_STORED,
                     threads: int = 1) -> ExhaustiveResult:
    """The value, the root's equilibrium and matrix, and the canonical states per level of
    a 2-player position with both hands known (NotSolvableError otherwise).

    Levels from the root's hand size down to `lowest` cards are stored (their canonical
    states counted in `states_per_level`); a state below them is solved in place each time
    its parent meets it. `threads` solve each level's independent games."""
    check_solvable(position)
    start = time.perf_counter()
    if position.hand_size == 0:
        return ExhaustiveResult(0.0, [{}, {}], np.zeros((0, 0)), {}, time.perf_counter() - start)
    bulls, hand1, hand2, rows = rank_form(position)
    out = solve_levels(bulls, hand1, hand2, rows, lowest, threads)
    cards1, cards2 = (sorted(hand) for hand in position.hands)
    strategies = [{c: p for c, p in zip(cards1, out["x"]) if p > 0.0},
                  {c: p for c, p in zip(cards2, out["y"]) if p > 0.0}]
    return ExhaustiveResult(out["value"], strategies, np.array(out["matrix"], dtype=float),
                            dict(sorted(out["states"].items(), reverse=True)),
                            time.perf_counter() - start, out["peak_bytes"], out["retried_games"])
