"""Seeded 2-player 24-card positions for a batch (`nimmt deal --count`).

Every position of a file comes from one `random.Random(seed)`, in order: the same seed, count
and cards give the same positions. A position of C cards a hand is a fresh deal (10 cards a
hand, four one-card rows) played for 10 - C turns by `PLAYOUT_RULE`.
"""
import random
from typing import Iterator

from .. import errors
from ..core.position import Position
from ..core.rules import GameConfig
from ..core.turn import Turn, apply_turn
from ..limits import MAX_GAMES
from ..play.runner import deal

FULL_HAND = 10
MAX_COUNT = MAX_GAMES                   # positions of one file
PLAYOUT_RULE = ("each turn both players play a card drawn uniformly from their hand"
                " (player 1 first), and a card lower than every row end takes the row with"
                " the fewest bullheads (the lowest-numbered among equals)")


def deal_positions(count: int, seed: int, cards: int = FULL_HAND) -> Iterator[Position]:
    """`count` positions of the 2-player 24-card game with `cards` cards a hand (1..10)."""
    if not (errors.is_integer(count) and 1 <= count <= MAX_COUNT):
        raise errors.ConfigError(f"count must be an integer in 1..{MAX_COUNT},"
                                 f" got {errors.quote(count)}")
    if not (errors.is_integer(cards) and 1 <= cards <= FULL_HAND):
        raise errors.ConfigError(f"cards must be an integer in 1..{FULL_HAND},"
                                 f" got {errors.quote(cards)}")
    rng = random.Random(seed)
    config = GameConfig.variant(2)
    for _ in range(count):
        yield played_down(deal(config, rng), cards, rng)


def played_down(position: Position, cards: int, rng: random.Random) -> Position:
    """`position` played by `PLAYOUT_RULE` until each hand holds `cards` cards."""
    while position.hand_size > cards:
        played = [rng.choice(hand) for hand in position.hands]
        position = apply_turn(position, Turn.of(played)).position   # too low: cheapest row
    return position
