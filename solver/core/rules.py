"""The rules of 6 nimmt!, in plain Python: the reference every fast path is checked against.

Rows are lists of cards (last = end). A turn's cards are resolved in ascending order; a card
lower than every row end makes its owner take a row of their choice (`choose_row`).
"""
from dataclasses import dataclass
from typing import Callable, List, Optional, Sequence, Tuple

from ..errors import ConfigError
from ..limits import MAX_THRESHOLD

ROWS = 4
ROW_LIMIT = 5          # the 6th card takes the row
HAND_SIZE = 10
MIN_PLAYERS, MAX_PLAYERS = 2, 10
STANDARD_DECK = 104


def bullheads(card: int) -> int:
    """Penalty points of a card: 7 for 55, 5 for multiples of 11, 3 of 10, 2 of 5, else 1."""
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 5 == 0:
        return 2
    return 1


def row_bullheads(row: Sequence[int]) -> int:
    return sum(bullheads(c) for c in row)


def deck_bullheads(deck: int) -> int:
    """Every bullhead of cards 1..deck: the most a round can hand out."""
    return row_bullheads(range(1, deck + 1))


def variant_deck(players: int) -> int:
    """Deck of the 10n+4 variant: every card is dealt."""
    return 10 * players + 4


def two_player_variant(players: int, deck: int) -> bool:
    """The 2-player 10n+4 game (cards 1..24): every card is dealt, so each player knows the
    other's hand."""
    return players == 2 and deck == variant_deck(2)


@dataclass(frozen=True)
class GameConfig:
    """How a game is played: players, deck (104 or 10n+4), end threshold, hand size."""
    players: int = 2
    deck: int = STANDARD_DECK
    threshold: int = 66
    hand_size: int = HAND_SIZE

    def __post_init__(self):
        if not isinstance(self.players, int) or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ConfigError(f"players must be 2..10, got {self.players!r}")
        if not isinstance(self.hand_size, int) or not 1 <= self.hand_size <= HAND_SIZE:
            raise ConfigError(f"hand size must be 1..10, got {self.hand_size!r}")
        needed = self.players * self.hand_size + ROWS
        if not isinstance(self.deck, int) or not needed <= self.deck <= STANDARD_DECK:
            raise ConfigError(f"deck must be {needed}..{STANDARD_DECK} for {self.players} players,"
                              f" got {self.deck!r}")
        if not isinstance(self.threshold, int) or not 1 <= self.threshold <= MAX_THRESHOLD:
            raise ConfigError(f"threshold must be an integer in 1..{MAX_THRESHOLD},"
                              f" got {self.threshold!r}")

    @classmethod
    def variant(cls, players: int, **kwargs) -> "GameConfig":
        """The 10n+4 variant ("variante professionnelle")."""
        return cls(players=players, deck=variant_deck(players), **kwargs)

    @classmethod
    def named(cls, players: int, variant: str, **kwargs) -> "GameConfig":
        """`variant` is "standard" or "10n+4"."""
        if variant == "standard":
            return cls(players=players, **kwargs)
        if variant == "10n+4":
            return cls.variant(players, **kwargs)
        raise ConfigError(f"unknown variant {variant!r} (standard or 10n+4)")


def target_row(rows: Sequence[Sequence[int]], card: int) -> Optional[int]:
    """The row `card` goes on: the highest end below it. None if the card is too low."""
    best = None
    for i, row in enumerate(rows):
        if row[-1] < card and (best is None or row[-1] > rows[best][-1]):
            best = i
    return best


def cheapest_row(rows: Sequence[Sequence[int]]) -> int:
    """The row with the fewest bullheads, the lowest number among equals."""
    return min(range(len(rows)), key=lambda i: (row_bullheads(rows[i]), i))


def place_card(rows: List[List[int]], card: int, chosen_row: Optional[int] = None) -> List[int]:
    """Place one card on `rows` (modified in place); return the cards taken (maybe none).

    `chosen_row` is used only when the card is too low, and is then required.
    """
    r = target_row(rows, card)
    if r is None:
        if chosen_row is None:
            raise ValueError(f"card {card} is too low: a row must be chosen")
        taken = rows[chosen_row]
        rows[chosen_row] = [card]
        return taken
    if len(rows[r]) == ROW_LIMIT:
        taken = rows[r]
        rows[r] = [card]
        return taken
    rows[r] = rows[r] + [card]
    return []


RowChooser = Callable[[int, List[List[int]], int], int]


def play_turn(rows: Sequence[Sequence[int]], cards: Sequence[int], choose_row: RowChooser,
              taken_rows: Optional[List[Optional[int]]] = None
              ) -> Tuple[List[List[int]], List[List[int]]]:
    """Resolve one turn: player k plays cards[k].

    `choose_row(player, rows, card)` is called for a too-low card, with the rows as they are
    at that moment (every card of the turn is already known). Returns the new rows and the
    cards each player took. `taken_rows`, if given (one entry a player), receives the row each
    player took, by choice or with a sixth card (None: none).
    """
    rows = [list(r) for r in rows]
    taken: List[List[int]] = [[] for _ in cards]
    for player in sorted(range(len(cards)), key=lambda k: cards[k]):
        card = cards[player]
        choice = None
        target = target_row(rows, card)
        if target is None:
            choice = choose_row(player, [list(r) for r in rows], card)
            if not (isinstance(choice, int) and 0 <= choice < ROWS):
                raise ValueError(f"row choice must be 0..3, got {choice!r}")
        taken[player].extend(place_card(rows, card, choice))
        if taken_rows is not None and taken[player]:
            taken_rows[player] = choice if target is None else target
    return rows, taken


class UnneededRowChoice(ValueError):
    """A record gives a row choice for a card that was not lower than every row end."""

    def __init__(self, seat: int):
        super().__init__(f"player {seat + 1}'s card took no row by choice")
        self.seat = seat


def play_recorded_turn(rows: Sequence[Sequence[int]], cards: Sequence[int],
                       choices: Sequence[Optional[int]],
                       taken_rows: Optional[List[Optional[int]]] = None
                       ) -> Tuple[List[List[int]], List[List[int]], List[Optional[int]]]:
    """A turn as a record holds it (`play_turn`): a too-low card takes the row its player's
    choice gives, else (none given) the cheapest, the lowest number among equals. Also
    returns the row each player chose (None: its card was not too low); a choice given for
    a card that was not too low raises UnneededRowChoice."""
    chosen: List[Optional[int]] = [None] * len(cards)

    def choose(player: int, now: List[List[int]], card: int) -> int:
        given = choices[player]
        chosen[player] = cheapest_row(now) if given is None else int(given)   # numpy ints too
        return chosen[player]

    rows, taken = play_turn(rows, cards, choose, taken_rows)
    for k, given in enumerate(choices):
        if given is not None and chosen[k] is None:
            raise UnneededRowChoice(k)
    return rows, taken, chosen


def fewest_bullheads_chooser(player: int, rows: List[List[int]], card: int) -> int:
    """The default row choice: fewest bullheads, lowest number among equals."""
    return cheapest_row(rows)
