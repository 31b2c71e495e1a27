"""The proof obligations of benchmarks/proof.py: every bound the greedy proof asks for is
really proven by its strategies and its children's bounds (closed forms below 3 cards), the
counts do not depend on the search's table, and a hand-built position has the count worked
out by hand."""
import random

import pytest

from benchmarks.proof import SMALLEST, ProofBuilder, position_proof
from solver.core.position import Position
from solver.exact.engine import Engine
from tests.positions_gen import random_deal, random_midround
from tests.reference_solver import reference_value

TOL = 1e-9
POSITIONS = [(random_deal if k % 2 else random_midround)(random.Random(500 + k), size)
             for k, size in enumerate([3, 3, 4, 4, 4, 4, 5, 5])]


def build(position: Position, tt_mb=None):
    """(engine, builder, proof) with every level's strategies and needs kept."""
    engine = Engine(position, tt_mb=tt_mb)
    h1, h2, rows = engine.ranks.state(position)
    root = (tuple(sorted(h1)), tuple(sorted(h2)), tuple(tuple(r) for r in rows))
    builder = ProofBuilder(engine.search, all_levels=True)
    return engine, builder, root, builder.build(root, keep=True)


def proven(builder, needs, state, side):
    """What the proof proves of `state` on `side` (its own orientation): its exact value
    below 3 cards (closed forms), else the threshold the proof proves, None if it has none."""
    if len(state[0]) < SMALLEST:
        return builder.value(state)
    key, swapped = builder.key(state)
    need = needs[len(state[0])].get(key)
    if need is None:
        return None
    if swapped:
        bound = need.upper if side == "lower" else need.lower
        return None if bound is None else -bound
    return getattr(need, side)


def entry_bound(builder, needs, state, a, b, side):
    """The bound on entry (a, b) that the children's proofs give; None if none."""
    chooser, options = builder.entry(state, a, b)
    bounds = []
    for reward, child, _ in options:
        child_bound = proven(builder, needs, child, side)
        bounds.append(None if child_bound is None else reward + child_bound)
    known = [v for v in bounds if v is not None]
    # the prover choosing a row needs one proven row; the opponent choosing, all of them
    if chooser == (0 if side == "lower" else 1):
        return (max if side == "lower" else min)(known) if known else None
    return None if len(known) < len(bounds) else (min if side == "lower" else max)(known)


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_the_proof_proves_every_bound_it_asks_for(index):
    position = POSITIONS[index]
    engine, builder, root, proof = build(position)
    with engine:
        assert abs(proof.value - reference_value(position)) <= TOL
        needs = proof.needs
        # the root is asked for both sides at its value
        assert proven(builder, needs, root, "lower") == pytest.approx(proof.value, abs=TOL)
        assert proven(builder, needs, root, "upper") == pytest.approx(proof.value, abs=TOL)
        sides = sum((n.lower is not None) + (n.upper is not None)
                    for level in needs.values() for n in level.values())
        assert len(proof.expansions) == sides           # every side asked for is expanded
        for e in proof.expansions:
            hand1, hand2, _ = e.state
            prover, other = (hand1, hand2) if e.side == "lower" else (hand2, hand1)
            assert abs(sum(e.strategy) - 1) <= TOL and min(e.strategy) >= 0
            assert e.pure == (max(e.strategy) == 1.0)
            for o in other:
                guaranteed = 0.0
                for card, p in zip(prover, e.strategy):
                    if p > 0:
                        a, b = (card, o) if e.side == "lower" else (o, card)
                        bound = entry_bound(builder, needs, e.state, a, b, e.side)
                        assert bound is not None, (e.side, a, b)
                        guaranteed += p * bound
                if e.side == "lower":
                    assert guaranteed >= e.threshold - TOL
                else:
                    assert guaranteed <= e.threshold + TOL


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_entries_follow_the_search(index):
    """The proof's entries (rank form, the search's turn rule) are the search's."""
    position = POSITIONS[index]
    engine, builder, root, _ = build(position)
    with engine:
        hand1, hand2, rows = root
        for a in hand1:
            for b in hand2:
                chooser, options = builder.entry(root, a, b)
                values = [o[2] for o in options]
                entry = min(values) if chooser == 1 else max(values)
                assert entry == pytest.approx(
                    engine.search.entry_value(hand1, hand2, rows, a, b), abs=TOL)
                assert (chooser >= 0) == (len(options) == 4)
                assert builder.resolve(root, a, b)[0][0] == tuple(c for c in hand1 if c != a)


def test_counts_do_not_depend_on_the_table():
    position = random_midround(random.Random(7), 6)
    counts = [position_proof(position, tt_mb=mb).to_dict() for mb in (8, 1, 8)]
    for c in counts:
        c.pop("seconds")
    assert counts[0] == counts[1] == counts[2]
    assert counts[0]["states"]["6"] == 1 and counts[0]["exact"]["6"] == 1


def test_a_position_where_nothing_is_ever_taken():
    """Every card lands in its own block of the rows (ends 1, 6, 11, 16), so no row ever
    gets a 6th card, no card is too low and every entry is 0. The lower proof of the root is
    player 1's lowest card (2, ties go to the lowest) against player 2's 4 cards, the upper
    proof player 2's lowest card (3) against player 1's 4 cards: 4 + 4 - 1 states of 3
    cards, (2, 3) the only one needing both sides."""
    position = Position.create([[1], [6], [11], [16]], [[2, 7, 12, 17], [3, 8, 13, 18]],
                               [0, 0], deck=24)
    engine, builder, root, proof = build(position)
    with engine:
        assert proof.value == 0.0
        assert proof.states == {4: 1, 3: 7} and proof.two_sided == {4: 1, 3: 1}
        assert proof.exact == {4: 1, 3: 1} and proof.pure == {4: 2, 3: 8}
        rank = engine.ranks.rank
        expected = {builder.key(builder.resolve(root, rank[a], rank[b])[0])[0]
                    for a, b in [(2, 3), (2, 8), (2, 13), (2, 18), (7, 3), (12, 3), (17, 3)]}
        assert set(proof.needs[3]) == expected
