"""Independent slow reference solver for the 2-player complete-information game (docs/rules.md,
"The two-player equilibrium").

It exists only to check the fast solver, so it is written for obviousness, not speed:

- exact recursion to the end of the round, every joint play of every turn expanded;
- every too-low card's owner tries all 4 rows and keeps the best one for the value's objective
  (player 1 maximizing, player 2 minimizing what follows, including the rest of the turn);
- each turn's matrix game solved by a linear program (scipy's HiGHS). The only shortcut is a
  pure saddle point check (max-min == min-max proves the value without an LP), which is exact;
- no pruning, no canonical keys: memoization only on the exact state (rows, hand 1, hand 2).

Value = (bullheads player 2 takes from now to the end of the round)
      - (bullheads player 1 takes from now to the end of the round).
"""
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np
from scipy.optimize import linprog

from solver.core.rules import bullheads

Rows = Tuple[Tuple[int, ...], ...]
Hand = Tuple[int, ...]
State = Tuple[Rows, Hand, Hand]

# Exact-state memo shared by every call: sub-positions recur across test positions too.
_MEMO: Dict[State, float] = {}

# Below this gap max-min and min-max are taken as equal: the value lies between them.
SADDLE_TOL = 1e-12


def clear_memo() -> None:
    _MEMO.clear()


def memo_size() -> int:
    return len(_MEMO)


# matrix games ------------------------------------------------------------------------------
def _lp_row_player(M: np.ndarray) -> Tuple[float, np.ndarray]:
    """max v s.t. x.M[:, j] >= v for every column j, x a probability vector."""
    m, n = M.shape
    # variables: x_0..x_{m-1}, v (free); linprog minimizes, so minimize -v.
    c = np.zeros(m + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-M.T, np.ones((n, 1))])          # v - x.M[:, j] <= 0
    b_ub = np.zeros(n)
    a_eq = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    bounds = [(0, None)] * m + [(None, None)]
    res = linprog(c, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=[1.0], bounds=bounds,
                  method="highs")
    if res.status != 0:
        raise RuntimeError(f"LP failed on {M.tolist()}: {res.message}")
    x = np.clip(res.x[:m], 0.0, None)
    return float(res.x[-1]), x / x.sum()


def solve_matrix_lp(M) -> Tuple[float, np.ndarray, np.ndarray]:
    """Value and an equilibrium (x for the maximizing row player, y for the column player)."""
    M = np.asarray(M, dtype=float)
    value, x = _lp_row_player(M)
    # The column player's problem is the row player's one for -M^T.
    neg_value, y = _lp_row_player(-M.T)
    # Both LPs must find the same value (LP duality); a gap means a solver problem.
    if abs(value + neg_value) > 1e-7:
        raise RuntimeError(f"LP values disagree ({value} vs {-neg_value}) on {M.tolist()}")
    return value, x, y


def matrix_value(M) -> float:
    """Value of the zero-sum matrix game: saddle point if any, else an LP."""
    maxmin = max(min(row) for row in M)
    minmax = min(max(col) for col in zip(*M))
    if minmax - maxmin <= SADDLE_TOL:
        return float(maxmin)
    return _lp_row_player(np.asarray(M, dtype=float))[0]


# the game ----------------------------------------------------------------------------------
def _state(position) -> State:
    if len(position.hands) != 2 or any(h is None for h in position.hands):
        raise ValueError("the reference solver needs 2 players with both hands visible")
    rows = tuple(tuple(r) for r in position.rows)
    return rows, tuple(sorted(position.hands[0])), tuple(sorted(position.hands[1]))


def _place(rows: Rows, card: int) -> Optional[Tuple[Rows, int]]:
    """docs/rules.md, placing a card, on tuples: (new rows, bullheads taken), or None if too low.

    Written here from the rules text rather than reusing solver.core.rules, so that the reference
    shares nothing with other code but the bullhead table (a test checks it against
    solver.rules.place_card).
    """
    best = -1
    for i, row in enumerate(rows):
        if row[-1] < card and (best < 0 or row[-1] > rows[best][-1]):
            best = i
    if best < 0:
        return None
    row = rows[best]
    if len(row) == 5:                      # the 6th card takes the row
        return rows[:best] + ((card,),) + rows[best + 1:], _row_bullheads(row)
    return rows[:best] + (row + (card,),) + rows[best + 1:], 0


def _row_bullheads(row: Sequence[int]) -> int:
    return sum(_BULLHEADS[c] for c in row)


_BULLHEADS = [0] + [bullheads(c) for c in range(1, 105)]


def _resolve(rows: Rows, plays: Sequence[Tuple[int, int]], k: int,
             hands: Tuple[Hand, Hand]) -> float:
    """Value from card plays[k] on: resolve this turn's cards in ascending order, then the
    rest of the round. plays = [(card, player)] sorted by card.

    Written for any number of cards and row choices in a turn, without relying on the fact
    that only the lowest card can be too low.
    """
    if k == len(plays):
        return _value(rows, hands[0], hands[1])
    card, player = plays[k]
    sign = 1 if player == 1 else -1       # player 2 (index 1) taking cards raises the value
    placed = _place(rows, card)
    if placed is None:
        # Too low: the owner chooses ANY row, knowing every card of the turn, for the value
        # of everything that follows (not just the bullheads of the row).
        outcomes = []
        for r in range(len(rows)):
            new_rows = rows[:r] + ((card,),) + rows[r + 1:]
            outcomes.append(sign * _row_bullheads(rows[r]) + _resolve(new_rows, plays, k + 1, hands))
        return max(outcomes) if player == 0 else min(outcomes)
    new_rows, taken = placed
    return sign * taken + _resolve(new_rows, plays, k + 1, hands)


def _entry(rows: Rows, h1: Hand, h2: Hand, i: int, j: int) -> float:
    """Value after player 1 plays h1[i] and player 2 plays h2[j]."""
    plays = sorted([(h1[i], 0), (h2[j], 1)])
    rest = (h1[:i] + h1[i + 1:], h2[:j] + h2[j + 1:])
    return _resolve(rows, plays, 0, rest)


def _matrix(rows: Rows, h1: Hand, h2: Hand) -> List[List[float]]:
    return [[_entry(rows, h1, h2, i, j) for j in range(len(h2))] for i in range(len(h1))]


def _value(rows: Rows, h1: Hand, h2: Hand) -> float:
    if not h1:
        return 0.0
    key = (rows, h1, h2)
    v = _MEMO.get(key)
    if v is None:
        v = matrix_value(_matrix(rows, h1, h2))
        _MEMO[key] = v
    return v


# public API ------------------------------------------------------------------------------
def reference_value(position) -> float:
    """Equilibrium value of a 2-player complete-information position (player 1's side)."""
    return _value(*_state(position))


def reference_matrix(position) -> np.ndarray:
    """The root matrix game: rows = player 1's cards ascending, columns = player 2's."""
    return np.array(_matrix(*_state(position)), dtype=float)


def reference_solution(position) -> Tuple[float, np.ndarray, np.ndarray, np.ndarray]:
    """(value, x, y, root matrix) with x, y an equilibrium found by the LP."""
    M = reference_matrix(position)
    value, x, y = solve_matrix_lp(M)
    return value, x, y, M


def row_choice_values(rows: Sequence[Sequence[int]], card: int, player: int,
                      other: Optional[int], hands: Tuple[Sequence[int], Sequence[int]]
                      ) -> List[float]:
    """For a too-low `card` of `player` (0 or 1) resolved first this turn, the value of
    taking each row (the other player's card `other`, if any, is resolved next; `hands` are
    what both hold after this turn). Used by tests to find non-cheapest best choices."""
    rows_t = tuple(tuple(r) for r in rows)
    assert _place(rows_t, card) is None, "card is not too low"
    rest = (tuple(sorted(hands[0])), tuple(sorted(hands[1])))
    sign = 1 if player == 1 else -1
    out = []
    for r in range(len(rows_t)):
        new_rows = rows_t[:r] + ((card,),) + rows_t[r + 1:]
        plays = [] if other is None else [(other, 1 - player)]
        out.append(sign * _row_bullheads(rows_t[r]) + _resolve(new_rows, plays, 0, rest))
    return out
