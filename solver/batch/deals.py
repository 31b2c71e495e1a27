"""Seeded 2-player 24-card positions for a batch (`nimmt deal --count`).

Every position of a file comes from one `random.Random(seed)`, in order: the same seed, count
and cards give the same positions. A position of C cards a hand is a fresh deal (10 cards a
hand, four one-card rows) played for 10 - C turns by `PLAYOUT_RULE` (core/deal.py).
"""
from typing import Iterator

from .. import errors
from ..core.deal import seeded_positions
from ..files import FileKind
from ..linefile import json_line
from ..core.position import Position
from ..limits import MAX_GAMES

FULL_HAND = 10
MAX_COUNT = MAX_GAMES                   # positions of one file


def _deal_lines(head: bytes) -> bool:
    """Whether a file's first bytes are JSON lines of positions (the last one may be cut),
    not game records (a position and its turns: `play --record`'s lines)."""
    lines = [line for line in head.splitlines() if line.strip()]
    if len(lines) > 1 and not head.endswith(b"\n"):
        lines.pop()                                  # cut by the head's end
    values = [json_line(line, number == 0) for number, line in enumerate(lines)]
    return bool(values) and all(isinstance(v, dict) and {"deck", "rows", "hands"} <= v.keys()
                                and "turns" not in v for v in values)


DEAL_FILE = FileKind("a file of positions (JSON lines, as 'nimmt deal --count' writes)",
                     _deal_lines)


def deal_positions(count: int, seed: int, cards: int = FULL_HAND) -> Iterator[Position]:
    """`count` positions of the 2-player 24-card game with `cards` cards a hand (1..10)."""
    if not (errors.is_integer(count) and 1 <= count <= MAX_COUNT):
        raise errors.ConfigError(f"count must be an integer in 1..{MAX_COUNT},"
                                 f" got {errors.quote(count)}")
    if not (errors.is_integer(cards) and 1 <= cards <= FULL_HAND):
        raise errors.ConfigError(f"cards must be an integer in 1..{FULL_HAND},"
                                 f" got {errors.quote(cards)}")
    yield from seeded_positions(count, seed, cards)
