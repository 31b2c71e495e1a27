"""The fast exact solver (solver.exact.solve) against the independent slow reference
(tests/reference_solver.py): values to 1e-6 on 300+ random positions with 1..6 cards per hand,
and every returned strategy pair an equilibrium of the reference root matrix.

Positions: `small_positions` (fresh deals and mid-round positions reached by random play,
1..5 cards, most of them 1..4), plus a few 6-card positions and positions reached from them by
random play (free for the reference: its exact-state memo already holds them).

Cost is dominated by the reference (plain Python): about 1 s per 5-card position and
30-120 s per 6-card position. NIMMT_REF_SIX (default 2, at most 5) sets how many 6-card
roots to use.
"""
import os
import random

import numpy as np
import pytest

from solver.exact import Engine, solve
from solver.core.position import Position
from solver.core.rules import bullheads, play_turn
from tests import reference_solver as ref
from tests.positions_gen import WINDOW_SHIFT_ROUNDING, random_midround, small_positions
from tests.support import assert_equilibrium, strategy_vector

TOL = 1e-6
N_SMALL = 300
SIX_CARD_ROOTS = int(os.environ.get("NIMMT_REF_SIX", "2"))
DESCENDANTS_PER_ROOT = 12


def check_against_reference(p: Position) -> None:
    sol = solve(p)
    v_ref = ref.reference_value(p)
    assert abs(sol.value - v_ref) <= TOL, f"{p.to_text()}: exact {sol.value} reference {v_ref}"

    M = ref.reference_matrix(p)
    h1, h2 = p.hands
    # Strategies: probability vectors over the hands, ascending cards.
    x = strategy_vector(sol.strategies[0], h1)
    y = strategy_vector(sol.strategies[1], h2)
    # No pure reply of the opponent does better than the value by more than TOL.
    assert_equilibrium(M, x, y, v_ref, TOL, what=p.to_text())

    # Root entries the fast solver reports (NaN = not needed by its search) must be exact.
    fast = np.asarray(sol.matrix, dtype=float)
    assert fast.shape == M.shape
    known = ~np.isnan(fast)
    assert np.allclose(fast[known], M[known], atol=TOL, rtol=0), p.to_text()


def descendants(rng: random.Random, root: Position, count: int):
    """Positions reached from `root` by random play (random cards and row choices)."""
    out = []
    for _ in range(count):
        rows = [list(r) for r in root.rows]
        hands = [list(h) for h in root.hands]
        for _ in range(rng.randint(1, len(hands[0]) - 1)):
            cards = [h.pop(rng.randrange(len(h))) for h in hands]
            rows, _ = play_turn(rows, cards, lambda k, rws, c: rng.randrange(4))
        out.append(Position.create(rows, hands, deck=24))
    return out


SMALL = small_positions(N_SMALL, seed=31337, max_size=5, weights=[15, 25, 25, 25, 10])


@pytest.mark.parametrize("k", range(N_SMALL))
def test_small_positions(k):
    if ref.memo_size() > 300_000:      # keep the reference's memo to a few hundred MB
        ref.clear_memo()
    check_against_reference(SMALL[k])


# 6-card roots, among the quicker ones for the reference (25-50 s, 0.4-0.5 GB of memo each):
# random_deal(Random(2), 6), random_midround(Random(5), 6), random_deal(Random(1), 6),
# random_deal(Random(4), 6), random_midround(Random(4), 6).
SIX_TEXT = [
    "24; 2, 3, 23, 12; 6 7 9 10 19 24, 11 14 17 18 21 22; 0 0",
    "24; 1 4 6, 9 10, 12 16, 21 22; 2 8 15 17 18 24, 5 11 13 14 19 23; 2 3",
    "24; 5, 19, 3, 9; 4 13 15 16 17 23, 1 2 7 8 10 20; 0 0",
    "24; 8, 10, 4, 13; 1 3 5 7 16 18, 9 14 19 20 22 23; 0 0",
    "24; 8 9, 10 12 24, 4 5, 1; 3 7 16 19 20 22, 2 6 11 14 17 23; 5 0",
]
SIX = [Position.from_text(t) for t in SIX_TEXT[:SIX_CARD_ROOTS]]


@pytest.mark.parametrize("k", range(SIX_CARD_ROOTS))
def test_six_card_positions_and_their_descendants(k):
    ref.clear_memo()            # bound the reference's memory to one 6-card tree
    root = SIX[k]
    check_against_reference(root)
    for p in descendants(random.Random(k), root, DESCENDANTS_PER_ROOT):
        check_against_reference(p)
    ref.clear_memo()


def test_spec_examples(spec_worked_position, spec_exchange_position):
    p = Position.from_dict(spec_worked_position)
    sol = solve(p)
    assert sol.value == pytest.approx(46 / 17, abs=1e-9)
    assert sol.strategies[0] == pytest.approx({19: 7 / 17, 22: 10 / 17}, abs=1e-9)
    assert sol.strategies[1] == pytest.approx({5: 9 / 17, 17: 8 / 17}, abs=1e-9)
    q = Position.from_dict(spec_exchange_position)
    assert solve(q).value == pytest.approx(-4, abs=1e-9)


def test_window_shift_rounding():
    # A child is searched in its parent's window less the turn's reward; shifting the window
    # and the value back once rounded a child's upper bound (at the window's edge) just
    # inside the window, where it passed for an exact value: with the search order of the
    # no-canonical-keys ablation this position came out 1.7e-6 too high. Backward induction
    # (no pruning) gives the true value.
    p = Position.from_text(WINDOW_SHIFT_ROUNDING)
    truth = Engine(p, no_pruning=True).solve(p, card_values=False).value
    for options in ({}, {"no_canonical": True}):
        value = Engine(p, **options).solve(p, card_values=False).value
        assert value == pytest.approx(truth, abs=1e-9), options


def test_row_choice_not_the_cheapest():
    rows = [[4], [10, 12, 13, 14, 15], [11, 16], [20]]
    assert solve(Position.create(rows, [[1], [17]], deck=24)).value == pytest.approx(2)
    assert solve(Position.create(rows, [[17], [1]], deck=24)).value == pytest.approx(-2)


# The canonical key keys a row that cannot get a 6th card (its length plus the cards in hand
# above its end is at most 5) as length 1, and a row above every card in hand by its
# bullheads alone. Twins: the same position with such a row rebuilt from other dead cards
# (another length, the same end and bullhead sum) must have the same value for the reference,
# and the fast solver must agree with the reference on both, at the edge (5 or 6) too.
def cards_above(position: Position, r: int) -> int:
    """Cards in hand (both players) above the end of row r."""
    return sum(c > position.rows[r][-1] for hand in position.hands for c in hand)


def merge_edge_rows(position: Position):
    """Indices of the rows whose key the merges decide at their edge: length + cards in
    hand above the end is 5 or 6, or no card in hand is above the end."""
    out = []
    for r, row in enumerate(position.rows):
        above = cards_above(position, r)
        if above == 0 or len(row) + above in (5, 6):
            out.append(r)
    return out


def twin(rng: random.Random, position: Position, r: int):
    """`position` with row r rebuilt: the same end and bullhead sum, another length, its
    other cards drawn from the cards below the end that are nowhere else. None if none found."""
    row = position.rows[r]
    used = {c for rw in position.rows for c in rw} | {c for h in position.hands for c in h}
    free = [c for c in range(1, row[-1]) if c not in used]
    target = sum(bullheads(c) for c in row[:-1])
    pool = free + list(row[:-1])
    for _ in range(200):
        length = rng.randint(1, 5)
        if length == len(row) or length - 1 > len(pool):
            continue
        body = sorted(rng.sample(pool, length - 1))
        if sum(bullheads(c) for c in body) == target:
            rows = [list(rw) for rw in position.rows]
            rows[r] = body + [row[-1]]
            return Position.create(rows, [list(h) for h in position.hands], deck=24)
    return None


def edge_twins(n: int):
    rng = random.Random(99)
    out = []
    for p in small_positions(3000, seed=4242, max_size=4, weights=[10, 30, 30, 30]):
        for r in merge_edge_rows(p):
            q = twin(rng, p, r)
            if q is not None:
                out.append((p, q, r))
                break
        if len(out) == n:
            break
    return out


def merged(p: Position, q: Position, r: int) -> bool:
    """Do the twins differ only where the key cannot see (their row r keys the same)?"""
    above = cards_above(p, r)
    return above == 0 or (len(p.rows[r]) + above <= 5 and len(q.rows[r]) + above <= 5)


EDGE_TWINS = edge_twins(60)


def test_edge_twins_cover_both_cases():
    kinds = [merged(p, q, r) for p, q, r in EDGE_TWINS]
    assert len(EDGE_TWINS) == 60 and 10 <= sum(kinds) <= 50


@pytest.mark.parametrize("k", range(len(EDGE_TWINS)))
def test_rows_the_key_merges(k):
    p, q, r = EDGE_TWINS[k]
    expected_p, expected_q = ref.reference_value(p), ref.reference_value(q)
    if merged(p, q, r):
        assert expected_q == pytest.approx(expected_p, abs=1e-9)
    # one engine for both: its table holds p's states when q is solved, so a key that
    # merged twins it should not would hand q a value of p's
    engine = Engine(p)
    assert engine.solve(p).value == pytest.approx(expected_p, abs=TOL)
    assert engine.solve(q).value == pytest.approx(expected_q, abs=TOL)


def test_last_two_turns_closed_form():
    """The closed form of the last two turns (2-card nodes, at the root and as the children of
    3-card nodes) against the reference, on positions late in a round."""
    ref.clear_memo()
    rng = random.Random(7)
    positions = ([random_midround(rng, 2) for _ in range(600)]
                 + [random_midround(rng, 3) for _ in range(150)])
    too_low = 0
    for p in positions:
        v_ref = ref.reference_value(p)
        assert abs(solve(p, card_values=False).value - v_ref) <= TOL, p.to_text()
        lowest_end = min(r[-1] for r in p.rows)
        too_low += any(min(h) < lowest_end for h in p.hands)
    assert too_low >= 100          # the row choices of too-low cards are well exercised
    ref.clear_memo()
