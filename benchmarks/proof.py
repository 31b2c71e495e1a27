"""Proof obligations: how many node expansions a small proof of a position's value needs.

The exact search proves a root's value by expanding matrix nodes (3 or more cards per hand;
1- and 2-card nodes are closed forms). This module builds a greedy proof of the same value
that knows every true value, and counts the nodes it expands per hand size, so that the
search's expansions (`expanded_by_cards`) can be read against them. Definitions
(docs/benchmarks.md, "Search expansions against proof obligations"):

- A node's matrix M has exact entries: the turn's bullheads (player 2's minus player 1's)
  plus the child's value, a too-low card's owner taking its best row.
- LOWER proof of "node >= t": player 1's single card with the largest margin
  min_j M[i, j] - t if some card has margin >= 0, else the equilibrium x* of M. With
  s_j = x.M[:, j] - t >= 0, every entry (i, j) with x_i > 0 needs "entry >= M[i, j] - s_j"
  (so sum_i x_i t_ij = t). An entry's bound is its child's bound, shifted by the turn's
  reward; if player 1 must take a row, its best row alone; if player 2 must, all 4 rows.
- UPPER proof of "node <= t": the same for player 2 (single card with the largest margin
  t - max_i M[i, j], else y*), every row i against columns j with y_j > 0, row choices
  mirrored.
- The root needs both proofs at its value v. States of 1 or 2 cards need no proof.
- States are merged on the search's canonical key (a state and its player swap are one
  state: a lower bound of one is an upper bound of the other). A state needed by several
  parents, with several thresholds, is proven once per side, at the tightest threshold
  asked (the largest lower, the smallest upper bound): that proof covers the others. Levels
  are done from the root down, so a level's thresholds are final before it is expanded.
- Obligations of a level: the distinct states that need a proof of either side (a state
  needing both is one expansion, as the search counts an exact node once). Two-sided
  states need both sides; exact ones need both at the state's value (compare the search's
  `exact_by_cards`).
- Entries are rounded to 1e-10 and margins within 1e-9 are ties (the lowest card wins), so
  the proof depends on the position only, not on the search's rounding noise.

The true values, entries and equilibria come from the exact search itself, one
`ExactSearch` (its table kept) for the whole computation.
"""
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import numpy as np

from solver._matgame import solve_matrix
from solver._search import ExactSearch
from solver.core.position import Position
from solver.exact.engine import Engine

TOL = 1e-9            # a strategy proves a bound if it misses by rounding only
DIGITS = 10           # entries rounded to this many decimals: equal values compare equal
FLOOR = 1e-12         # probabilities below this are dropped from a mixed strategy
SMALLEST = 3          # nodes of fewer cards are closed forms: no obligation

Row = Tuple[int, int, int]                           # (end rank, length, bullhead sum)
State = Tuple[Tuple[int, ...], Tuple[int, ...], Tuple[Row, ...]]   # hands (ranks), rows


def swap(state: State) -> State:
    """The same state with the players' hands exchanged: its value is the negation."""
    return state[1], state[0], state[2]


# the proof ---------------------------------------------------------------------------------
@dataclass
class Need:
    """What a canonical state must be proven (in the key's orientation): value >= lower,
    value <= upper (None: that side is not needed)."""
    state: State                     # a representative, in the key's orientation
    lower: Optional[float] = None
    upper: Optional[float] = None


@dataclass
class Expansion:
    """One proven side of a state (kept with `keep=True`, for checks)."""
    state: State
    side: str                        # "lower" or "upper"
    threshold: float
    strategy: Tuple[float, ...]      # the prover's probabilities over its ascending hand
    pure: bool


@dataclass
class Proof:
    value: float                     # the root's value (the root's own orientation)
    cards: int                       # cards per hand at the root
    states: Dict[int, int] = field(default_factory=dict)       # by cards: obligations
    lower: Dict[int, int] = field(default_factory=dict)        # ... needing a lower proof
    upper: Dict[int, int] = field(default_factory=dict)        # ... needing an upper proof
    two_sided: Dict[int, int] = field(default_factory=dict)    # ... needing both
    exact: Dict[int, int] = field(default_factory=dict)        # ... both at the value
    pure: Dict[int, int] = field(default_factory=dict)         # sides proven by one card
    seconds: float = 0.0
    needs: Optional[Dict[int, Dict[int, Need]]] = None         # with keep=True
    expansions: Optional[List[Expansion]] = None               # with keep=True

    def to_dict(self) -> dict:
        """JSON form: the counts by cards (string keys), no states."""
        by = lambda d: {str(k): d.get(k, 0) for k in sorted(self.states, reverse=True)}  # noqa: E731
        return {"value": self.value, "cards": self.cards, "seconds": round(self.seconds, 3),
                "states": by(self.states), "lower": by(self.lower), "upper": by(self.upper),
                "two_sided": by(self.two_sided), "exact": by(self.exact),
                "pure": by(self.pure)}


class ProofBuilder:
    """Greedy proofs over one exact search, whose table serves every value asked."""

    def __init__(self, search: ExactSearch, all_levels: bool = False):
        self.search = search
        # with all_levels, 3-card obligations get a strategy too (a complete proof, for the
        # checks); the count does not need it, as their children are closed forms
        self.all_levels = all_levels

    def value(self, state: State) -> float:
        return self.search.value(state[0], state[1], state[2])

    def key(self, state: State) -> Tuple[int, bool]:
        return self.search.canonical_key(state[0], state[1], state[2])

    def resolve(self, state: State, a: int, b: int, choice: int = 0) -> Tuple[State, int, int]:
        """Player 1 plays rank a, player 2 rank b, a too-low card takes row `choice`, by the
        search's own rule: (next state, reward = player 2's bullheads minus player 1's, the
        owner 0/1 of a too-low card or -1)."""
        *child, reward, chooser = self.search.play_turn(state[0], state[1], state[2], a, b,
                                                        choice)
        return tuple(child), reward, chooser

    def entry(self, state: State, a: int, b: int) -> Tuple[int, List[Tuple[int, State, float]]]:
        """(owner of a too-low card or -1, options): each option (reward, child, reward +
        child's value); 4 options (rows 0..3) when a card is too low, else 1."""
        child, reward, chooser = self.resolve(state, a, b)
        if chooser < 0:
            return -1, [(reward, child, reward + self.value(child))]
        options = []
        for row in range(4):
            child, reward, _ = self.resolve(state, a, b, row)
            options.append((reward, child, reward + self.value(child)))
        return chooser, options

    def matrix(self, state: State):
        """The exact k x k matrix and each entry's (chooser, options)."""
        k = len(state[0])
        entries = [[self.entry(state, a, b) for b in state[1]] for a in state[0]]
        m = np.empty((k, k))
        for i in range(k):
            for j in range(k):
                chooser, options = entries[i][j]
                values = [o[2] for o in options]
                m[i, j] = min(values) if chooser == 1 else max(values)
        return np.round(m, DIGITS), entries

    def build(self, root: State, keep: bool = False) -> Proof:
        start = time.perf_counter()
        k0 = len(root[0])
        value = self.value(root)
        proof = Proof(value, k0)
        if keep:
            proof.needs, proof.expansions = {}, []
        if k0 < SMALLEST:
            proof.seconds = time.perf_counter() - start
            return proof
        levels: Dict[int, Dict[int, Need]] = {k: {} for k in range(SMALLEST, k0 + 1)}
        self.require(levels, root, "lower", value)
        self.require(levels, root, "upper", value)
        for k in range(k0, SMALLEST - 1, -1):
            for need in levels[k].values():
                sides = [s for s in ("lower", "upper") if getattr(need, s) is not None]
                proof.states[k] = proof.states.get(k, 0) + 1
                for side in sides:
                    counts = getattr(proof, side)
                    counts[k] = counts.get(k, 0) + 1
                if len(sides) == 2:
                    proof.two_sided[k] = proof.two_sided.get(k, 0) + 1
                    v = self.value(need.state)
                    if need.lower >= v - TOL and need.upper <= v + TOL:
                        proof.exact[k] = proof.exact.get(k, 0) + 1
                if k == SMALLEST and not self.all_levels:
                    continue
                m, entries = self.matrix(need.state)
                for side in sides:
                    x, pure = self.expand(levels, need.state, side, getattr(need, side), m,
                                          entries)
                    if pure:
                        proof.pure[k] = proof.pure.get(k, 0) + 1
                    if keep:
                        proof.expansions.append(Expansion(need.state, side, getattr(need, side),
                                                          tuple(x), pure))
            if keep:
                proof.needs[k] = levels[k]
            levels[k] = {} if not keep else levels[k]     # a finished level is not needed
        proof.seconds = time.perf_counter() - start
        return proof

    def require(self, levels: Dict[int, Dict[int, Need]], state: State, side: str,
                threshold: float) -> None:
        """Ask for a proof of `side` at `threshold` of a state (nothing below 3 cards)."""
        if len(state[0]) < SMALLEST:
            return
        key, swapped = self.key(state)
        if swapped:
            state, threshold = swap(state), -threshold
            side = "upper" if side == "lower" else "lower"
        need = levels[len(state[0])].get(key)
        if need is None:
            need = levels[len(state[0])][key] = Need(state)
        old = getattr(need, side)
        if old is None or (threshold > old if side == "lower" else threshold < old):
            setattr(need, side, threshold)

    def expand(self, levels, state: State, side: str, t: float, m: np.ndarray,
               entries) -> Tuple[np.ndarray, bool]:
        """Choose the prover's strategy for `side` at `t` and ask for its entries' bounds.
        Written for the lower side; the upper side is the same game seen by player 2
        (the matrix negated and transposed, thresholds negated)."""
        lower = side == "lower"
        a = m if lower else -m.T             # the prover maximizes a
        goal = t if lower else -t
        margins = a.min(axis=1) - goal
        best = int(np.flatnonzero(margins >= margins.max() - TOL)[0])   # ties: lowest card
        pure = bool(margins[best] >= -TOL)
        if pure:
            x = np.zeros(len(a))
            x[best] = 1.0
        else:
            _, x1, y1 = solve_matrix(m)
            x = np.array(x1 if lower else y1)
            x[x < FLOOR] = 0.0
            x /= x.sum()
        slack = np.maximum(x @ a - goal, 0.0)          # spread evenly over the entries
        for i in np.flatnonzero(x):
            for j in range(len(a)):
                bound = a[i, j] - slack[j]             # entry (i, j) of a must reach this
                chooser, options = entries[i][j] if lower else entries[j][i]
                # the prover's own row choice: its best row suffices; the opponent's: all
                mine = chooser == (0 if lower else 1)
                if mine:
                    pick = max if lower else min
                    options = [pick(options, key=lambda o: round(o[2], DIGITS))]
                for reward, child, _ in options:
                    if lower:
                        self.require(levels, child, "lower", bound - reward)
                    else:
                        self.require(levels, child, "upper", -bound - reward)
        return x, pure


def position_proof(position: Position, keep: bool = False, all_levels: bool = False,
                   tt_mb: Optional[float] = None) -> Proof:
    """The proof obligations of a position (both hands known, 2 players), with a fresh
    engine whose table serves the whole computation."""
    with Engine(position, tt_mb=tt_mb) as engine:
        h1, h2, rows = engine.ranks.state(position)
        root = (tuple(sorted(h1)), tuple(sorted(h2)), tuple(tuple(r) for r in rows))
        builder = ProofBuilder(engine.search, all_levels=all_levels)
        return builder.build(root, keep=keep)
