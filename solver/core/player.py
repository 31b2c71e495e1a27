"""A seat at the table: the `Player` interface every bot and human implements, and the
`PlayerView` of the table a seat may see.

A `Player` answers two questions: which card to play (`choose_card`), and which row to take
when its card is lower than every row end (`choose_row`, asked during resolution, every card
of the turn revealed).
"""
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .rules import GameConfig, cheapest_row


@dataclass(frozen=True)
class PlayerView:
    """What seat `seat` may see. `revealed` (every card of the turn, by seat) is set only
    while choosing a row; `rows` are then the rows at that moment of the resolution."""
    config: GameConfig
    seat: int
    rows: Tuple[Tuple[int, ...], ...]
    hand: Tuple[int, ...]
    start_rows: Tuple[Tuple[int, ...], ...]   # the 4 face-up cards the round began with
    played: Tuple[Tuple[int, ...], ...]      # cards of the earlier turns of this round, by turn
    penalties: Tuple[int, ...]               # bullheads taken this round, by seat
    scores: Tuple[int, ...]                  # totals of the earlier rounds, by seat
    turn: int                                # 0-based turn of the round
    revealed: Optional[Tuple[int, ...]] = None

    @property
    def players(self) -> int:
        return self.config.players

    @property
    def hand_sizes(self) -> Tuple[int, ...]:
        return (len(self.hand),) * self.players   # everyone plays one card a turn

    def unseen(self) -> List[int]:
        """Cards this seat has not seen: in the other hands, or out of play (104-card deck)."""
        seen = set(self.hand)
        seen.update(c for row in self.start_rows for c in row)
        seen.update(c for cards in self.played for c in cards)
        if self.revealed:
            seen.update(self.revealed)
        return [c for c in range(1, self.config.deck + 1) if c not in seen]


class Player:
    """Base class of every player (bots, humans). Override `choose_card`, maybe `choose_row`."""
    name = "player"

    def choose_card(self, view: PlayerView) -> int:
        raise NotImplementedError

    def choose_row(self, view: PlayerView, card: int) -> int:
        """Row (0..3) to take for a too-low `card`. Default: the cheapest row."""
        return cheapest_row(view.rows)

    def round_over(self, record: Dict[str, Any], penalties: Sequence[int]) -> None:
        """Told the record and penalties of each finished round (for display, learning)."""
