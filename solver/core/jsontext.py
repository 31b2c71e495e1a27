"""JSON as RFC 8259 has it, for every JSON nimmt reads (positions, records).

`NaN` and `Infinity` are refused, a key given twice in one object too, and comments are named
as what they are; an integer of more digits than Python reads stays its text (`LongInt`), so
it is refused as out of range, never converted.
"""
import json
import sys
from typing import Any, Dict, List, Tuple

from .. import errors

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


def to_int(text: str) -> int:
    """The integer `text` (digits, maybe a sign): a LongInt when it has too many digits."""
    try:
        return int(text)
    except ValueError:           # only the digit limit: `text` is digits
        return LongInt(text)


def parse_json(text: str) -> Any:
    """JSON as RFC 8259 has it: NaN and Infinity refused, a key twice in an object refused."""
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_int=to_int,
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
