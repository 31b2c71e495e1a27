"""The text notation of a position: one line, sections separated by `;`.

    DECK; ROW, ROW, ROW, ROW; HAND, HAND, ...[; PENALTY PENALTY ...]

Cards separated by spaces, `?` for a hand the viewer cannot see, `-` for an empty hand.
Example: `24; 3 10, 7, 12 15 18, 21; 1 2 4, 5 6 8; 0 0`. It holds the keys `deck`, `rows`,
`hands` and `penalties` only; `Position.from_text` validates what `parse` reads.
"""
import re
from typing import List, Optional, Sequence, Tuple

from .. import errors
from .jsontext import to_int

Fields = Tuple[int, List[List[int]], List[Optional[List[int]]], Optional[List[int]]]

def _format_cards(cards: Sequence[int]) -> str:
    return " ".join(str(c) for c in cards) if cards else "-"


def format_notation(deck: int, rows: Sequence[Sequence[int]],
                    hands: Sequence[Optional[Sequence[int]]], penalties: Sequence[int]) -> str:
    """The one line of a position's fields."""
    rows_text = ", ".join(_format_cards(r) for r in rows)
    hands_text = ", ".join("?" if h is None else _format_cards(h) for h in hands)
    penalties_text = " ".join(str(p) for p in penalties)
    return f"{deck}; {rows_text}; {hands_text}; {penalties_text}"


# an integer as text: ASCII digits, maybe a minus sign (int() also reads +7, 1_0,
# Arabic-Indic or full-width digits; the minus stays so that -3 is told it is out of range)
INTEGER_TEXT = re.compile(r"-?[0-9]+")


def _parse_int(token: str, what: str, text: str) -> int:
    if not INTEGER_TEXT.fullmatch(token):
        raise errors.NotationError(f"{what} {errors.quote(token)} is not an integer"
                                   f" in {errors.quote(text)}")
    return to_int(token)


def _parse_cards(part: str, what: str, text: str) -> Optional[List[int]]:
    part = part.strip()
    if not part:
        # nothing between two commas is more likely a slip than an empty hand
        raise errors.NotationError(f"{what} is blank in {errors.quote(text)}"
                                   " (write '-' for an empty hand)")
    if part == "?":
        return None
    if part == "-":
        return []
    return [_parse_int(t, "card", text) for t in part.split()]


def parse_notation(text: str) -> Fields:
    """(deck, rows, hands, penalties) read from one line; checked by `Position.create`."""
    text = text.rstrip()            # messages quote it: no trailing newline
    sections = [s.strip() for s in text.strip().split(";")]
    if len(sections) not in (3, 4):
        raise errors.NotationError(
            f"expected 'DECK; ROWS; HANDS[; PENALTIES]' (3 or 4 sections), got {errors.quote(text)}")
    deck = _parse_int(sections[0], "deck", text)
    rows = [_parse_cards(p, f"row {i}", text) for i, p in enumerate(sections[1].split(","))]
    if any(r is None for r in rows):
        raise errors.NotationError(f"a row cannot be '?' in {errors.quote(text)}")
    hands = [_parse_cards(p, f"hand {i + 1}", text) for i, p in enumerate(sections[2].split(","))]
    penalties = None
    if len(sections) == 4 and sections[3]:
        penalties = [_parse_int(t, "penalty", text) for t in sections[3].split()]
    return deck, rows, hands, penalties
