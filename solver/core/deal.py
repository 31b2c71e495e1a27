"""Dealing: a shuffled deck to the seats and the rows, and seeded 2-player 24-card positions
played down to a hand size (`nimmt deal`, the exact solver's training and benchmarks).

Randomness comes only from the `random.Random` given (or built from the seed given), so the
same seed gives the same positions.
"""
import random
from typing import Iterator, Sequence

from .position import Position
from .rules import ROWS, GameConfig
from .turn import Turn, apply_turn

PLAYOUT_RULE = ("each turn both players play a card drawn uniformly from their hand"
                " (player 1 first), and a card lower than every row end takes the row with"
                " the fewest bullheads (the lowest-numbered among equals)")


def deal(config: GameConfig, rng: random.Random) -> Position:
    """Shuffle cards 1..D, deal 10 to each player, then 4 cards start the rows."""
    cards = list(range(1, config.deck + 1))
    rng.shuffle(cards)
    return dealt_position(config, cards)


def dealt_position(config: GameConfig, cards: Sequence[int]) -> Position:
    """The position the cards in this order deal: the hand size to each player in turn,
    then 4 cards, each starting a row (the cards after those stay in the box)."""
    size = config.hand_size
    hands = [sorted(cards[k * size:(k + 1) * size]) for k in range(config.players)]
    start = config.players * size
    rows = [[c] for c in cards[start:start + ROWS]]
    return Position.create(rows, hands, deck=config.deck)


def played_down(position: Position, cards: int, rng: random.Random) -> Position:
    """`position` played by `PLAYOUT_RULE` until each hand holds `cards` cards."""
    while position.hand_size > cards:
        played = [rng.choice(hand) for hand in position.hands]
        position = apply_turn(position, Turn.of(played)).position   # too low: cheapest row
    return position


def seeded_positions(count: int, seed: int, cards: int) -> Iterator[Position]:
    """`count` positions of the 2-player 24-card game with `cards` cards a hand, all from
    one `random.Random(seed)` in order: each a fresh deal played down by `PLAYOUT_RULE`."""
    rng = random.Random(seed)
    config = GameConfig.variant(2)
    for _ in range(count):
        yield played_down(deal(config, rng), cards, rng)
