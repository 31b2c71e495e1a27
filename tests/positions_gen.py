"""Deterministic random test positions for the 2-player 10n+4 game (deck 24).

- `random_deal(rng, h)`: a fresh deal, 4 one-card rows and two hands of h cards. For h = 10
  it uses all 24 cards; for smaller h it is a deal from 4 + 2h of the 24 cards (the others
  are simply absent, like cards already gone).
- `random_midround(rng, h)`: a full 10-card deal played randomly for 10 - h turns (random
  cards, random row choices), so rows have realistic lengths, some 5-card rows, dead cards
  and penalties.
- `small_positions(n, seed)`: n positions with 1..6 cards per hand, mostly small, half deals
  half mid-round, always the same for the same arguments.

Everything takes a `random.Random` (or a seed) so tests are reproducible.
"""
import random
from typing import List, Sequence

from solver.core.position import Position
from solver.core.rules import ROWS, bullheads, cheapest_row, play_turn

DECK = 24
FULL_HAND = 10
# A 7-card position whose value once came out 1.7e-6 too high (a shifted window rounded a
# bound into an exact value: test_exact_vs_reference.test_window_shift_rounding)
WINDOW_SHIFT_ROUNDING = ("24; 3 4 6, 19 24, 10 15, 17 18 23; 2 7 9 11 16 20 22, "
                         "1 5 8 12 13 14 21; 0 0")


def random_deal(rng: random.Random, hand_size: int = FULL_HAND) -> Position:
    """A start of round: rows of one card each, two hands of `hand_size` cards."""
    if not 1 <= hand_size <= FULL_HAND:
        raise ValueError(f"hand size must be 1..10, got {hand_size}")
    cards = rng.sample(range(1, DECK + 1), ROWS + 2 * hand_size)
    rows = [[c] for c in cards[:ROWS]]
    hands = [sorted(cards[ROWS:ROWS + hand_size]), sorted(cards[ROWS + hand_size:])]
    return Position.create(rows, hands, [0, 0], deck=DECK)


def random_midround(rng: random.Random, hand_size: int) -> Position:
    """A full deal after 10 - hand_size turns of random play."""
    if not 1 <= hand_size <= FULL_HAND:
        raise ValueError(f"hand size must be 1..10, got {hand_size}")
    start = random_deal(rng, FULL_HAND)
    rows = [list(r) for r in start.rows]
    hands = [list(h) for h in start.hands]
    penalties = [0, 0]

    def chooser(player, rows_now, card):
        # Mix sensible (cheapest) and arbitrary choices, to reach varied rows.
        return cheapest_row(rows_now) if rng.random() < 0.5 else rng.randrange(ROWS)

    for _ in range(FULL_HAND - hand_size):
        cards = [h.pop(rng.randrange(len(h))) for h in hands]
        rows, taken = play_turn(rows, cards, chooser)
        for k in range(2):
            penalties[k] += sum(bullheads(c) for c in taken[k])
    return Position.create(rows, [sorted(h) for h in hands], penalties, deck=DECK)


# Most test positions are small because the reference solver is slow (see its module doc).
SIZE_WEIGHTS = {1: 15, 2: 25, 3: 25, 4: 25, 5: 7, 6: 3}


def small_positions(n: int, seed: int = 2024, max_size: int = 6,
                    weights: Sequence[int] = None) -> List[Position]:
    """n positions with 1..max_size cards per hand (weighted towards small hands),
    alternating fresh deals and mid-round positions."""
    rng = random.Random(seed)
    sizes = list(range(1, max_size + 1))
    w = list(weights) if weights is not None else [SIZE_WEIGHTS.get(s, 1) for s in sizes]
    out = []
    for k in range(n):
        h = rng.choices(sizes, w)[0]
        out.append(random_deal(rng, h) if k % 2 == 0 else random_midround(rng, h))
    return out


# A fixed, small list for quick tests: 2 deals and 2 mid-round positions per size 1..4.
SMALL_POSITIONS: List[Position] = [
    (random_deal if k % 2 == 0 else random_midround)(random.Random(1000 + 10 * h + k), h)
    for h in range(1, 5) for k in range(4)
]
