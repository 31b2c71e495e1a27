"""Game records (docs/formats.md): validation and replay.

A record is a starting position plus `turns`; turn t holds `cards[k]`, the card player k
plays, and optionally `row_choices[k]`, the row player k takes when their card is lower than
every row end (missing: the cheapest row, lowest number among equals). A hand may be hidden
(null): a record as one player saw the round; its player's cards are then only checked to be
cards never seen before. `record_view` is that player's view after the turns, as a game
would have shown it to them.
"""
from typing import Any, List, Optional, Sequence, Tuple

from .. import errors
from ..errors import RowChoiceError, TooManyTurnsError, TurnFormatError, plural
from .player import PlayerView
from .position import OPTIONAL_KEYS, READ_KEYS, Position, check_keys
from .rules import ROWS, GameConfig
from .turn import Turn, TurnOutcome, apply_turn

TURN_KEYS = ("cards", "row_choices")
TURN_ALIASES = {name: "row_choices" for name in ("row", "rows", "chosen_rows", "row_chosen")}


def parse_record(data: Any) -> Tuple[Position, List[Turn]]:
    """Validate the shape of a record: its starting position and the shape of its turns.

    Whether each card is in its hand is checked while replaying.
    """
    if not isinstance(data, dict):
        raise errors.JsonFormatError(f"a record must be a JSON object, got"
                                     f" {errors.quote_json(data)}")
    if "turns" not in data:
        raise errors.MissingKeyError("missing key 'turns' in record")
    check_keys(data, READ_KEYS + ("turns",), "record")
    start = Position.from_dict({k: v for k, v in data.items() if k != "turns"})
    turns = data["turns"]
    if not isinstance(turns, list):
        raise TurnFormatError(f"turns must be a list, got {errors.quote_json(turns)}")
    if len(turns) > start.hand_size:
        raise TooManyTurnsError(f"{plural(len(turns), 'turn')} but the hands hold"
                                f" {plural(start.hand_size, 'card')}")
    return start, [_parse_turn(turn, t, start.players) for t, turn in enumerate(turns)]


def _parse_turn(turn: Any, t: int, players: int) -> Turn:
    where = f"turn {t + 1}"
    if not isinstance(turn, dict):
        raise TurnFormatError(f"{where} must be an object with 'cards', got"
                              f" {errors.quote_json(turn)}")
    if "cards" not in turn:
        raise TurnFormatError(f"{where} has no 'cards'")
    check_keys(turn, TURN_KEYS, where, TurnFormatError, TURN_ALIASES)
    cards = turn["cards"]
    if not isinstance(cards, list) or len(cards) != players:
        raise TurnFormatError(f"{where}: cards must be a list of {players} cards (one per player),"
                              f" got {errors.quote_json(cards)}")
    for card in cards:
        if not errors.is_integer(card):
            raise errors.CardError(f"{where}: card {errors.quote_json(card)} is not an integer")
    choices = turn.get("row_choices")
    if choices is None:
        choices = [None] * players
    if not isinstance(choices, list) or len(choices) != players:
        raise TurnFormatError(f"{where}: row_choices must be a list of {players} entries,"
                              f" got {errors.quote_json(choices)}")
    for choice in choices:
        if choice is not None and not (errors.is_integer(choice) and 0 <= choice < ROWS):
            raise RowChoiceError(f"{where}: row choice"
                                 f" {errors.quote_json(choice)} is not a row 0..3 or null")
    return Turn(tuple(cards), tuple(choices))


def replay_steps(data: Any) -> Tuple[Position, List[TurnOutcome]]:
    """Replay a record (a dict): the starting position and the outcome of every turn."""
    position, turns = parse_record(data)
    start, outcomes = position, []
    for t, turn in enumerate(turns):
        outcome = apply_turn(position, turn, t)
        outcomes.append(outcome)
        position = outcome.position
    return start, outcomes


def replay(data: Any) -> Position:
    """The position after the last turn of a record, penalties added to the starting ones."""
    return position_after(*replay_steps(data))


def position_after(start: Position, outcomes: Sequence[TurnOutcome]) -> Position:
    """The position after a replayed record's turns (the start when there are none); the
    record's notes (keys it does not read) are not carried, as a turn does not carry them."""
    if outcomes:
        return outcomes[-1].position
    extra = {key: value for key, value in start.extra.items() if key in OPTIONAL_KEYS}
    return Position.create([list(r) for r in start.rows],
                           [None if h is None else list(h) for h in start.hands],
                           list(start.penalties), start.deck, extra)


def record_view(start: Position, outcomes: Sequence[TurnOutcome],
                seat: Optional[int] = None) -> PlayerView:
    """Seat `seat`'s view (0-based; default the start's `viewer`, else the first visible
    hand) after a replayed record's turns: what a game shows it before its next card (the
    record's start rows as the round's start, every card and row choice of the turns, the
    start's `played` out of play; a round of 10 cards a hand, so a start with fewer is
    that many turns in)."""
    seat = start.visible_seat(seat, "record", errors.RecordError)
    now = position_after(start, outcomes)
    config = GameConfig(players=start.players, deck=start.deck)
    scores = start.extra.get("scores")
    return PlayerView(config, seat, now.rows, now.hands[seat], start.rows,
                      tuple(o.turn.cards for o in outcomes), now.penalties,
                      tuple(scores) if scores else (0,) * start.players,
                      config.hand_size - now.hand_size,
                      row_choices=tuple(o.chosen_rows for o in outcomes),
                      out_of_play=start.played)
