"""`Position`: a moment of a round, validated (the JSON format of docs/formats.md).

Every way in (`create`, `from_dict`, `from_json`, `from_text`) goes through the same checks,
one refusal per problem, each an exception of errors.py quoting the offending value.
"""
import difflib
import json
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .. import errors
from .jsontext import MAX_DIGITS, parse_json
from .notation import format_notation, parse_notation
from .rules import (HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, ROW_LIMIT, ROWS, STANDARD_DECK,
                    two_player_variant)

Row = Tuple[int, ...]
Hand = Optional[Tuple[int, ...]]   # None: a hand the viewer cannot see

KNOWN_KEYS = ("deck", "rows", "hands", "penalties")     # the exchange format's keys
OPTIONAL_KEYS = ("played", "scores", "viewer", "to_move")   # kept in `Position.extra`
# any other key is a note (the curated positions of positions/ carry their description and
# solution; the format lets other tools add keys): kept in `Position.extra` for the round
# trip and not read, unless it looks like a misspelt key that is read (`check_keys`)
READ_KEYS = KNOWN_KEYS + OPTIONAL_KEYS
TYPO_CUTOFF = 0.75          # "penalty" for "penalties" is 0.75, "comment" for "scores" 0.46
# the whole deck holds 171 bullheads; this leaves room for totals of earlier rounds and keeps
# every penalty far inside the C int the search player adds bullheads to
MAX_PENALTY = 1_000_000      # penalties and scores of a position read
ROUND_ALLOWANCE = 1_000      # what turns may add past it (a 104-card round holds 171 bullheads)


def _card(value: Any, deck: int, where: str) -> int:
    if not errors.is_integer(value):
        raise errors.CardError(f"{where}: card {errors.quote_json(value)} is not an integer")
    if not 1 <= value <= deck:
        raise errors.CardError(f"{where}: card {errors.quote_json(value)} is outside 1..{deck}")
    return value


def _card_list(value: Any, deck: int, where: str) -> Tuple[int, ...]:
    if not isinstance(value, list):
        raise errors.PositionError(f"{where} must be a list of cards, got"
                                   f" {errors.quote_json(value)}")
    return tuple(_card(c, deck, where) for c in value)


@dataclass(frozen=True)
class Position:
    """A moment of a round: 4 rows, the hands (None = unseen), the penalties so far.

    Built through `Position.create` (or `from_json`/`from_text`), which validates.
    `extra` keeps the optional keys (`OPTIONAL_KEYS`: `played`, `scores`, `viewer`,
    `to_move`), validated too, and any other key as a note, for the round trip: the notes of
    a curated position (`description` and its solution) or of another tool. A
    key that misspells a key that is read (`check_keys`) is refused.
    """
    deck: int
    rows: Tuple[Row, ...]
    hands: Tuple[Hand, ...]
    penalties: Tuple[int, ...]
    extra: Dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    # construction -------------------------------------------------------------------------
    @classmethod
    def create(cls, rows, hands, penalties=None, deck=STANDARD_DECK, extra=None, *,
               penalty_cap: int = MAX_PENALTY + ROUND_ALLOWANCE) -> "Position":
        """From Python values: lists, tuples or numpy arrays alike (`from_dict` takes JSON's
        lists only). `penalty_cap`: a position read takes MAX_PENALTY, one that turns built
        may pass it by what a round holds."""
        rows, hands, penalties = _plain(rows), _plain(hands), _plain(penalties)
        deck = _check_deck(deck)
        rows = _check_rows(rows, deck)
        hands = _check_hands(hands, deck)
        penalties = (0,) * len(hands) if penalties is None else _check_per_player(
            penalties, len(hands), "penalties", "penalty", cap=penalty_cap)
        _check_unique(rows, hands)
        # an optional key given as null is as if absent (and is not written back)
        extra = {k: v for k, v in (extra or {}).items() if not (k in OPTIONAL_KEYS and v is None)}
        for key in extra:
            if key in KNOWN_KEYS or key == "turns":
                raise errors.UnknownKeyError(f"{errors.quote_json(key)} is a key of the position"
                                             f" itself, not an extra key")
        check_keys(extra, OPTIONAL_KEYS)
        _check_played(extra.get("played"), deck, rows, hands)
        _check_scores(extra.get("scores"), len(hands))
        _check_viewer(extra, hands)
        return cls(deck, rows, hands, penalties, extra)

    @classmethod
    def from_dict(cls, data: Any) -> "Position":
        if not isinstance(data, dict):
            raise errors.JsonFormatError(f"a position must be a JSON object, got"
                                         f" {errors.quote_json(data)}")
        if "turns" in data:
            raise errors.RecordGivenError(
                'a game record (it has "turns") is not a position: replay it for the position'
                " after its turns (nimmt replay RECORD --json, or solver.replay)")
        for key in data:            # a record's "turns" misspelt: not taken for a position
            if key not in READ_KEYS and (close_key(key, ("turns",)) or
                                         str(key).lower() in ("moves", "history")):
                raise errors.UnknownKeyError(
                    f"unknown key {errors.quote_json(key)} in position (did you mean \"turns\","
                    f" the turns of a game record?); a position's keys are"
                    f" {', '.join(KNOWN_KEYS)} and the optional {', '.join(OPTIONAL_KEYS)}")
        check_keys(data, READ_KEYS)
        for key in ("rows", "hands"):
            if key not in data:
                raise errors.MissingKeyError(f"missing key {key!r} in position")
        extra = {k: v for k, v in data.items() if k not in KNOWN_KEYS}
        return cls.create(data["rows"], data["hands"], data.get("penalties"),
                          data.get("deck", STANDARD_DECK), extra, penalty_cap=MAX_PENALTY)

    @classmethod
    def from_json(cls, text: str) -> "Position":
        if not isinstance(text, (str, bytes, bytearray)):
            raise errors.JsonFormatError(f"JSON is text, got {type(text).__name__}")
        return cls.from_dict(parse_json(text))

    @classmethod
    def from_text(cls, text: str) -> "Position":
        if not isinstance(text, str):
            raise errors.NotationError(f"the notation is a string, got {type(text).__name__}")
        deck, rows, hands, penalties = parse_notation(text)
        return cls.create(rows, hands, penalties, deck, penalty_cap=MAX_PENALTY)

    def seen_by(self, seat: int) -> "Position":
        """The position as seat `seat` (0-based) sees it: the other hands hidden, `viewer` set."""
        seat = self.visible_seat(seat)
        hands = [list(h) if k == seat else None for k, h in enumerate(self.hands)]
        extra = {key: value for key, value in self.extra.items() if key != "to_move"}
        extra["viewer"] = seat + 1
        return Position.create([list(r) for r in self.rows], hands, list(self.penalties),
                               self.deck, extra)

    # views ----------------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def hand_size(self) -> int:
        return next(len(h) for h in self.hands if h is not None)

    @property
    def played(self) -> Tuple[int, ...]:
        """The optional `played` key: cards out of play this round (given flat or by turn)."""
        return _flat_played(self.extra.get("played"))

    @property
    def viewer_seat(self) -> int:
        """The seat (0-based) whose view the position is: the optional `viewer` (or `to_move`)
        key, a player number 1..N checked when the position was read, else the first visible
        hand."""
        viewer = self.extra.get("viewer")
        if viewer is None:
            viewer = self.extra.get("to_move")
        if viewer is not None:
            return viewer - 1
        return next(k for k, h in enumerate(self.hands) if h is not None)

    def visible_seat(self, seat: Optional[int] = None, what: str = "position",
                     error: type = errors.PositionError) -> int:
        """`seat` (0-based; default `viewer_seat`) checked: a seat of the position whose hand
        is visible (else `error`, naming the player and `what` the position is)."""
        if seat is None:
            return self.viewer_seat
        if not (errors.is_integer(seat) and 0 <= seat < self.players):
            raise error(f"seat must be 0..{self.players - 1} (players 1..{self.players}),"
                        f" got {errors.quote(seat)}")
        if self.hands[seat] is None:
            raise error(f"player {seat + 1}'s hand is hidden in the {what}")
        return seat

    @property
    def complete_information(self) -> bool:
        return all(h is not None for h in self.hands)

    def unseen_cards(self) -> List[int]:
        """Cards the hidden hands may hold: the deck minus the rows, the visible hands and
        `played`."""
        seen = {c for row in self.rows for c in row} | set(self.played)
        seen.update(c for h in self.hands if h is not None for c in h)
        return [c for c in range(1, self.deck + 1) if c not in seen]

    def deduced(self) -> Tuple["Position", Optional[int]]:
        """In the 2-player 10n+4 game every card is dealt, so a hidden hand is known when
        the cards seen (rows, the visible hand, `played`) leave exactly its size unseen:
        the position with that hand filled in, and its seat; else (self, None)."""
        hidden = [k for k, h in enumerate(self.hands) if h is None]
        if not two_player_variant(self.players, self.deck) or len(hidden) != 1:
            return self, None
        unseen = self.unseen_cards()
        if len(unseen) != self.hand_size:
            return self, None
        hands = [list(h) if h is not None else unseen for h in self.hands]
        return Position.create([list(r) for r in self.rows], hands, list(self.penalties),
                               self.deck, self.extra), hidden[0]

    def to_dict(self) -> Dict[str, Any]:
        data: Dict[str, Any] = {
            "deck": self.deck,
            "rows": [list(r) for r in self.rows],
            "hands": [None if h is None else list(h) for h in self.hands],
            "penalties": list(self.penalties),
        }
        data.update(self.extra)
        return data

    def to_json(self, indent: Optional[int] = None) -> str:
        try:
            return json.dumps(self.to_dict(), indent=indent, allow_nan=False)
        except ValueError:
            # an optional key holds a number JSON reads but Python cannot write back as read:
            # 1e400 (read as inf: written it would be Infinity, not JSON) or a LongInt (its
            # digits are not kept). Refuse rather than write another number than was read.
            raise errors.JsonFormatError(
                "cannot write the position back as JSON: an optional key holds a number beyond"
                f" the range of a double or of more than {MAX_DIGITS} digits") from None
        except RecursionError:     # an optional key nested about as deep as json.loads allows
            raise errors.JsonFormatError("cannot write the position back as JSON: an optional"
                                         " key is nested too deeply") from None

    def to_text(self) -> str:
        return format_notation(self.deck, self.rows, self.hands, self.penalties)

    def __str__(self) -> str:
        return self.to_text()


def _check_deck(deck: Any) -> int:
    if not errors.is_integer(deck) or not ROWS < deck <= STANDARD_DECK:
        raise errors.DeckError(f"deck must be an integer in {ROWS + 1}..{STANDARD_DECK},"
                               f" got {errors.quote_json(deck)}")
    return deck


def _plain(value: Any, depth: int = 2) -> Any:
    """Tuples and numpy arrays (and numpy integers) as the lists and ints of JSON, `depth`
    levels down (rows and hands hold cards: 2); deeper values are left for the checks."""
    if isinstance(value, (list, tuple)):
        return [_plain(v, depth - 1) for v in value] if depth > 0 else value
    tolist = getattr(value, "tolist", None)        # numpy arrays and scalars
    return tolist() if callable(tolist) and not isinstance(value, (str, bytes)) else value


def _check_rows(rows: Any, deck: int) -> Tuple[Row, ...]:
    if not isinstance(rows, list):
        raise errors.RowCountError(f"rows must be a list of 4 rows, got {errors.quote_json(rows)}")
    if len(rows) != ROWS:
        raise errors.RowCountError(f"there must be exactly 4 rows, got {len(rows)}:"
                                   f" {errors.quote_json(rows)}")
    checked = []
    for i, row in enumerate(rows):
        where = f"row {i}"
        if not isinstance(row, list):
            raise errors.RowLengthError(f"{where} must be a list of cards, got"
                                        f" {errors.quote_json(row)}")
        if not 1 <= len(row) <= ROW_LIMIT:
            raise errors.RowLengthError(f"{where} must hold 1 to 5 cards, got {len(row)}:"
                                        f" {errors.quote_json(row)}")
        cards = _card_list(row, deck, where)
        if any(a >= b for a, b in zip(cards, cards[1:])):
            raise errors.RowOrderError(f"{where} does not increase: {list(cards)}")
        checked.append(cards)
    return tuple(checked)


def _check_hands(hands: Any, deck: int) -> Tuple[Hand, ...]:
    if not isinstance(hands, list):
        raise errors.PlayerCountError(f"hands must be a list with one hand per player, got"
                                      f" {errors.quote_json(hands)}")
    if not MIN_PLAYERS <= len(hands) <= MAX_PLAYERS:
        raise errors.PlayerCountError(f"there must be 2 to 10 players, got"
                                      f" {errors.plural(len(hands), 'hand')}")
    checked: List[Hand] = []
    for k, hand in enumerate(hands):
        if hand is None:
            checked.append(None)
            continue
        if isinstance(hand, str) and hand.strip() in ("?", "null", "None", ""):
            raise errors.PositionError(f"hand of player {k + 1} is {errors.quote_json(hand)}:"
                                       f" a hidden hand is written null (no quotes) in JSON,"
                                       f" ? in the text notation")
        cards = _card_list(hand, deck, f"hand of player {k + 1}")
        if len(cards) > HAND_SIZE:
            raise errors.HandSizeError(f"hand of player {k + 1} has {len(cards)} cards (at most 10)")
        checked.append(tuple(sorted(cards)))
    sizes = {len(h) for h in checked if h is not None}
    if len(sizes) > 1:
        shown = ", ".join("null" if h is None else str(len(h)) for h in checked)
        raise errors.HandSizeError(f"hands have different sizes: [{shown}]")
    if not sizes:
        raise errors.HandSizeError("no hand is visible: the viewer's own hand must be a list")
    return tuple(checked)


def _check_per_player(values: Any, players: int, key: str, item: str,
                      note: str = "", cap: int = MAX_PENALTY) -> Tuple[int, ...]:
    """A list of one non-negative integer per player, at most `cap` (`penalties`,
    `scores`); `item` names one value in messages."""
    if not isinstance(values, list) or len(values) != players:
        raise errors.PenaltyError(f"{key} must be a list of {players} integers{note},"
                                  f" got {errors.quote_json(values)}")
    for v in values:
        if not errors.is_integer(v):
            raise errors.PenaltyError(f"{item} {errors.quote_json(v)} is not an integer")
        if v < 0:
            raise errors.PenaltyError(f"{item} {errors.quote_json(v)} is negative")
        if v > cap:
            raise errors.PenaltyError(f"{item} {errors.quote_json(v)} is more than {cap:,}")
    return tuple(values)


def close_key(key: Any, keys: Sequence[str]) -> Optional[str]:
    """The key of `keys` that `key` (in lower case) most likely misspells, if any."""
    close = difflib.get_close_matches(str(key)[:100].lower(), keys, n=1, cutoff=TYPO_CUTOFF)
    return close[0] if close else None


def check_keys(data: Dict[Any, Any], read: Sequence[str], what: str = "position",
               error: type = errors.UnknownKeyError,
               aliases: Optional[Dict[str, str]] = None) -> None:
    """Refuse (`error`) a key that misspells one of the `read` keys which `data` lacks
    ("penalty" without "penalties", say, or a key of `aliases`, the names a user may give
    a key that spelling alone does not bring near it), naming it; any other unknown key is
    a note, accepted. `what`: where the keys are (a position, a record, a record's turn)."""
    for key in data:
        if key in read:
            continue
        close = (aliases or {}).get(str(key).lower()) or close_key(key, read)
        if close is None or close in data:
            continue
        keys = ", ".join(k for k in read if k not in OPTIONAL_KEYS)
        optional = [k for k in read if k in OPTIONAL_KEYS]
        if optional:
            keys += f" and the optional {', '.join(optional)}"
        raise error(f"unknown key {errors.quote_json(key)} in {what} (did you mean"
                    f" \"{close}\"?); the keys are {keys} (other keys are notes, not read)")


def _check_scores(scores: Any, players: int) -> None:
    """The optional `scores`: totals of earlier rounds, one non-negative integer a player."""
    if scores is not None:
        _check_per_player(scores, players, "scores", "score", " (one per player)")


def _check_viewer(extra: Dict[str, Any], hands: Sequence[Hand]) -> None:
    """The optional `viewer` and `to_move` (the same: whose view a position is): a player
    number 1..N whose hand is visible; both given, the same player."""
    players = len(hands)
    for key in ("viewer", "to_move"):
        viewer = extra.get(key)
        what = "viewer" if key == "viewer" else "to_move (the viewer)"
        if viewer is not None and not (errors.is_integer(viewer) and 1 <= viewer <= players):
            raise errors.PositionError(f"{what} must be a player number 1..{players},"
                                       f" got {errors.quote_json(viewer)}")
    both = [extra.get(k) for k in ("viewer", "to_move")]
    if None not in both and both[0] != both[1]:
        raise errors.PositionError(f"viewer {both[0]} and to_move {both[1]} differ: they name"
                                   f" the same player (whose view the position is)")
    viewer = both[0] if both[0] is not None else both[1]
    if viewer is not None and hands[viewer - 1] is None:
        raise errors.PositionError(f"the viewer's hand (player {viewer}) must be visible")


def _flat_played(played: Any) -> Tuple[Any, ...]:
    flat: List[Any] = []
    for item in played or []:
        flat.extend(item if isinstance(item, list) else [item])
    return tuple(flat)


def _check_played(played: Any, deck: int, rows: Sequence[Row], hands: Sequence[Hand]) -> None:
    if played is None:
        return
    if not isinstance(played, list):
        raise errors.PositionError(f"played must be a list of cards or of turns,"
                                   f" got {errors.quote_json(played)}")
    cards = _card_list(list(_flat_played(played)), deck, "played")
    in_hand = set(cards) & {c for h in hands if h is not None for c in h}
    if in_hand:
        raise errors.DuplicateCardError(f"card {min(in_hand)} is both played and in a hand")
    on_rows = set(cards) & {c for row in rows for c in row}
    if on_rows:
        raise errors.DuplicateCardError(f"card {min(on_rows)} is both played and on a row")
    if len(set(cards)) != len(cards):
        twice = next(c for c in cards if cards.count(c) > 1)
        raise errors.DuplicateCardError(f"card {twice} is played twice")


def _check_unique(rows: Sequence[Row], hands: Sequence[Hand]) -> None:
    seen = set()
    for cards in list(rows) + [h for h in hands if h is not None]:
        for c in cards:
            if c in seen:
                raise errors.DuplicateCardError(f"card {c} appears twice")
            seen.add(c)
