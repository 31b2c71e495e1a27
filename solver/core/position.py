"""Positions: the JSON format of docs/formats.md, validated, with JSON and a compact text notation.

Text notation (one line, sections separated by `;`):

    DECK; ROW, ROW, ROW, ROW; HAND, HAND, ...[; PENALTY PENALTY ...]

cards separated by spaces, `?` for a hand the viewer cannot see, `-` for an empty hand.
Example: `24; 3 10, 7, 12 15 18, 21; 1 2 4, 5 6 8; 0 0`.
"""
import difflib
import json
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .. import errors
from .rules import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, ROW_LIMIT, ROWS, STANDARD_DECK

Row = Tuple[int, ...]
Hand = Optional[Tuple[int, ...]]   # None: a hand the viewer cannot see

KNOWN_KEYS = ("deck", "rows", "hands", "penalties")     # the exchange format's keys
OPTIONAL_KEYS = ("played", "scores", "viewer", "to_move")   # kept in `Position.extra`
# notes the curated positions of positions/ carry (their description and solution): kept in
# `Position.extra` as they are, for the round trip, and not read
NOTE_KEYS = ("description", "value", "value_fraction", "strategies")
ALLOWED_KEYS = KNOWN_KEYS + OPTIONAL_KEYS + NOTE_KEYS
# the whole deck holds 171 bullheads; this leaves room for totals of earlier rounds and keeps
# every penalty far inside the C int the search player adds bullheads to
MAX_PENALTY = 1_000_000


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
    `to_move`), validated too, and the notes of a curated position (`NOTE_KEYS`:
    `description` and its solution), for the round trip; any other key is refused.
    """
    deck: int
    rows: Tuple[Row, ...]
    hands: Tuple[Hand, ...]
    penalties: Tuple[int, ...]
    extra: Dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    # construction -------------------------------------------------------------------------
    @classmethod
    def create(cls, rows, hands, penalties=None, deck=STANDARD_DECK, extra=None) -> "Position":
        deck = _check_deck(deck)
        rows = _check_rows(rows, deck)
        hands = _check_hands(hands, deck)
        penalties = _check_penalties(penalties, len(hands))
        _check_unique(rows, hands)
        extra = dict(extra or {})
        _check_keys(extra, OPTIONAL_KEYS + NOTE_KEYS)
        _check_played(extra.get("played"), deck, hands)
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
        _check_keys(data, ALLOWED_KEYS)
        for key in ("rows", "hands"):
            if key not in data:
                raise errors.MissingKeyError(f"missing key {key!r} in position")
        extra = {k: v for k, v in data.items() if k not in KNOWN_KEYS}
        return cls.create(data["rows"], data["hands"], data.get("penalties"),
                          data.get("deck", STANDARD_DECK), extra)

    @classmethod
    def from_json(cls, text: str) -> "Position":
        return cls.from_dict(parse_json(text))

    @classmethod
    def from_text(cls, text: str) -> "Position":
        return parse_notation(text)

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
    def complete_information(self) -> bool:
        return all(h is not None for h in self.hands)

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
        return format_notation(self)

    def __str__(self) -> str:
        return self.to_text()


# validation -------------------------------------------------------------------------------
def _unique_keys(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
    data: Dict[str, Any] = {}
    for k, v in pairs:
        if k in data:
            raise errors.JsonFormatError(f"invalid JSON: key {errors.quote(k)} given twice"
                                         f" in one object")
        data[k] = v
    return data


def _not_json(constant: str) -> None:
    raise errors.JsonFormatError(f"invalid JSON: {constant} is not a JSON number")


COMMENT_STARTS = ("//", "/*")                # what a JSON file with comments starts with
JSON_STARTS = ("{", "[", '"') + COMMENT_STARTS
MAX_DIGITS = sys.get_int_max_str_digits()     # digits of the longest integer Python reads


class LongInt(int):
    """A JSON or notation integer of more digits than Python reads (`MAX_DIGITS`): it is never
    converted. It compares as +-10**digits, beyond every bound a check has (so it is refused
    as out of range, not as "not an integer"), and shows as the text it came from."""

    def __new__(cls, text: str) -> "LongInt":
        sign = -1 if text.startswith("-") else 1
        number = super().__new__(cls, sign * 10 ** len(text.lstrip("+-")))
        number.text = text
        return number

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__


def _to_int(text: str) -> int:
    """The integer `text` (digits, maybe a sign): a LongInt when it has too many digits."""
    try:
        return int(text)
    except ValueError:           # only the digit limit: `text` is digits
        return LongInt(text)


def parse_json(text: str) -> Any:
    """JSON as RFC 8259 has it: NaN and Infinity refused, a key twice in an object refused."""
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_int=_to_int,
                          parse_constant=_not_json)
    except json.JSONDecodeError as exc:
        reason = "comments are not JSON" if text.startswith(COMMENT_STARTS, exc.pos) else exc.msg
        raise errors.JsonFormatError(f"invalid JSON at line {exc.lineno} column {exc.colno}:"
                                     f" {reason} (input {quote_input(text)})") from None
    except RecursionError:
        raise errors.JsonFormatError(f"invalid JSON: too deeply nested"
                                     f" (input {quote_input(text)})") from None


def quote_input(text: str) -> str:
    """A whole input quoted in a message, without its trailing whitespace (the newline that
    ends a line typed or piped in)."""
    return errors.quote_json(text.rstrip())


def _check_deck(deck: Any) -> int:
    if not errors.is_integer(deck) or not ROWS < deck <= STANDARD_DECK:
        raise errors.DeckError(f"deck must be an integer in {ROWS + 1}..{STANDARD_DECK},"
                               f" got {errors.quote_json(deck)}")
    return deck


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
        raise errors.PlayerCountError(f"there must be 2 to 10 players, got {len(hands)} hands")
    checked: List[Hand] = []
    for k, hand in enumerate(hands):
        if hand is None:
            checked.append(None)
            continue
        cards = _card_list(hand, deck, f"hand of player {k + 1}")
        if len(cards) > HAND_SIZE:
            raise errors.HandSizeError(f"hand of player {k + 1} has {len(cards)} cards (at most 10)")
        checked.append(tuple(sorted(cards)))
    sizes = {len(h) for h in checked if h is not None}
    if len(sizes) > 1:
        shown = [None if h is None else len(h) for h in checked]
        raise errors.HandSizeError(f"hands have different sizes: {shown}")
    if not sizes:
        raise errors.HandSizeError("no hand is visible: the viewer's own hand must be a list")
    return tuple(checked)


def _check_penalties(penalties: Any, players: int) -> Tuple[int, ...]:
    if penalties is None:
        return (0,) * players
    if not isinstance(penalties, list) or len(penalties) != players:
        raise errors.PenaltyError(f"penalties must be a list of {players} integers,"
                                  f" got {errors.quote_json(penalties)}")
    for p in penalties:
        if not errors.is_integer(p):
            raise errors.PenaltyError(f"penalty {errors.quote_json(p)} is not an integer")
        if p < 0:
            raise errors.PenaltyError(f"penalty {errors.quote_json(p)} is negative")
        if p > MAX_PENALTY:
            raise errors.PenaltyError(f"penalty"
                                      f" {errors.quote_json(p)} is more than {MAX_PENALTY:,}")
    return tuple(penalties)


def _check_keys(data: Dict[Any, Any], allowed: Sequence[str]) -> None:
    """Refuse a key the format does not have (a misspelt `penalties`, say), naming the
    allowed keys and, when one is close, the likely one."""
    for key in data:
        if key in allowed:
            continue
        text = str(key)[:100]
        close = difflib.get_close_matches(text, ALLOWED_KEYS, n=1)
        if not close:
            close = difflib.get_close_matches(text.lower(), ALLOWED_KEYS, n=1)
        hint = f' (did you mean "{close[0]}"?)' if close else ""
        if key == "turns":
            hint = " (a game record's key: replay the record for the position after its turns)"
        keys = ", ".join(k for k in allowed if k in KNOWN_KEYS)
        optional = ", ".join(k for k in allowed if k in OPTIONAL_KEYS)
        keys = f"{keys} and the optional {optional}" if keys else f"the optional {optional}"
        raise errors.UnknownKeyError(f"unknown key {errors.quote_json(key)} in position{hint};"
                                     f" the keys are {keys} (and a curated position's notes:"
                                     f" {', '.join(NOTE_KEYS)})")


def _check_scores(scores: Any, players: int) -> None:
    """The optional `scores`: totals of earlier rounds, one non-negative integer a player."""
    if scores is None:
        return
    if not isinstance(scores, list) or len(scores) != players:
        raise errors.PenaltyError(f"scores must be a list of {players} integers (one per"
                                  f" player), got {errors.quote_json(scores)}")
    for s in scores:
        if not errors.is_integer(s):
            raise errors.PenaltyError(f"score {errors.quote_json(s)} is not an integer")
        if s < 0:
            raise errors.PenaltyError(f"score {errors.quote_json(s)} is negative")
        if s > MAX_PENALTY:
            raise errors.PenaltyError(f"score {errors.quote_json(s)} is more than {MAX_PENALTY:,}")


def _check_viewer(extra: Dict[str, Any], hands: Sequence[Hand]) -> None:
    """The optional `viewer` and `to_move` (the same: whose view a position is): a player
    number 1..N whose hand is visible; both given, the same player."""
    players = len(hands)
    for key in ("viewer", "to_move"):
        viewer = extra.get(key)
        if viewer is None:
            continue
        what = "viewer" if key == "viewer" else "to_move (the viewer)"
        if not (errors.is_integer(viewer) and 1 <= viewer <= players):
            raise errors.PositionError(f"{what} must be a player number 1..{players},"
                                       f" got {errors.quote_json(viewer)}")
        if hands[viewer - 1] is None:
            raise errors.PositionError(f"the viewer's hand (player {viewer}) must be visible")
    both = [extra.get(k) for k in ("viewer", "to_move")]
    if None not in both and both[0] != both[1]:
        raise errors.PositionError(f"viewer {both[0]} and to_move {both[1]} differ: they name"
                                   f" the same player (whose view the position is)")


def _flat_played(played: Any) -> Tuple[Any, ...]:
    flat: List[Any] = []
    for item in played or []:
        flat.extend(item if isinstance(item, list) else [item])
    return tuple(flat)


def _check_played(played: Any, deck: int, hands: Sequence[Hand]) -> None:
    if played is None:
        return
    if not isinstance(played, list):
        raise errors.PositionError(f"played must be a list of cards or of turns,"
                                   f" got {errors.quote_json(played)}")
    cards = _card_list(list(_flat_played(played)), deck, "played")
    in_hand = set(cards) & {c for h in hands if h is not None for c in h}
    if in_hand:
        raise errors.DuplicateCardError(f"card {min(in_hand)} is both played and in a hand")
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


# text notation ----------------------------------------------------------------------------
def _format_cards(cards: Sequence[int]) -> str:
    return " ".join(str(c) for c in cards) if cards else "-"


def format_notation(position: Position) -> str:
    rows = ", ".join(_format_cards(r) for r in position.rows)
    hands = ", ".join("?" if h is None else _format_cards(h) for h in position.hands)
    penalties = " ".join(str(p) for p in position.penalties)
    return f"{position.deck}; {rows}; {hands}; {penalties}"


def _parse_int(token: str, what: str, text: str) -> int:
    # ASCII digits only: int() also reads 1_0, Arabic-Indic or full-width digits
    if not re.fullmatch(r"[+-]?[0-9]+", token):
        raise errors.NotationError(f"{what} {errors.quote(token)} is not an integer"
                                   f" in {errors.quote(text)}")
    return _to_int(token)


def _parse_cards(part: str, text: str) -> Optional[List[int]]:
    part = part.strip()
    if part == "?":
        return None
    if part == "-":
        return []
    return [_parse_int(t, "card", text) for t in part.split()]


def parse_notation(text: str) -> Position:
    text = text.rstrip()            # messages quote it: no trailing newline
    sections = [s.strip() for s in text.strip().split(";")]
    if len(sections) not in (3, 4):
        raise errors.NotationError(
            f"expected 'DECK; ROWS; HANDS[; PENALTIES]' (3 or 4 sections), got {errors.quote(text)}")
    deck = _parse_int(sections[0], "deck", text)
    rows = [_parse_cards(p, text) for p in sections[1].split(",")]
    if any(r is None for r in rows):
        raise errors.NotationError(f"a row cannot be '?' in {errors.quote(text)}")
    hands = [_parse_cards(p, text) for p in sections[2].split(",")]
    penalties = None
    if len(sections) == 4 and sections[3]:
        penalties = [_parse_int(t, "penalty", text) for t in sections[3].split()]
    return Position.create(rows, hands, penalties, deck)


def load_position(source: str) -> Position:
    """Read a position from a file path, from stdin when `source` is '-', or from `source`
    itself when it is no file but a position written inline (JSON or the notation).

    The content may be JSON or the text notation.
    """
    inline = is_inline(source)
    text = source if inline else read_source(source)
    if text.lstrip().startswith(JSON_STARTS) or not text.strip() or is_json_scalar(text):
        data = parse_json(text)
        if isinstance(data, dict) and "turns" in data:
            raise errors.RecordGivenError(_record_given(source, inline))
        return Position.from_dict(data)
    return parse_notation(text)


def _record_given(source: str, inline: bool) -> str:
    """Why a game record is refused where a position is expected, and what to run instead."""
    if inline:
        return ('the position given is a game record (it has "turns"): for the position after'
                " its turns, save it to a file RECORD, run 'nimmt replay RECORD --json' and"
                " give that instead")
    if source == "-":
        return ('stdin holds a game record (it has "turns"): for the position after its turns,'
                " pipe it through 'nimmt replay - --json' and give that instead")
    import shlex
    name = errors.quote(source, errors.SHORT_PATH)
    command = errors.cut(f"nimmt replay {shlex.quote(source)} --json", errors.SHORT_PATH)
    return (f'{name} is a game record (it has "turns"): for the position after its turns,'
            f" run '{command}' and give that instead")


def is_json_scalar(text: str) -> bool:
    """`text` is a lone JSON number, string or constant (no position, but JSON: say so)."""
    if ";" in text:
        return False
    try:
        json.loads(text, parse_int=_to_int)
    except ValueError:
        return False
    return True


def is_inline(source: str) -> bool:
    import os
    return (";" in source or source.lstrip().startswith("{")) and not os.path.exists(source)


def _is_terminal(stream: Any) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):     # no stdin, or a closed one
        return False


def read_source(source: str, what: str = "a position") -> str:
    """The text of a file, or of stdin when `source` is '-' (on a terminal, first a line on
    stderr says what is read and how to end it: the command would wait silently otherwise)."""
    name = "stdin" if source == "-" else errors.quote(source, errors.SHORT_PATH)
    try:
        if source == "-":
            if sys.stdin is None:                     # started with stdin closed
                raise errors.NimmtError("cannot read stdin: it is closed")
            if _is_terminal(sys.stdin):
                sys.stderr.write(f"reading {what} from standard input; end it with Ctrl-D\n")
                sys.stderr.flush()
            text = sys.stdin.read()
        else:
            with open(source, encoding="utf-8") as handle:
                text = handle.read()
        text.encode("utf-8")     # stdin may keep bytes that are not UTF-8 as lone surrogates
    except OSError as exc:
        raise errors.NimmtError(f"cannot read {name}: {exc.strerror}") from None
    except UnicodeError:
        raise errors.JsonFormatError(f"{name} is not UTF-8 text") from None
    return text.removeprefix("\ufeff")      # the byte order mark some editors write
