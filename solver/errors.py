"""Every exception of nimmt, and how a message quotes the input it refuses.

Bad input is a `NimmtError` (a ValueError) whose message quotes the offending value; the
command line prints it as one line and exits with status 2. A search stopped before it
proved its answer is a `SearchLimitError` (status 3, or 130 when Ctrl-C stopped it).

A message quotes at most `SHORT` characters of a value (`quote` as Python writes it,
`quote_json` as JSON writes it, for values read from JSON): input of any size still gives one
short line.
"""
import json
from typing import Any, Iterator

SHORT = 60
SHORT_PATH = 200     # a file name: its end matters too


def cut(text: str, limit: int = SHORT) -> str:
    """`text` cut to `limit` characters, marked with '...' when cut."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def quote(value: Any, limit: int = SHORT) -> str:
    """`value` as Python writes it ('x', 12), cut to `limit` characters; a quoted text cut
    short keeps its closing quote ('abc...'), so that the message reads on after it."""
    text = repr(value)
    if len(text) > limit and text[:1] in "'\"" and limit > 4:
        return text[:limit - 4] + "..." + text[0]
    return cut(text, limit)


def os_error_text(exc: OSError) -> str:
    """An operating-system error as one line of ours: the file named, then the system's
    words ("'out/sub': Not a directory"), never Python's "[Errno 20] ..." form."""
    words = exc.strerror or str(exc) or type(exc).__name__
    names = [quote(str(name), SHORT_PATH) for name in (exc.filename, exc.filename2)
             if name is not None]
    return ": ".join([" -> ".join(names), words] if names else [words])


def first_difference(theirs: dict, ours: dict) -> str:
    """Where two runs' settings part, for a message: "its epochs 8, this run's 10" (the first
    key in order that differs)."""
    for key in list(ours) + [k for k in theirs if k not in ours]:
        if theirs.get(key) != ours.get(key):
            return (f"its {key} {quote_json(theirs.get(key), 60)}, this run's"
                    f" {quote_json(ours.get(key), 60)}")
    return "none"


def is_integer(value: Any) -> bool:
    """A JSON integer: an int that is not a bool (Python's True is an int)."""
    return isinstance(value, int) and not isinstance(value, bool)


def plural(n: int, word: str) -> str:
    """`1 card`, `2 cards`: a count and its noun."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def quote_json(value: Any, limit: int = SHORT) -> str:
    """`value` as the JSON text it came from (true, null, ...), cut to `limit` characters.

    Written piece by piece and only up to the limit: a huge or deeply nested value costs no
    more than a short one (json.dumps of a value nested ~1000 deep overflows the stack)."""
    text = ""
    for piece in _json_pieces(value):
        text += piece
        if len(text) > limit:
            break
    return cut(text, limit)


def _json_pieces(value: Any) -> Iterator[str]:
    """The JSON text of `value`, from the start, in pieces (one per bracket, key or scalar)."""
    if isinstance(value, (list, tuple)):
        yield "["
        for i, item in enumerate(value):
            yield ", " if i else ""
            yield from _json_pieces(item)
        yield "]"
    elif isinstance(value, dict):
        yield "{"
        for i, (key, item) in enumerate(value.items()):
            yield (", " if i else "") + json.dumps(key) + ": "
            yield from _json_pieces(item)
        yield "}"
    elif is_integer(value):
        yield repr(value)
    else:
        try:
            yield json.dumps(value)
        except (TypeError, ValueError):
            yield repr(value)


class NimmtError(ValueError):
    """Base class: any invalid input to nimmt."""


class PositionError(NimmtError):
    """A position (the JSON format of docs/formats.md) that breaks a rule of the game."""


class JsonFormatError(PositionError):
    """Not JSON, or not a JSON object."""


class MissingKeyError(PositionError):
    """A required key (`rows`, `hands`, `turns`) is missing."""


class RowCountError(PositionError):
    """Not exactly 4 rows."""


class RowLengthError(PositionError):
    """A row with 0 or more than 5 cards."""


class RowOrderError(PositionError):
    """A row whose cards do not increase."""


class CardError(PositionError):
    """A card that is not an integer, or outside 1..deck."""


class DuplicateCardError(PositionError):
    """The same card in two places."""


class HandSizeError(PositionError):
    """Hands of different sizes, or of more than 10 cards."""


class PlayerCountError(PositionError):
    """Fewer than 2 or more than 10 players."""


class PenaltyError(PositionError):
    """A penalty that is negative or not an integer, or a list of the wrong length."""


class DeckError(PositionError):
    """A deck size that is not a usable integer."""


class NotationError(PositionError):
    """Text notation that cannot be parsed."""


class UnknownKeyError(PositionError):
    """A key the position format does not have (a misspelt `penalties`, say)."""


class RecordGivenError(PositionError):
    """A game record (it has `turns`) where a position is expected."""


class NotSolvableError(PositionError):
    """The exact solver needs exactly 2 players with both hands visible."""


class RecordError(NimmtError):
    """A game record that cannot be replayed (card not in hand, needless row choice...)."""


class TurnFormatError(RecordError):
    """`turns` or one of its turns is not shaped as the record format says."""


class CardNotInHandError(RecordError):
    """A turn plays a card its player does not hold (anymore)."""


class RowChoiceError(RecordError):
    """A row choice that is not 0..3, or given for a card that was not too low."""


class TooManyTurnsError(RecordError):
    """More turns than cards in the hands."""


class IllegalMoveError(NimmtError):
    """A player (a bot) answered with a card it does not hold or a row that does not exist."""


class EndOfInput(NimmtError):
    """The human's input ended in the middle of a game (`nimmt play`)."""


class Interrupted(Exception):
    """Ctrl-C stopped a command (the command line exits with 130)."""


class GameQuit(Exception):
    """The human typed `quit` (`nimmt play`): not an error, the game simply ends."""


class ConfigError(NimmtError):
    """A game configuration outside the rules (players, deck, threshold)."""


class SearchLimitError(NimmtError):
    """A search stopped by a limit (nodes, seconds) or by Ctrl-C before proving its answer.

    `bounds` holds the interval proven for the value so far (lower, upper); `interrupted` is
    True when Ctrl-C (not a limit) stopped it.
    """

    def __init__(self, message, bounds=None, stats=None, interrupted: bool = False):
        super().__init__(message)
        self.bounds = bounds
        self.stats = stats
        self.interrupted = interrupted
