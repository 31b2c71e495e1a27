"""The root game of a 2-player position: its matrix, value and equilibrium, and what a
strategy at the root loses against a best reply.

`M[i, j]` is the value of the round (player 2's bullheads minus player 1's, from now to the
end of the round) when player 1 plays its i-th card and player 2 its j-th, both playing
perfectly afterwards (a too-low card's row included). Player 1 maximizes, player 2
minimizes. A strategy x of player 1 loses `v - min_j x·M[:, j]` against a best reply, a
strategy y of player 2 `max_i M[i, :]·y - v`: 0 exactly for an equilibrium strategy. This is
the measure of the search player's quality benchmark and of `nimmt exploit`.
"""
from dataclasses import dataclass
from typing import Dict, Optional, Sequence, Tuple

import numpy as np

from ..core.position import Position
from .engine import Engine
from .solution import LOSS_TOLERANCE


@dataclass(frozen=True)
class RootGame:
    """A position's root matrix game, every entry exact; cards in hand order (ascending)."""
    position: Position
    value: float
    matrix: np.ndarray                         # M[i, j], as above
    equilibrium: Tuple[np.ndarray, np.ndarray]  # the solver's strategies x, y, as vectors

    def hand(self, seat: int) -> Tuple[int, ...]:
        return self.position.hands[seat]

    def vector(self, seat: int, strategy: Dict[int, float]) -> np.ndarray:
        """A strategy {card: probability} of `seat` as a vector over its hand."""
        return as_vector(strategy, self.hand(seat))

    def loss(self, seat: int, strategy: Sequence[float]) -> float:
        """What `strategy` (a vector over the seat's hand) loses against a best reply."""
        if seat == 0:
            return float(self.value - (np.asarray(strategy) @ self.matrix).min())
        return float((self.matrix @ np.asarray(strategy)).max() - self.value)

    def equilibrium_loss(self, seat: int, strategy: Sequence[float]) -> float:
        """What `strategy` loses against the opponent's equilibrium strategy (the solver's):
        never more than its loss against a best reply; 0 when it plays only cards worth the
        value against it."""
        gaps = self.value - self.card_values(seat)
        return float(np.asarray(strategy) @ (gaps if seat == 0 else -gaps))

    def card_values(self, seat: int) -> np.ndarray:
        """Each card of `seat` against the opponent's equilibrium strategy (the solver's)."""
        x, y = self.equilibrium
        return self.matrix @ y if seat == 0 else x @ self.matrix

    def equilibrium_cards(self, seat: int) -> Tuple[int, ...]:
        """The cards worth the value against the opponent's equilibrium strategy: every card
        an equilibrium strategy plays is one of them (with several equilibria, a card that
        none plays may be too)."""
        values = self.card_values(seat)
        return tuple(c for c, v in zip(self.hand(seat), values)
                     if abs(v - self.value) < LOSS_TOLERANCE)


def as_vector(strategy: Dict[int, float], hand: Sequence[int]) -> np.ndarray:
    return np.array([strategy.get(card, 0.0) for card in hand], dtype=float)


def losses(game: RootGame, x: Sequence[float], y: Sequence[float]) -> Tuple[float, float]:
    """What player 1's strategy x and player 2's y each lose against a best reply."""
    return game.loss(0, x), game.loss(1, y)


def root_game(position: Position, engine: Optional[Engine] = None) -> RootGame:
    """The root game of a 2-player position with both hands (an engine of its own unless
    `engine`, whose table then holds the subtree for later questions)."""
    if engine is None:
        with Engine(position) as own:
            return root_game(position, own)
    solution = engine.solve(position, card_values=False, principal_line=False)
    matrix = engine.full_matrix(position)
    equilibrium = tuple(as_vector(s, h) for s, h in zip(solution.strategies, position.hands))
    return RootGame(position, solution.value, matrix, equilibrium)
