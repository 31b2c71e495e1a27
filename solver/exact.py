"""Exact equilibria of 2-player positions with both hands known (the 10n+4 game, 24 cards).

`solve(position)` returns a `Solution`: the value (player 2's future bullheads minus player
1's), both players' equilibrium mixed strategies for the current turn, what every card is
worth against the opponent's strategy, the root matrix entries that were needed, and search
statistics. The search itself is in cext/search.pyx; this module maps cards to ranks,
runs it under limits with progress, and explains the result.
"""
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ._search import ExactSearch
from .errors import NotSolvableError, SearchLimitError
from .position import Position
from .rational import PROBABILITY_FLOOR, exact_equilibrium  # strategies list cards above it
from .rules import bullheads, play_turn, row_bullheads, target_row

# Default sizes by cards per hand. A solve's table and 2-card cache are fresh memory, whose
# pages the system clears as the search first touches them: below 8 cards that costs more
# than a larger table saves (7 cards: 16 MB and a 4 MB cache take 6% less time than 32 MB and
# 16 MB, the same nodes within 0.4%), while at 8 cards the 16 MB cache pays and from 9 cards a
# 256 MB one (full deals: 4x fewer 2-card nodes computed, 6-8% faster).
TT_MB_BY_HAND = {7: 16, 8: 128, 9: 1024, 10: 3200}   # table (MB); SMALL_TT_MB below 7 cards
SMALL_TT_MB = 8
ENDGAME_LOG2_BY_HAND = {7: 18, 8: 20, 9: 24, 10: 24}  # 2-card cache slots (log2, 16 bytes each,
SMALL_ENDGAME_LOG2 = 17                               # one cache per thread); below 7 cards
UNBOUNDED = 1000.0               # bounds this large are the search's infinities: nothing proven


def check_solvable(position: Position) -> None:
    if position.players != 2:
        raise NotSolvableError(f"the exact solver needs exactly 2 players, got {position.players}")
    for k, hand in enumerate(position.hands):
        if hand is None:
            raise NotSolvableError(f"the exact solver needs both hands; hand of player {k + 1} is unseen")


class RankMap:
    """Cards of a root position relabelled by rank among its live cards (hands, row ends).

    Only comparisons between live cards and the bullheads of hand cards matter for the rest
    of the round, so every descendant position maps into the same ranks.
    """

    def __init__(self, position: Position):
        live = sorted([c for h in position.hands for c in h] + [r[-1] for r in position.rows])
        self.rank = {card: i for i, card in enumerate(live)}
        self.bulls = [bullheads(card) for card in live]

    def state(self, position: Position):
        hands = [[self.rank[c] for c in h] for h in position.hands]
        rows = [(self.rank[r[-1]], len(r), row_bullheads(r)) for r in position.rows]
        return hands[0], hands[1], rows


@dataclass
class Line:
    """One turn of the principal line: the cards played, their probability, the row taken."""
    cards: Tuple[int, int]
    probability: float
    row_choice: Optional[Tuple[int, int]]     # (player index, row) when a card was too low
    penalties: Tuple[int, int]
    value_before: float


@dataclass
class Solution:
    position: Position
    value: float
    strategies: List[Dict[int, float]]
    card_values: List[Dict[int, float]]        # each card against the opponent's strategy
    matrix: np.ndarray                         # root entries; NaN where not needed
    stats: Dict[str, float]
    _engine: "Engine" = field(repr=False, default=None)

    @property
    def hands(self):
        return self.position.hands

    def to_dict(self) -> dict:
        return {
            "value": self.value,
            "strategies": [[{"card": c, "probability": p} for c, p in sorted(s.items())]
                           for s in self.strategies],
            "card_values": [[{"card": c, "value": v} for c, v in sorted(cv.items())]
                            for cv in self.card_values],
            "matrix": [[None if np.isnan(v) else v for v in row] for row in self.matrix],
            "principal_line": [line_to_dict(t) for t in self.principal_line()],
            "stats": self.stats,
        }

    def principal_line(self) -> List[Line]:
        """The most likely continuation under the equilibrium, to the end of the round."""
        return self._engine.principal_line(self)

    def graph(self, depth: int = 2):
        """The equilibrium strategy graph to `depth` turns (networkx DiGraph)."""
        from .graph import strategy_graph
        return strategy_graph(self, depth)


def line_to_dict(line: Line) -> dict:
    return {"cards": list(line.cards), "probability": line.probability,
            "row_choice": None if line.row_choice is None else
            {"player": line.row_choice[0] + 1, "row": line.row_choice[1]},
            "penalties": list(line.penalties), "value": line.value_before}


class Engine:
    """One exact search (its transposition table kept) for a root position and its subtree."""

    def __init__(self, root: Position, tt_mb: Optional[float] = None,
                 no_pruning: bool = False, no_canonical: bool = False, threads: int = 1):
        check_solvable(root)
        self.root = root
        self.ranks = RankMap(root)
        if tt_mb is None:
            tt_mb = TT_MB_BY_HAND.get(root.hand_size, SMALL_TT_MB)
        entries = max(int(tt_mb * 2 ** 20) // ExactSearch.entry_size(), 2)
        self.search = ExactSearch(self.ranks.bulls, entries,
                                  ENDGAME_LOG2_BY_HAND.get(root.hand_size, SMALL_ENDGAME_LOG2))
        self.search.set_ablation(no_pruning, no_canonical)
        if threads not in (1, 2):
            raise ValueError(f"threads must be 1 or 2, got {threads!r}")
        self.threads = threads
        self.search.set_threads(threads)
        self.seconds = 0.0

    # running under limits ------------------------------------------------------------------
    def run(self, work: Callable, max_nodes: int = 0, time_limit: float = 0.0,
            progress: Optional[Callable[[dict, float], None]] = None,
            same_limits: bool = False):
        """Run `work()` (calls into the search, which release the GIL) in a thread, so the
        caller can show progress and Ctrl-C stops the search cleanly. The limits count from
        now, or with `same_limits` go on from the previous run."""
        if not same_limits:
            self.search.set_limits(max_nodes or 0, time_limit or 0.0)
        box = {}
        thread = threading.Thread(target=lambda: box.setdefault("result", work()), daemon=True)
        start = time.perf_counter()
        thread.start()
        try:
            while thread.is_alive():
                thread.join(0.25)
                if progress is not None and thread.is_alive():
                    progress(dict(self.search.stats, bounds=self.search.root_bounds),
                             time.perf_counter() - start)
        except KeyboardInterrupt:
            self.search.request_stop()
            thread.join()
        self.seconds += time.perf_counter() - start
        return box.get("result")

    def stats(self) -> dict:
        stats = dict(self.search.stats)
        if self.threads == 2:
            stats["helper_nodes"] = self.search.helper_stats["nodes"]
        stats["seconds"] = round(self.seconds, 3)
        stats["tt_entries"] = self.search.entries
        total = stats["children_total"]
        stats["children_never_evaluated"] = 1.0 - stats["children_seen"] / total if total else 0.0
        return stats

    # solving -------------------------------------------------------------------------------
    def solve(self, position: Position, max_nodes: int = 0, time_limit: float = 0.0,
              progress=None, card_values: bool = True) -> Solution:
        """The position's solution; card_values=False skips the exact values of the
        cards outside the equilibrium (their entries can cost as much as the solve)."""
        check_solvable(position)
        h1, h2, rows = self.ranks.state(position)
        result = self.run(lambda: self.search.solve_root(h1, h2, rows),
                          max_nodes, time_limit, progress)
        if self.search.aborted or result is None:
            lower, upper = (None, None) if result is None else (result.lower, result.upper)
            raise SearchLimitError(limit_message(max_nodes, time_limit, lower, upper),
                                   bounds=(lower, upper), stats=self.stats())
        value, x, y = result.value, result.x, result.y
        lo, hi = result.lower_entries, result.upper_entries
        matrix = np.where(np.isclose(lo, hi, rtol=0, atol=1e-9), lo, np.nan)
        complete = card_values and self.complete_replies(h1, h2, rows, x, y, matrix, progress)
        refined = exact_equilibrium(matrix, x, y, value)    # same equilibrium, exact floats
        if refined is not None:
            value, x, y, values1, values2 = refined
        else:
            values1 = [expected(matrix[i], y) for i in range(len(x))]
            values2 = [expected(matrix[:, j], x) for j in range(len(y))]
        cards1, cards2 = position.hands
        strategies = [strategy_dict(cards1, x), strategy_dict(cards2, y)]
        values = [{c: none_if_nan(v) for c, v in zip(cards1, values1)},
                  {c: none_if_nan(v) for c, v in zip(cards2, values2)}]
        stats = self.stats()
        stats["card_values_complete"] = complete
        return Solution(position, value, strategies, values, matrix, stats, self)

    def complete_replies(self, h1, h2, rows, x, y, matrix, progress=None) -> bool:
        """Make exact every entry a card's value needs: each card against the support of the
        opponent's strategy. Runs under the solve's limits (progress shown, Ctrl-C stops
        it): False if one stopped it (the entries left are NaN, the value and strategies
        stay proven)."""
        def work() -> None:
            for i in range(len(h1)):
                for j in range(len(h2)):
                    if np.isnan(matrix[i, j]) and (x[i] > PROBABILITY_FLOOR
                                                   or y[j] > PROBABILITY_FLOOR):
                        value = self.search.entry_value(h1, h2, rows, h1[i], h2[j])
                        if self.search.aborted:
                            return
                        matrix[i, j] = value

        self.run(work, progress=progress, same_limits=True)
        return not self.search.aborted

    def full_matrix(self, position: Position) -> np.ndarray:
        h1, h2, rows = self.ranks.state(position)
        return np.array([[self.search.entry_value(h1, h2, rows, a, b) for b in h2] for a in h1])

    def value(self, position: Position) -> float:
        h1, h2, rows = self.ranks.state(position)
        return self.search.value(h1, h2, rows)

    # explaining ----------------------------------------------------------------------------
    def best_row_choice(self, position: Position, cards: Tuple[int, int]):
        """When the lower card is too low: (owner, row, value) of the owner's best row;
        None otherwise. Values are the entry (this turn's penalties plus the rest)."""
        low_owner = 0 if cards[0] < cards[1] else 1
        if target_row(position.rows, cards[low_owner]) is not None:
            return None
        options = [(self.turn_value(position, cards, row), row) for row in range(4)]
        if low_owner == 0:
            value, row = max(options, key=lambda o: (o[0], -o[1]))
        else:
            value, row = min(options, key=lambda o: (o[0], o[1]))
        return low_owner, row, value

    def turn_value(self, position, cards, row=None) -> float:
        child, penalties = play(position, cards, row)
        return penalties[1] - penalties[0] + self.value(child)

    def principal_line(self, solution: Solution) -> List[Line]:
        line: List[Line] = []
        current = solution
        while current.position.hand_size > 0:
            x, y = current.strategies
            a = max(x, key=lambda c: (x[c], -c))
            b = max(y, key=lambda c: (y[c], -c))
            choice = self.best_row_choice(current.position, (a, b))
            child, penalties = play(current.position, (a, b), None if choice is None else choice[1])
            line.append(Line((a, b), x[a] * y[b], None if choice is None else choice[:2],
                             penalties, current.value))
            current = self.solve(child, card_values=False)
        return line


def play(position: Position, cards: Sequence[int], row: Optional[int] = None):
    """The position after both cards (row: the row a too-low card takes) and the penalties."""
    new_rows, taken = play_turn(position.rows, cards, lambda player, rows, card: row)
    hands = [[c for c in h if c != card] for h, card in zip(position.hands, cards)]
    penalties = tuple(sum(bullheads(c) for c in t) for t in taken)
    child = Position.create(new_rows, hands, [p + q for p, q in zip(position.penalties, penalties)],
                            position.deck)
    return child, penalties


def expected(entries: np.ndarray, strategy: Sequence[float]) -> float:
    """A card's value against a mixed strategy; NaN if an entry it needs is unknown (cards
    played with probability 0 do not count)."""
    return sum(e * p for e, p in zip(entries, strategy) if p > PROBABILITY_FLOOR)


def none_if_nan(value: float) -> Optional[float]:
    return None if np.isnan(value) else float(value)


def strategy_dict(cards: Sequence[int], probabilities: Sequence[float]) -> Dict[int, float]:
    return {c: float(p) for c, p in zip(cards, probabilities) if p > PROBABILITY_FLOOR}


def proven_bounds(lower, upper) -> Optional[str]:
    """'value proven in [lower, upper]', or one side of it; None when neither is proven."""
    if lower is None or (lower <= -UNBOUNDED and upper >= UNBOUNDED):
        return None
    if lower <= -UNBOUNDED:
        return f"value proven <= {upper:.6g}"
    if upper >= UNBOUNDED:
        return f"value proven >= {lower:.6g}"
    return f"value proven in [{lower:.6g}, {upper:.6g}]"


def limit_message(max_nodes, time_limit, lower, upper) -> str:
    which = []
    if max_nodes:
        which.append(f"{max_nodes} nodes")
    if time_limit:
        which.append(f"{time_limit} s")
    reason = f"by the limit of {' or '.join(which)}" if which else "on request (Ctrl-C)"
    bounds = proven_bounds(lower, upper)
    if bounds is None:
        bounds = "no bounds proven yet"
    elif lower <= -UNBOUNDED or upper >= UNBOUNDED:
        bounds += " (a bound, not a value)"
    else:
        bounds += " (bounds, not a value)"
    return f"search stopped {reason} before the value was proven; {bounds}"


def solve(position: Position, max_nodes: int = 0, time_limit: float = 0.0,
          tt_mb: Optional[float] = None, progress=None, threads: int = 1,
          card_values: bool = True) -> Solution:
    """Exact value and equilibrium strategies of a 2-player complete-information position.

    threads=2 adds a helper thread on the second core: the two threads share the reply
    tests of big nodes (and the table); faster on large positions, but node counts (and,
    where equilibria are not unique, the strategy reported) then depend on timing.
    card_values=False leaves out the exact values of the cards outside the equilibrium
    (None in Solution.card_values), which can cost as much as the solve itself."""
    return Engine(position, tt_mb, threads=threads).solve(position, max_nodes, time_limit,
                                                          progress, card_values)
