"""Many rounds of one seat count played together, turn by turn, as arrays.

`Tables` holds P rounds at the same moment of the round (every hand of every round has the
same size): the rows, every seat's hand, the cards seen, the penalties and the totals. Its
`views()` are every seat's raw view of every round (round by round, seats in order), the
batch the network evaluates in one call; `play(index)` plays the card at `index[p, k]` of
each hand (hands are kept sorted) in every round by the C rules, a too-low card taking the
cheapest row, and returns the bullheads each seat took. `nsearch`'s playouts and the
self-play games (`selfplay.py`) both advance their rounds with it.
"""
from typing import Optional, Sequence

import numpy as np

from .._rules import play_turns
from ..core.position import Position
from ..core.rules import HAND_SIZE
from .features import CARDS, MAX_SEATS, RawViews, rows_array

EMPTY = 127          # a sorting key above every card, for the empty slots of a hand


class Tables:
    def __init__(self, players: int, deck: int, turn: int, rows: np.ndarray,
                 hands: np.ndarray, seen: np.ndarray, penalties: np.ndarray,
                 scores: np.ndarray):
        """rows [P, 4, 5] as they lie, 0 after each row's end (`rows_array`); hands [P, n,
        10] ascending then 0; seen [P, 105] bool; penalties and scores [P, n], by seat."""
        self.players, self.deck, self.turn = players, deck, turn
        self.rows = np.ascontiguousarray(rows, dtype=np.int8)
        self.hands = hands.astype(np.int8)
        self.seen = seen.astype(bool)
        self.penalties = penalties.astype(np.int64)
        self.scores = scores.astype(np.int64)
        n = players
        self.order = np.array([[(k + i) % n for i in range(n)] for k in range(n)])

    @property
    def count(self) -> int:
        return len(self.rows)

    @property
    def size(self) -> int:
        """Cards in every hand."""
        return int((self.hands[0, 0] > 0).sum()) if self.count else 0

    def relative(self, values: np.ndarray) -> np.ndarray:
        """[P * n, 10]: per-seat `values` [P, n] as each seat sees them (itself first)."""
        out = np.zeros((self.count, self.players, MAX_SEATS), dtype=np.int16)
        out[:, :, :self.players] = values[:, self.order]
        return out.reshape(-1, MAX_SEATS)

    @staticmethod
    def dealt(players: int, positions: Sequence[Position]) -> "Tables":
        """The tables of fresh deals (`Position`s at their first turn) of one seat count."""
        hands = np.zeros((len(positions), players, HAND_SIZE), dtype=np.int8)
        seen = np.zeros((len(positions), CARDS), dtype=bool)
        for i, position in enumerate(positions):
            for k, hand in enumerate(position.hands):
                hands[i, k, :len(hand)] = sorted(hand)
            for row in position.rows:
                seen[i, list(row)] = True
        zeros = np.zeros((len(positions), players), dtype=np.int64)
        return Tables(players, positions[0].deck, 0, rows_array([p.rows for p in positions]),
                      hands, seen, zeros, zeros)

    def repeat(self, times: int) -> "Tables":
        """Each round `times` times over, in order (a copy: playing it leaves these be)."""
        return self.subset(np.repeat(np.arange(self.count), times))

    def subset(self, index: np.ndarray) -> "Tables":
        """The rounds at `index` (repeats allowed), as a copy."""
        return Tables(self.players, self.deck, self.turn, self.rows[index], self.hands[index],
                      self.seen[index], self.penalties[index], self.scores[index])

    def views(self) -> RawViews:
        """Every seat's raw view of every round (P * n, round by round)."""
        n, b = self.players, self.count * self.players
        return RawViews(np.full(b, n, dtype=np.int8), np.full(b, self.deck, dtype=np.int8),
                        np.full(b, self.turn, dtype=np.int8),
                        self.hands.reshape(b, HAND_SIZE).copy(),
                        np.repeat(self.rows, n, axis=0), np.repeat(self.seen, n, axis=0),
                        self.relative(self.penalties), self.relative(self.scores))

    def play(self, index: np.ndarray) -> np.ndarray:
        """Play hands[p, k, index[p, k]] everywhere; returns the bullheads taken [P, n]."""
        cards = np.take_along_axis(self.hands, index[:, :, None], axis=2)[:, :, 0]
        cards = cards.astype(np.int64)
        taken = play_turns(self.rows, cards)             # the rows change in place
        self.penalties += taken
        np.put_along_axis(self.seen, cards, True, axis=1)
        np.put_along_axis(self.hands, index[:, :, None], 0, axis=2)
        hands = np.sort(np.where(self.hands == 0, EMPTY, self.hands), axis=2)
        hands[hands == EMPTY] = 0
        self.hands = hands
        self.turn += 1
        return taken


def sample_slots(logits: np.ndarray, size: int, gen: np.random.Generator,
                 temperature: float = 1.0, u: Optional[np.ndarray] = None) -> np.ndarray:
    """[B] slots drawn from the softmax of each row's first `size` logits / temperature:
    the first slot whose cumulative share passes a uniform draw (clipped: rounding at the
    top). `u`: the B uniform draws, when the caller shares them between rows."""
    z = logits[:, :size].astype(np.float64) / temperature
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    if u is None:
        u = gen.random(len(z))
    return np.minimum((np.cumsum(p, axis=1) < u[:, None]).sum(axis=1), size - 1)
