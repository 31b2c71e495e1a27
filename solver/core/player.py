"""A seat at the table: the `Player` interface every bot and human implements, and the
`PlayerView` of the table a seat may see.

A `Player` answers two questions: which card to play (`choose_card`), and which row to take
when its card is lower than every row end (`choose_row`, asked during resolution, every card
of the turn revealed). A bot that knows the mixed strategy its card is drawn from may say so
(`card_strategy`): `nimmt exploit` then measures it without sampling.
"""
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .rules import GameConfig, cheapest_row


@dataclass(frozen=True)
class PlayerView:
    """What seat `seat` (0-based; player `seat + 1`) may see.

    At `choose_card`, `hand` is the seat's hand and `revealed` is None. At `choose_row`
    (asked during the resolution), `revealed` holds every card of the turn, by seat; `rows`
    are the rows at that moment of the resolution; `hand` no longer holds the card being
    played (nor do the others' hands theirs: `hand_sizes` is what each seat holds then).

    `row_choices[t][k]` is the row (0..3) seat k took by choice at earlier turn t, when its
    card was lower than every row end, else None: what the whole table saw; one tuple per
    earlier turn of the round, like `played`.

    `out_of_play` lists cards this seat knows are out of play beyond `start_rows` and
    `played`: a position given without its history (`nimmt best`) has its rows as
    `start_rows`, no `played` turns, and its out-of-play cards here.
    """
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
    row_choices: Tuple[Tuple[Optional[int], ...], ...] = ()   # earlier turns, by seat
    out_of_play: Tuple[int, ...] = ()

    @property
    def players(self) -> int:
        return self.config.players

    @property
    def hand_sizes(self) -> Tuple[int, ...]:
        """The cards each seat holds now (everyone plays one card a turn)."""
        return (len(self.hand),) * self.players

    def unseen(self) -> List[int]:
        """Cards this seat has not seen: in the other hands, or out of play (104-card deck)."""
        seen = set(self.hand)
        seen.update(c for row in self.start_rows for c in row)
        seen.update(c for cards in self.played for c in cards)
        seen.update(self.out_of_play)
        if self.revealed:
            seen.update(self.revealed)
        return [c for c in range(1, self.config.deck + 1) if c not in seen]


class Player:
    """Base class of every player (bots, humans). Override `choose_card`, maybe `choose_row`.

    Both answer an int (any `numbers.Integral`, a numpy integer say, is taken as its int);
    anything else is refused as an illegal move."""
    name = "player"

    def choose_card(self, view: PlayerView) -> int:
        raise NotImplementedError

    def card_strategy(self, view: PlayerView) -> Optional[Dict[int, float]]:
        """The probabilities {card: p} `choose_card(view)` draws its card with, when the
        player knows them (a deterministic bot: its card with 1.0); None (the default) when
        it does not: the strategy is then estimated by asking `choose_card` many times."""
        return None

    def choose_row(self, view: PlayerView, card: int) -> int:
        """Row (0..3) to take for a too-low `card` (no longer in `view.hand`). Default: the
        cheapest row."""
        return cheapest_row(view.rows)

    def round_over(self, record: Dict[str, Any], penalties: Sequence[int]) -> None:
        """Told the record and penalties of each finished round (for display, learning)."""
