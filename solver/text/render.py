"""Plain-text rendering of a table and of a turn, to read at a glance in a terminal.

Players are numbered 1..N and rows 0..3 wherever a person reads them, in text and in JSON
(`player_name`; the formats number rows from 0 and list players in order); in the code,
seats are 0-based indices and `+ 1` makes them player numbers.

    row 0 |  8 24 29             | 3 cards   3 bullheads
    row 1 | 11 12 13 14 15       | 5 cards  10 bullheads  FULL: a 6th card takes it
"""
from typing import List, Optional, Sequence

from ..core.position import Position
from ..core.rules import ROW_LIMIT, row_bullheads

ROW_WIDTH = 4 * ROW_LIMIT - 1     # room for 5 cards of 3 digits


def _cards(cards: Sequence[int]) -> str:
    return " ".join(f"{c:>2}" for c in cards)


def render_row(index: int, row: Sequence[int]) -> str:
    bulls = row_bullheads(row)
    line = (f"row {index} | {_cards(row):<{ROW_WIDTH}} | {len(row)} card{'s' if len(row) > 1 else ' '}"
            f" {bulls:>3} bullhead{'s' if bulls > 1 else ''}")
    if len(row) == ROW_LIMIT:
        line += "  FULL: a 6th card takes it"
    return line


def render_hand(seat: int, hand: Optional[Sequence[int]], size: int, you: Optional[int],
                names: Optional[Sequence[str]]) -> str:
    label = names[seat] if names else f"player {seat + 1}"
    if seat == you:
        label += " (you)"
    cards = " ".join([" ?"] * size) if hand is None else _cards(hand) or "-"
    return f"  {label:<18} {cards}"


def render_position(position: Position, you: Optional[int] = None,
                    names: Optional[Sequence[str]] = None,
                    scores: Optional[Sequence[int]] = None) -> str:
    """The 4 rows (bullheads, length, full rows marked), the hands (unseen as ?), penalties.

    `you`: the seat whose view this is (0-based); `scores`: totals of earlier rounds.
    """
    size = position.hand_size
    lines: List[str] = [f"deck 1..{position.deck}, {position.players} players,"
                        f" {size} card{'s' if size != 1 else ''} in hand", ""]
    lines += [render_row(i, row) for i, row in enumerate(position.rows)]
    lines += ["", "hands"]
    lines += [render_hand(k, hand, size, you, names) for k, hand in enumerate(position.hands)]
    if position.played:
        lines += ["", "out of play " + " ".join(map(str, sorted(position.played)))]
    lines += ["", "penalties " + _per_seat(position.penalties, names)]
    if scores is None:
        scores = position.extra.get("scores")       # a position's own, when it has them
    if scores is not None:
        lines.append("scores    " + _per_seat(scores, names))
    return "\n".join(lines)


def _per_seat(values: Sequence[int], names: Optional[Sequence[str]]) -> str:
    labels = names or [f"P{k + 1}" for k in range(len(values))]
    return ", ".join(f"{label} {v}" for label, v in zip(labels, values))


def known_hand(k: int, cards) -> str:
    """The line that says a hidden hand of the 24-card game was filled in."""
    return (f"{player_name(k)}'s hand, hidden, is known: every card of the 2-player 24-card"
            f" game is dealt ({' '.join(str(c) for c in cards)})")


def player_name(k: int) -> str:
    """The name of seat `k` (0-based) for people: players are numbered 1..N (rows 0..3, as
    in the JSON formats)."""
    return f"player {k + 1}"


def describe_turn(t: int, cards: Sequence[int], taken: Sequence[Sequence[int]],
                  taken_rows: Sequence[Optional[int]], names: Optional[Sequence[str]] = None) -> str:
    """`turn 3: P1 12, P2 40 | P2 took row 1 [31, 33, 35, 36, 39] (9 bullheads)`: the row
    each player took (`TurnOutcome.taken_rows`), by choice or with a sixth card."""
    label = (lambda k: names[k]) if names else (lambda k: f"P{k + 1}")
    played = ", ".join(f"{label(k)} {c}" for k, c in enumerate(cards))
    events = []
    for k, cards_taken in enumerate(taken):
        if cards_taken:
            bulls = row_bullheads(cards_taken)
            events.append(f"{label(k)} took row {taken_rows[k]} {list(cards_taken)}"
                          f" ({bulls} bullhead{'s' if bulls > 1 else ''})")
    return f"turn {t + 1}: {played}" + (" | " + "; ".join(events) if events else "")
