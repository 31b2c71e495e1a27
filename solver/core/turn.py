"""One turn played on a `Position`: the one Python path that plays a turn.

Records, the exact solver's principal line and strategy graph, and the game runners all
play their turns through `apply_turn`, on the rules of `rules.play_turn`.
"""
from dataclasses import dataclass
from numbers import Integral
from typing import Any, Dict, List, Optional, Tuple

from .. import errors
from .position import OPTIONAL_KEYS, Position
from .rules import ROWS, UnneededRowChoice, play_recorded_turn, row_bullheads


@dataclass(frozen=True)
class Turn:
    """The cards of a turn, one per player, and the row choices given (None: not given; a
    too-low card then takes the cheapest row, the lowest number among equals)."""
    cards: Tuple[int, ...]
    row_choices: Tuple[Optional[int], ...]

    @classmethod
    def of(cls, cards, row_choices=None) -> "Turn":
        cards = tuple(cards)
        choices = tuple(row_choices) if row_choices is not None else (None,) * len(cards)
        return cls(cards, choices)

    def to_dict(self) -> Dict[str, Any]:
        data: Dict[str, Any] = {"cards": list(self.cards)}
        if any(c is not None for c in self.row_choices):
            data["row_choices"] = list(self.row_choices)
        return data


@dataclass(frozen=True)
class TurnOutcome:
    """What a turn did: who took which cards, which rows were chosen, the position after."""
    turn: Turn
    taken: Tuple[Tuple[int, ...], ...]
    chosen_rows: Tuple[Optional[int], ...]   # the row each player took by choice (default too)
    position: Position                       # after the turn, penalties added
    taken_rows: Tuple[Optional[int], ...]    # the row each took, by choice or with a sixth card

    @property
    def penalties(self) -> Tuple[int, ...]:
        """The bullheads each player took this turn."""
        return tuple(row_bullheads(cards) for cards in self.taken)


def apply_turn(position: Position, turn: Turn, number: int = 0) -> TurnOutcome:
    """Play `turn` from `position`. Refuses a card not in its player's hand (for a hidden
    hand: a card seen elsewhere, on the rows, in a hand, in `played` or twice in the turn)
    and a row choice for a card that was not too low; `number` (0-based) is the turn's
    number in messages.

    The position after keeps the optional keys (`viewer`, `scores`...); when a hand is
    hidden or `played` is given, its `played` adds the cards of the rows taken (the cards
    out of play are then all known: a hidden hand holds only cards never seen)."""
    where = f"turn {number + 1}"
    if len(turn.cards) != position.players:
        raise errors.TurnFormatError(f"{where}: {len(turn.cards)} cards for"
                                     f" {position.players} players")
    if len(turn.row_choices) != len(turn.cards):
        raise errors.TurnFormatError(f"{where}: {len(turn.row_choices)} row choices for"
                                     f" {len(turn.cards)} cards (one a player, null where"
                                     f" none is given)")
    for k, row in enumerate(turn.row_choices):
        if row is not None and (isinstance(row, bool) or not isinstance(row, Integral)
                                or not 0 <= row < ROWS):
            raise errors.RowChoiceError(f"{where}: player {k + 1}'s row choice must be a row"
                                        f" 0..3 or null, got {errors.quote_json(row)}")
    seen = {} if position.complete_information else _seen_cards(position)
    for k, card in enumerate(turn.cards):
        hand = position.hands[k]
        if hand is not None and card not in hand:
            raise errors.CardNotInHandError(
                f"{where}: player {k + 1} plays {errors.quote_json(card)}, which is not in"
                f" their hand {list(hand)}")
        if hand is None:
            why = ("outside the deck" if not 1 <= card <= position.deck else seen.get(card)
                   or ("played twice in the turn" if turn.cards.count(card) > 1 else None))
            if why:
                raise errors.CardNotInHandError(f"{where}: player {k + 1} (hidden hand) plays"
                                                f" {errors.quote_json(card)}, which is {why}")
    taken_rows: List[Optional[int]] = [None] * position.players
    try:
        rows, taken, chosen = play_recorded_turn(position.rows, turn.cards, turn.row_choices,
                                                 taken_rows)
    except UnneededRowChoice as exc:
        k = exc.seat
        raise errors.RowChoiceError(f"{where}: player {k + 1} gives row choice"
                                    f" {turn.row_choices[k]} but their card {turn.cards[k]} was"
                                    f" not lower than every row end") from None
    hands = [None if hand is None else [c for c in hand if c != card]
             for hand, card in zip(position.hands, turn.cards)]
    penalties = [p + row_bullheads(cards) for p, cards in zip(position.penalties, taken)]
    extra = {key: value for key, value in position.extra.items() if key in OPTIONAL_KEYS}
    if "played" in extra or not position.complete_information:
        extra["played"] = sorted(list(position.played) + [c for cards in taken for c in cards])
    after = Position.create(rows, hands, penalties, position.deck, extra)
    return TurnOutcome(turn, tuple(tuple(c) for c in taken), tuple(chosen), after,
                       tuple(taken_rows))


def _seen_cards(position: Position) -> Dict[int, str]:
    """Where each card a hidden hand cannot hold was seen, for the message."""
    seen: Dict[int, str] = {c: "out of play (played)" for c in position.played}
    for r, row in enumerate(position.rows):
        seen.update((c, f"in row {r}") for c in row)
    for k, hand in enumerate(position.hands):
        if hand is not None:
            seen.update((c, f"in the hand of player {k + 1}") for c in hand)
    return seen
