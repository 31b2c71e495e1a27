"""The words of `nimmt review`: a `Review` (solver/review.py) as a table of turns and totals."""
import textwrap
from typing import List, Optional, Sequence, Tuple

from ..exact.engine import proven_bounds
from ..review import (BLUNDER_FROM, MISTAKE_FROM, SEARCH_PLAYER, Mark, Method, PlayerTotal,
                      PlayReview, Review, TurnReview, Why, exact_game)
from .render import player_name

WIDTH = 92
EXACT_LOSS = ("Exact turns: against the opponent's equilibrium strategy (value: player 2's"
              " bullheads minus player 1's to the end of the round, under the equilibrium).")
ESTIMATED_LOSS = ("Estimated turns: the card's expected bullheads to the end of the round minus"
                  " the lowest expected, by the search player.")
NETWORK_LOSS = ("Estimated turns: the card's expected bullheads to the end of the round minus"
                " the best card's, by {who}, each half of its worlds scoring the best card of"
                " the other half (the noise that makes a card look best is not counted against"
                " the play).")
MARKS_LINE = (f"marks: best (loses nothing), good (estimated, its interval holds 0: not told"
              f" apart from the best), inaccuracy (less than {MISTAKE_FROM:g}), mistake"
              f" (less than {BLUNDER_FROM:g}), blunder ({BLUNDER_FROM:g} or more), forced"
              " (one card, no row to choose)")
HEADERS = ["turn", "cards", "method", "value", "player", "card", "best", "row", "best rows",
           "loss", "interval", "mark"]
RIGHT = {"turn", "cards", "value", "card", "loss"}      # numbers, aligned right


def format_review(review: Review) -> str:
    start = review.start
    turns = review.turns
    lines = [f"review of {turns_text(len(turns))} of a {start.players}-player round, deck"
             f" {start.deck}, from {start.hand_size} card{'s' if start.hand_size != 1 else ''}"
             " a hand"]
    if review.seats is not None:
        lines.append("the plays of " + " and ".join(player_name(k) for k in review.seats)
                     + " (the others' turns replayed, not judged)")
    seats = start.extra.get("seats")          # a note of play --record and tournament files
    if (isinstance(seats, list) and len(seats) == start.players
            and all(isinstance(name, str) for name in seats)):
        lines.append("players: " + ", ".join(f"{k} {name}" for k, name in enumerate(seats, 1)))
    if not turns:
        return "\n".join(lines + ["the record has no turns: nothing to review"])
    methods = {turn.method for turn in turns}
    loss = " ".join(["loss: the bullheads a play gives away."]
                    + [EXACT_LOSS] * (Method.EXACT in methods)
                    + [ESTIMATED_LOSS if review.reviewer == SEARCH_PLAYER
                       else NETWORK_LOSS.format(who=estimator(review))]
                    * (Method.ESTIMATED in methods))
    lines += textwrap.wrap(loss, WIDTH) + textwrap.wrap(MARKS_LINE, WIDTH) + [""]
    lines += table([cells for turn in turns for cells in turn_cells(turn)])
    notes = turn_notes(review)
    if notes:
        lines += [""] + notes
    lines += [""] + [format_total(total) for total in review.totals()]
    return "\n".join(lines)


def table(rows: List[List[str]]) -> List[str]:
    """The turns' rows under HEADERS, without the columns empty in every row (no row choice,
    no estimated turn...)."""
    shown = [i for i in range(len(HEADERS)) if any(r[i] for r in rows)]
    headers = [HEADERS[i] for i in shown]
    rows = [[r[i] for i in shown] for r in rows]
    widths = [max(len(h), *(len(r[n]) for r in rows)) for n, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.rjust(w) if h in RIGHT else c.ljust(w)
                         for c, w, h in zip(cells, widths, headers)).rstrip()

    return [line(headers)] + [line(r) for r in rows]


def turn_cells(turn: TurnReview) -> List[List[str]]:
    rows = []
    for k, play in enumerate(turn.plays):
        first = k == 0
        value = "" if turn.value is None else f"{round(turn.value, 2) + 0.0:.2f}"   # no -0.00
        rows.append([str(turn.number + 1) if first else "", str(turn.hand_size) if first else "",
                     turn.method.value if first else "", value if first else "",
                     str(play.player + 1), str(play.card), cards_text(play.best_cards),
                     "" if play.row is None else str(play.row), rows_text(play),
                     loss_text(play), interval_cell(play), mark_text(play)])
    return rows


def cards_text(cards: Sequence[int]) -> str:
    return " ".join(map(str, cards))


def rows_text(play: PlayReview) -> str:
    if play.row is None:
        return ""
    if play.row_loss is None:
        return "not reviewed"
    return " ".join(map(str, play.best_rows))


def loss_text(play: PlayReview) -> str:
    return "?" if play.loss is None else f"{play.loss:.2f}"


def interval_cell(play: PlayReview) -> str:
    """An estimated card's interval (none when it was the best estimate: its loss is 0)."""
    if play.loss_interval is None or play.loss_interval == (0.0, 0.0):
        return ""
    return interval_text(play.loss_interval)


def interval_text(interval: Tuple[Optional[float], Optional[float]]) -> str:
    low, high = ("?" if x is None else f"{x:.2f}" for x in interval)
    return f"[{low}, {high}]"


def estimator(review: Review) -> str:
    if review.reviewer == SEARCH_PLAYER:
        return "the search player"
    return f"the network search ({review.reviewer.split(':')[0]})"


def mark_text(play: PlayReview) -> str:
    if play.mark is None:
        return "? (the search never tried the card)"
    return play.mark.value


def turn_notes(review: Review) -> List[str]:
    """Why each estimated turn was not solved, and the search's budget."""
    estimated = [t for t in review.turns if t.method is Method.ESTIMATED]
    if not estimated:
        return ["every turn exact"]
    if review.reviewer == SEARCH_PLAYER:
        budget = (f"the search player, {review.iterations:,} iterations for each player's"
                  f" card, seed {review.seed}")
    else:
        worlds = max(t.worlds or 0 for t in estimated)
        budget = (f"the network search {review.reviewer}, {worlds} worlds for each player's"
                  f" card (the rows: the search player's playouts), seed {review.seed}")
    if all(t.why is Why.GAME for t in estimated):
        sight = "" if exact_game(review.start) else "each player's view: the other hands hidden"
        return textwrap.wrap(f"every turn estimated by {budget}"
                             + (f", from {sight}" if sight else ""), WIDTH)
    exact = [t.number + 1 for t in review.turns if t.method is Method.EXACT]
    notes = [f"exact turns: {numbers_text(exact)}" if exact else "no turn exact",
             f"estimated turns: by {budget}:"]
    limit = f"{review.time_limit:g} s"
    for t in estimated:
        if t.why is Why.TOO_LONG:
            why = f"an exact solve of {t.hand_size} cards is not expected within {limit}"
        else:
            low, high = t.bounds if t.bounds is not None else (None, None)
            given = limit
            if t.exact_limit is not None and t.exact_limit < review.time_limit:
                given = f"{t.exact_limit:.3g} s (the rest of the {limit} kept for the estimate)"
            why = f"the exact solve was stopped after {given}"
            if low is not None and low == high:
                why = (f"the value ({low:.4g}) was proven, but not the played cards' values,"
                       f" within {given}")
            elif proven_bounds(low, high):
                why += f"; {proven_bounds(low, high)}"
        notes.append(f"  turn {t.number + 1}: {why}")
    return notes


def numbers_text(numbers: Sequence[int]) -> str:
    """`1-3, 5`: turn numbers, runs joined."""
    runs: List[List[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def format_total(total: PlayerTotal) -> str:
    parts = []
    if total.exact_turns:
        parts.append(f"{total.exact_loss:.2f} in {total.exact_turns} exact"
                     f" turn{'s' if total.exact_turns != 1 else ''}")
    if total.estimated_turns:
        parts.append(f"{total.estimated_loss:.2f} {interval_text(total.estimated_interval)}"
                     f" in {total.estimated_turns} estimated"
                     f" turn{'s' if total.estimated_turns != 1 else ''}")
    marks = ", ".join(f"{n} {mark_name(mark, n)}" for mark, n in total.marks.items() if n)
    if total.loss is None:          # not one measure: the value's loss, one's own bullheads
        return (f"{player_name(total.player)} gave away {parts[0]} (of the value: the other's"
                f" bullheads minus one's own) and {parts[1]} (of their own bullheads):"
                f" {marks}")
    return (f"{player_name(total.player)} gave away {total.loss:.2f} bullheads"
            f" ({'; '.join(parts)}): {marks}")


def turns_text(n: int) -> str:
    return f"{n} turn{'s' if n != 1 else ''}"


def mark_name(mark: Mark, n: int) -> str:
    if n == 1 or mark in (Mark.BEST, Mark.FORCED):
        return mark.value
    return "inaccuracies" if mark is Mark.INACCURACY else mark.value + "s"
