"""The exact solver of 2-player positions with both hands visible (the 24-card game).

`Engine` owns one C search (`solver._search.ExactSearch`) and its transposition table, which
it keeps between calls, so solving the children of a solved position is cheap; it frees the
table on `close()` or at the end of a `with` block. `solve(position)` is one engine for one
answer. The search itself is in cext/search.pyx; this module maps cards to ranks, runs the
search under a `Limit` with progress, and explains the result as a `Solution`.
"""
import time
from typing import Callable, List, Optional, Sequence, Tuple, Union

import numpy as np

from .._search import ExactSearch
from ..core.position import Position
from ..core.rules import bullheads, cheapest_row, row_bullheads, target_row
from ..core.turn import Turn, TurnOutcome, apply_turn
from ..errors import NimmtError, NotSolvableError, SearchLimitError
from ..files import check_writable, stop_name
from ..limits import MAX_TT_MB, Limit, max_threads
from ..stopping import run_stoppable
from .certificate import PROBABILITY_FLOOR, exact_equilibrium  # strategies list cards above it
from .firstcard import FirstCardModel, default_model
from .progress import SAVE_EVERY, ProgressLock, load_progress, save_progress
from .solution import LOSS_TOLERANCE, Line, RowChoice, SearchStats, Solution, no_noise

# Default sizes by cards per hand. A solve's table and 2-card cache are fresh memory, whose
# pages the system clears as the search first touches them: below 8 cards that costs more
# than a larger table saves, while at 8 cards the 16 MB cache pays and from 9 cards a 256 MB
# one (docs/exact-search.md).
TT_MB_BY_HAND = {7: 16, 8: 128, 9: 1024, 10: 3200}   # table (MB); SMALL_TT_MB below 7 cards
SMALL_TT_MB = 8
ENDGAME_LOG2_BY_HAND = {7: 18, 8: 20, 9: 24, 10: 24}  # 2-card cache slots (log2, 16 bytes each,
SMALL_ENDGAME_LOG2 = 17                               # one cache per thread); below 7 cards
UNBOUNDED = 1000.0               # bounds this large are the search's infinities: nothing proven

# progress(nodes, (lower, upper) proven so far, seconds), called about 4 times a second
ProgressCallback = Callable[[int, Tuple[float, float], float], None]


def check_solvable(position: Position) -> None:
    if not isinstance(position, Position):
        raise NotSolvableError(f"the exact solver takes a Position (Position.from_text reads"
                               f" the notation), got {type(position).__name__}")
    if position.players != 2:
        raise NotSolvableError(f"the exact solver needs exactly 2 players, got {position.players}")
    for k, hand in enumerate(position.hands):
        if hand is None and position.deduced()[1] is not None:
            raise NotSolvableError(f"the exact solver needs both hands; hand of player {k + 1}"
                                   f" is unseen, but the cards seen determine it:"
                                   f" position.deduced() fills it in")
        if hand is None:
            raise NotSolvableError(f"the exact solver needs both hands; hand of player {k + 1}"
                                   f" is unseen (nimmt best advises on a hidden hand; in the"
                                   f" 24-card game, the cards out of play as played make it"
                                   f" known)")


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
        live = [c for h in position.hands for c in h] + [r[-1] for r in position.rows]
        stray = [c for c in live if c not in self.rank]
        if stray:
            raise NimmtError(f"this engine solves its root's round: card {stray[0]} (in a"
                             f" hand or a row end of the position) is not one of the root's"
                             f" hands or row ends; use an Engine of this position")
        hands = [[self.rank[c] for c in h] for h in position.hands]
        rows = [(self.rank[r[-1]], len(r), row_bullheads(r)) for r in position.rows]
        return hands[0], hands[1], rows


class Engine:
    """One exact search, its table kept, for a root position and its subtree.

    `tt_mb`: the table's size in MB (default by hand size); `threads`: 1 up to the machine's
    cores: the main thread and a pool of helper threads that share the work of big nodes
    (node counts then vary with timing).
    `first_card`: the opening-card model of new nodes (True: the shipped one; False: none,
    the killers and the estimate open every node; or a FirstCardModel).
    `no_pruning` and `no_canonical` switch ideas off, for the benchmarks' ablations.
    `progress_file`: the search's big proven entries are kept there (progress.py): loaded
    first when it exists (`loaded` says how many), written every SAVE_EVERY seconds of a run
    and when a run ends, however it ends.
    """

    def __init__(self, root: Position, tt_mb: Optional[float] = None, threads: int = 1,
                 no_pruning: bool = False, no_canonical: bool = False,
                 first_card: Union[bool, FirstCardModel] = True,
                 progress_file: Optional[str] = None):
        check_solvable(root)
        if progress_file is not None and no_canonical:
            raise NimmtError("a progress file keeps canonical keys: not with no_canonical")
        most = max_threads()
        if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= most:
            raise NimmtError(f"threads must be in 1..{most} (this machine's cores),"
                             f" got {threads!r}")
        self.root = root
        self.ranks = RankMap(root)
        if tt_mb is None:
            tt_mb = TT_MB_BY_HAND.get(root.hand_size, SMALL_TT_MB)
        elif isinstance(tt_mb, bool) or not isinstance(tt_mb, (int, float)) \
                or not 0.001 <= tt_mb <= MAX_TT_MB:
            raise NimmtError(f"tt_mb must be in 0.001..{MAX_TT_MB:g} (MB), got {tt_mb!r}")
        entries = max(int(tt_mb * 2 ** 20) // ExactSearch.entry_size(), 2)
        self._search: Optional[ExactSearch] = ExactSearch(
            self.ranks.bulls, entries, ENDGAME_LOG2_BY_HAND.get(root.hand_size, SMALL_ENDGAME_LOG2))
        self._search.set_ablation(no_pruning, no_canonical)
        model = default_model() if first_card is True else first_card or None
        if model is not None:
            self._search.set_first_card(model.w1, model.b1, model.w2, model.low, model.high)
        self._search.set_threads(threads)
        self.threads = threads
        self.seconds = 0.0
        self.interrupted = False
        self.progress_file = progress_file
        self.loaded, self.in_file, self.progress_root = 0, 0, root.to_text()
        self._lock: Optional[ProgressLock] = None
        if progress_file is not None:
            check_writable(progress_file)          # now, not at the first save
            self._lock = ProgressLock(progress_file)
            try:
                self.loaded, self.in_file, self.progress_root = load_progress(
                    self._search, root, progress_file)
            except BaseException:
                self.close()
                raise

    # the table's life ----------------------------------------------------------------------
    @property
    def search(self) -> ExactSearch:
        if self._search is None:
            raise NimmtError("this engine is closed: its table was freed")
        return self._search

    def close(self) -> None:
        """Free the transposition table (up to 3.2 GB on a full deal) and the progress file.
        Idempotent."""
        self._search = None
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # running under limits ------------------------------------------------------------------
    def run(self, work: Callable, limit: Optional[Limit] = None,
            progress: Optional[ProgressCallback] = None, same_limits: bool = False):
        """Run `work()` (calls into the search, which release the GIL) in a thread, so the
        caller can show progress and Ctrl-C stops the search cleanly, and return what it
        returns (an exception it raises is raised here). The limits count from now, or with
        `same_limits` go on from the previous run."""
        search = self.search
        if not same_limits:
            limit = limit or Limit()
            if limit.iterations is not None:
                raise NimmtError("the exact solver's limits are nodes and seconds, not iterations")
            search.set_limits(limit.max_nodes, limit.time_limit)
            self.interrupted = False
        start = time.perf_counter()
        saved = [start]

        def tick() -> None:
            if progress is not None:
                progress(search.stats["nodes"], search.root_bounds, time.perf_counter() - start)
            if self.progress_file and time.perf_counter() - saved[0] >= SAVE_EVERY:
                self.save_progress()
                saved[0] = time.perf_counter()

        try:
            result, stopped = run_stoppable(lambda stop: work(), tick, search.request_stop)
        finally:
            self.seconds += time.perf_counter() - start
            if self.progress_file:
                try:
                    self.save_progress()
                except KeyboardInterrupt:    # held until the file was whole: the work stands
                    self.interrupted = True
        self.interrupted = self.interrupted or stopped
        return result

    def save_progress(self) -> int:
        """Write the table's big entries to the progress file (a new one, whole); how many."""
        return save_progress(self.search, self.progress_root, self.progress_file)

    def stats(self, **more) -> SearchStats:
        search = self.search
        helpers = search.helper_stats if self.threads > 1 else {}
        return SearchStats.from_counters(search.stats, helper_nodes=helpers.get("nodes"),
                                         helper_wait_us=helpers.get("wait_us"),
                                         seconds=round(self.seconds, 3),
                                         tt_entries=search.entries, **more)

    # solving -------------------------------------------------------------------------------
    def solve(self, position: Position, limit: Optional[Limit] = None,
              progress: Optional[ProgressCallback] = None, card_values: bool = True,
              principal_line: bool = False) -> Solution:
        """The position's solution, within `limit` (a `SearchLimitError` with the bounds
        proven so far when it stops first). `card_values=False` skips the exact values of
        the cards outside the equilibrium (their entries can cost as much as the solve);
        `principal_line=True` adds the most likely play to the end of the round."""
        check_solvable(position)
        limit = limit or Limit()
        search = self.search
        h1, h2, rows = self.ranks.state(position)
        result = self.run(lambda: search.solve_root(h1, h2, rows), limit, progress)
        if search.aborted or result is None:
            lower, upper = (None, None) if result is None else (result.lower, result.upper)
            lower = None if lower is None or lower <= -UNBOUNDED else lower
            upper = None if upper is None or upper >= UNBOUNDED else upper
            raise SearchLimitError(limit_message(limit, lower, upper, self.interrupted),
                                   bounds=(lower, upper), stats=self.stats(),
                                   interrupted=self.interrupted)
        value, x, y = result.value, result.x, result.y
        lo, hi = result.lower_entries, result.upper_entries
        matrix = np.where(np.isclose(lo, hi, rtol=0, atol=1e-9), lo, np.nan)
        complete = card_values and self.complete_replies(h1, h2, rows, x, y, matrix, progress)
        interrupted = self.interrupted      # Ctrl-C during the card values: stop there
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
        exact = ~np.isnan(matrix)          # the card values' entries made exact too
        bounds = np.stack([np.where(exact, matrix, lo), np.where(exact, matrix, hi)], axis=-1)
        solution = Solution(position, value, strategies, values, matrix,
                            self.stats(card_values_complete=complete), matrix_bounds=bounds)
        if principal_line and not interrupted:
            solution.principal_line = self.principal_line(solution)
        self.interrupted = interrupted
        return solution

    def complete_replies(self, h1, h2, rows, x, y, matrix, progress=None) -> bool:
        """Make exact every entry a card's value needs: each card against the support of the
        opponent's strategy. Runs under the solve's limits (progress shown, Ctrl-C stops
        it): False if one stopped it (the entries left are NaN, the value and strategies
        stay proven)."""
        search = self.search

        def work() -> None:
            for i in range(len(h1)):
                for j in range(len(h2)):
                    if np.isnan(matrix[i, j]) and (x[i] > PROBABILITY_FLOOR
                                                   or y[j] > PROBABILITY_FLOOR):
                        value = search.entry_value(h1, h2, rows, h1[i], h2[j])
                        if search.aborted:
                            return
                        matrix[i, j] = value

        self.run(work, progress=progress, same_limits=True)
        return not search.aborted

    def full_matrix(self, position: Position) -> np.ndarray:
        """Every entry of the position's turn exact (one search each, sharing the table):
        [i, j] the value when player 1 plays their i-th card and player 2 their j-th, hands
        ascending, row choices made by their owners."""
        h1, h2, rows = self.ranks.state(position)
        matrix = np.array([[self.search.entry_value(h1, h2, rows, a, b) for b in h2]
                           for a in h1])
        self.check_not_stopped()
        return matrix

    def value(self, position: Position) -> float:
        h1, h2, rows = self.ranks.state(position)
        value = self.search.value(h1, h2, rows)
        self.check_not_stopped()
        return value

    def check_not_stopped(self) -> None:
        """A call into the search outside `solve` runs under the limits the last run left
        (`run` with `same_limits`): if one stopped it, its result is meaningless and is never
        returned."""
        if self.search.aborted:
            raise SearchLimitError("the limit stopped the search before it proved the value",
                                   bounds=(None, None), stats=self.stats(),
                                   interrupted=self.interrupted)

    # explaining ----------------------------------------------------------------------------
    def row_values(self, position: Position, cards: Tuple[int, int]) -> List[float]:
        """The entry of `cards` (this turn's penalties plus the rest) with each row 0..3
        taken by the lower card, when it is too low."""
        return [self.turn_value(position, cards, row) for row in range(4)]

    def best_row_choice(self, position: Position, cards: Tuple[int, int],
                        values: Optional[List[float]] = None):
        """When the lower card is too low: (owner, row, value) of the owner's best row;
        None otherwise. Values are the entry (this turn's penalties plus the rest)."""
        low_owner = 0 if cards[0] < cards[1] else 1
        if target_row(position.rows, cards[low_owner]) is not None:
            return None
        if values is None:                # else `row_values` of these cards, known already
            values = self.row_values(position, cards)
        sign = 1 if low_owner == 0 else -1
        best = max(sign * v for v in values)
        # rows within rounding of the best are equal: the lowest number, whatever the last
        # bits of the values (they depend on the path that computed them)
        row = min(r for r, v in enumerate(values) if sign * v >= best - LOSS_TOLERANCE)
        return low_owner, row, values[row]

    def row_choice(self, position: Position, cards: Tuple[int, int],
                   values: Optional[List[float]] = None) -> Optional[RowChoice]:
        """When the lower card of `cards` is too low: its owner's best row against the
        cheapest row (the cheapest wins a tie: it is the row a player takes without
        thinking); None otherwise. `values`: the cards' `row_values`, if known."""
        best = self.best_row_choice(position, cards, values)
        if best is None:
            return None
        owner, row, value = best
        cheapest = cheapest_row(position.rows)
        extra = no_noise((value - self.turn_value(position, cards, cheapest))
                         * (1 if owner == 0 else -1))
        if extra <= LOSS_TOLERANCE:
            row, extra = cheapest, 0.0
        return RowChoice(owner, tuple(cards), row, cheapest, extra)

    def first_turn_row_choices(self, solution: Solution,
                               progress: Optional[ProgressCallback] = None
                               ) -> Optional[List[Tuple[float, RowChoice]]]:
        """Every joint play of the equilibrium's turn (both cards played with probability
        > 0) whose lower card is too low, with its probability and `row_choice`, most likely
        first. Runs under the solve's limits (progress shown, Ctrl-C stops it): None if one
        stopped it."""
        position = solution.position
        x, y = solution.strategies

        def work() -> List[Tuple[float, RowChoice]]:
            found = []
            for a in sorted(x):
                for b in sorted(y):
                    choice = self.row_choice(position, (a, b))
                    if choice is not None:
                        found.append((x[a] * y[b], choice))
            return sorted(found, key=lambda f: (-f[0], f[1].cards))

        try:
            return self.run(work, progress=progress, same_limits=True)
        except SearchLimitError:
            return None

    def turn_value(self, position: Position, cards: Tuple[int, int],
                   row: Optional[int] = None) -> float:
        """The entry of `cards`: this turn's penalties plus the value after it (`row`: the
        row a too-low card takes)."""
        outcome = play_cards(position, cards, row)
        penalties = outcome.penalties
        return penalties[1] - penalties[0] + self.value(outcome.position)

    def principal_line(self, solution: Solution) -> List[Line]:
        """The most likely continuation under the equilibrium, to the end of the round. Not
        under the solve's limits (the turns after the first are solves of their own)."""
        self.search.set_limits()
        line: List[Line] = []
        current = solution
        while current.position.hand_size > 0:
            x, y = current.strategies
            a = max(x, key=lambda c: (round(x[c], 9), -c))     # ties: the lower card
            b = max(y, key=lambda c: (round(y[c], 9), -c))
            choice = self.best_row_choice(current.position, (a, b))
            outcome = play_cards(current.position, (a, b), None if choice is None else choice[1])
            line.append(Line((a, b), x[a] * y[b], None if choice is None else choice[:2],
                             outcome.penalties, current.value))
            current = self.solve(outcome.position, card_values=False)
        return line


def play_cards(position: Position, cards: Sequence[int], row: Optional[int] = None) -> TurnOutcome:
    """Both cards played from `position`; `row` is the row the lower card takes if it is
    too low (ignored otherwise)."""
    choices: List[Optional[int]] = [None, None]
    low_owner = 0 if cards[0] < cards[1] else 1
    if row is not None and target_row(position.rows, cards[low_owner]) is None:
        choices[low_owner] = row
    return apply_turn(position, Turn.of(cards, choices))


def expected(entries: np.ndarray, strategy: Sequence[float]) -> float:
    """A card's value against a mixed strategy; NaN if an entry it needs is unknown (cards
    played with probability 0 do not count)."""
    return sum(e * p for e, p in zip(entries, strategy) if p > PROBABILITY_FLOOR)


def none_if_nan(value: float) -> Optional[float]:
    return None if np.isnan(value) else float(value)


def strategy_dict(cards: Sequence[int], probabilities: Sequence[float]):
    return {c: float(p) for c, p in zip(cards, probabilities) if p > PROBABILITY_FLOOR}


def proven_bounds(lower, upper) -> Optional[str]:
    """'value proven in [lower, upper]', or one side of it; None when neither is proven (a
    side that is None or beyond UNBOUNDED is not)."""
    lower = None if lower is None or lower <= -UNBOUNDED else lower
    upper = None if upper is None or upper >= UNBOUNDED else upper
    if lower is None and upper is None:
        return None
    if lower is None:
        return f"value proven <= {upper:.6g}"
    if upper is None:
        return f"value proven >= {lower:.6g}"
    return f"value proven in [{lower:.6g}, {upper:.6g}]"


def limit_message(limit: Limit, lower, upper, interrupted: bool = False) -> str:
    which = []
    if limit.max_nodes:
        which.append(f"{limit.max_nodes} nodes")
    if limit.time_limit:
        which.append(f"{limit.time_limit} s")
    if interrupted or not which:
        reason = f"on request ({stop_name()})"
    else:
        reason = f"by the limit of {' or '.join(which)}"
    bounds = proven_bounds(lower, upper)
    if bounds is None:
        bounds = "no bounds proven yet"
    elif proven_bounds(lower, None) is None or proven_bounds(None, upper) is None:
        bounds += " (a bound, not a value)"
    else:
        bounds += " (bounds, not a value)"
    return f"search stopped {reason} before the value was proven; {bounds}"


def solve(position: Position, limit: Optional[Limit] = None, *, tt_mb: Optional[float] = None,
          threads: int = 1, progress: Optional[ProgressCallback] = None,
          card_values: bool = True, principal_line: bool = True) -> Solution:
    """Exact value and equilibrium strategies of a 2-player complete-information position,
    with the principal line; the engine and its table are freed before it returns.

    threads=N (up to the machine's cores) adds N - 1 helper threads: faster on large
    positions, with the same answer (value, strategies, card values, principal line; only
    the last bits of a float may differ), though node counts then depend on timing.
    card_values=False leaves out the exact values of the cards outside the equilibrium (None
    in Solution.card_values), which can cost as much as the solve itself."""
    with Engine(position, tt_mb, threads=threads) as engine:
        return engine.solve(position, limit, progress, card_values, principal_line)
