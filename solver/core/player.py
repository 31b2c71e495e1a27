"""A seat at the table: the `Player` interface every bot and human implements, and the
`PlayerView` of the table a seat may see.

A `Player` answers two questions: which card to play (`choose_card`), and which row to take
when its card is lower than every row end (`choose_row`, asked during resolution, every card
of the turn revealed). A bot that knows the mixed strategy its card is drawn from may say so
(`card_strategy`): `nimmt exploit` then measures it without sampling.
"""
from dataclasses import dataclass
from numbers import Integral
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..errors import ConfigError, quote
from .rules import ROW_LIMIT, ROWS, GameConfig, cheapest_row


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

    def __post_init__(self):
        # a view built by hand (the Python API) is refused here rather than deep in a bot;
        # only what is cheap, as every view of every game passes here
        n, deck, hand = self.config.players, self.config.deck, self.hand
        if not (_is_int(self.seat) and 0 <= self.seat < n):
            raise ConfigError(f"view: seat must be 0..{n - 1}, got {quote(self.seat)}")
        sizes = set(map(len, self.rows))
        if len(self.rows) != ROWS or min(sizes) < 1 or max(sizes) > ROW_LIMIT:
            raise ConfigError(f"view: rows must be 4 rows of 1..5 cards, got {quote(self.rows)}")
        try:
            fine = not hand or min(hand) >= 1 and max(hand) <= deck
        except TypeError:      # a card that does not compare with numbers
            fine = False
        if not fine:
            raise ConfigError(f"view: the hand's cards must be integers 1..{deck},"
                              f" got {quote(hand)}")
        if len(hand) > self.config.hand_size:
            raise ConfigError(f"view: the hand must be at most {self.config.hand_size} cards,"
                              f" got {quote(hand)}")
        if len(self.penalties) != n or len(self.scores) not in (0, n):
            raise ConfigError(f"view: penalties (and scores, if any) must have {n} entries,"
                              f" got {quote(self.penalties)} and {quote(self.scores)}")
        if self.revealed is not None and len(set(self.revealed)) != n:
            raise ConfigError(f"view: revealed must have {n} different cards, got"
                              f" {quote(self.revealed)}")
        # each card in one place: a hand card twice, or also on the rows, played or revealed
        # (at a row question the hand no longer holds its card), would mislead every bot
        in_hand = set(hand)
        if len(in_hand) != len(hand) \
                or not in_hand.isdisjoint([c for row in self.rows for c in row]) \
                or not in_hand.isdisjoint([c for turn in self.played for c in turn]) \
                or self.revealed is not None and not in_hand.isdisjoint(self.revealed):
            raise ConfigError(f"view: a card of the hand {quote(hand)} is twice in it, or also"
                              " on the rows, played or revealed")

    @property
    def players(self) -> int:
        return self.config.players

    @property
    def hand_sizes(self) -> Tuple[int, ...]:
        """The cards each seat holds now (everyone plays one card a turn)."""
        return (len(self.hand),) * self.players

    def turn_cards(self) -> Tuple[int, ...]:
        """`revealed`, which a row choice needs: every card of the turn, by seat."""
        if self.revealed is None:
            raise ConfigError("view: a row choice needs the turn's cards (revealed), got None")
        return self.revealed

    def others_turn_cards(self) -> List[int]:
        """The other seats' cards of the turn (`turn_cards` without this seat's)."""
        return [c for k, c in enumerate(self.turn_cards()) if k != self.seat]

    def unseen(self) -> List[int]:
        """Cards this seat has not seen: in the other hands, or out of play (104-card deck)."""
        seen = set(self.hand)
        seen.update(c for row in self.start_rows for c in row)
        seen.update(c for cards in self.played for c in cards)
        seen.update(self.out_of_play)
        if self.revealed:
            seen.update(self.revealed)
        return [c for c in range(1, self.config.deck + 1) if c not in seen]


def _is_int(value: Any) -> bool:
    return type(value) is int or isinstance(value, Integral) and not isinstance(value, bool)


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

    def close(self) -> None:
        """Release what the player holds (a program it runs); called by whoever made it once
        its game is over, stopped or not. Default: nothing to release."""
