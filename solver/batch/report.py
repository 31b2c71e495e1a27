"""A batch's results in figures (`nimmt batch report`), as data: `Report`.

Built from the lines of a results file (`results.ResultsFile.read`): the distribution of the
values of the solved positions (mean, quantiles, a histogram), how often the first turn's
equilibrium is mixed and its support sizes, how often a too-low card's best row is not the
cheapest (from the `row_choices` of `batch solve --row-choices`; files without them stay
readable), and the solve seconds by cards a hand. Lines stopped by a limit and errors are
counted, never used as values. What each figure counts: docs/report.md.
"""
import math
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .. import errors
from ..core.position import Position
from ..core.rules import deck_bullheads
from ..stats import mean_ci95, share_ci95
from .results import STATUSES, ResultsFile

QUANTILES = (("min", 0.0), ("p10", 0.1), ("p25", 0.25), ("median", 0.5), ("p75", 0.75),
             ("p90", 0.9), ("max", 1.0))
MAX_BINS = 24
BIN_WIDTHS = (0.25, 0.5, 1, 2, 5, 10, 20, 50)     # the histogram's: the narrowest that fits


@dataclass(frozen=True)
class Share:
    """`count` of `total`, with its 95% interval (Wilson's)."""
    count: int
    total: int

    @property
    def ci95(self) -> Tuple[float, float, float]:
        return share_ci95(self.count, self.total)

    def to_dict(self) -> Dict[str, Any]:
        share, low, high = self.ci95
        return {"count": self.count, "of": self.total, "share": share, "ci95": [low, high]}


@dataclass(frozen=True)
class Bin:
    """Values in [low, high)."""
    low: float
    high: float
    count: int


@dataclass(frozen=True)
class Values:
    """The values of the solved positions."""
    count: int
    mean: float
    ci95: Tuple[float, float]
    quantiles: Tuple[Tuple[str, float], ...]
    bins: Tuple[Bin, ...]

    def to_dict(self) -> Dict[str, Any]:
        return {"count": self.count, "mean": self.mean, "ci95": list(self.ci95),
                "quantiles": dict(self.quantiles),
                "histogram": [{"from": b.low, "to": b.high, "count": b.count}
                              for b in self.bins]}


@dataclass(frozen=True)
class RowChoices:
    """The first turn's row choices, over the solved positions that recorded them."""
    positions: int               # solved positions with row choices recorded
    with_choice: Share           # ... whose first turn has a too-low card with probability > 0
    not_cheapest: Share          # ... of those, where a best row is not the cheapest
    probability: float           # mean over `positions`: the first turn's probability of a
                                 # row choice whose best row is not the cheapest
    plays: int                   # joint plays with a row choice, over all positions
    plays_not_cheapest: int      # ... whose best row is not the cheapest
    cost_mean: Optional[float]   # what the cheapest row costs more there: mean, max
    cost_max: Optional[float]

    def to_dict(self) -> Dict[str, Any]:
        return {"positions": self.positions, "with_choice": self.with_choice.to_dict(),
                "not_cheapest": self.not_cheapest.to_dict(), "probability": self.probability,
                "joint_plays": self.plays, "joint_plays_not_cheapest": self.plays_not_cheapest,
                "cheapest_costs_more": {"mean": self.cost_mean, "max": self.cost_max}}


@dataclass(frozen=True)
class HandTimes:
    """The solve seconds of the positions of one hand size."""
    cards: int
    seconds: Tuple[float, ...]   # of the solved positions, ascending
    limit: int                   # positions stopped by a limit

    def quantile(self, q: float) -> Optional[float]:
        return quantile(self.seconds, q) if self.seconds else None

    def to_dict(self) -> Dict[str, Any]:
        return {"cards": self.cards, "solved": len(self.seconds), "limit": self.limit,
                "median": self.quantile(0.5), "p90": self.quantile(0.9),
                "max": self.quantile(1.0)}


@dataclass(frozen=True)
class Report:
    results: int                             # whole result lines read
    torn_bytes: int                          # a torn last line, skipped
    counts: Dict[str, int]                   # by status
    values: Optional[Values]                 # None: nothing solved
    mixed: Share                             # solved positions with a mixed first turn
    supports: Tuple[Tuple[Tuple[int, int], int], ...]   # (player 1's, player 2's) sizes: count
    row_choices: Optional[RowChoices]        # None: no solved line recorded them
    unrecorded: int                          # solved lines without row choices
    hands: Tuple[HandTimes, ...]             # by cards a hand, ascending

    def to_dict(self) -> Dict[str, Any]:
        return {"results": self.results, "torn_bytes": self.torn_bytes, **self.counts,
                "values": None if self.values is None else self.values.to_dict(),
                "mixed": self.mixed.to_dict(),
                "supports": [{"sizes": list(sizes), "count": count}
                             for sizes, count in self.supports],
                "row_choices": (None if self.row_choices is None
                                else self.row_choices.to_dict()),
                "row_choices_not_recorded": self.unrecorded,
                "seconds_by_cards": [hand.to_dict() for hand in self.hands]}


def read_report(path: str) -> Report:
    """The report of the results file at `path` (a `NimmtError` for a missing file, one that
    is not a batch's results, or one without a result)."""
    results = ResultsFile(path)
    records, torn = results.read()
    if not records:
        raise errors.NimmtError(f"{results.name} holds no result"
                                + (" (only a torn line)" if torn else ""))
    return build_report(records, torn, results.name)


def build_report(records: Sequence[Dict[str, Any]], torn_bytes: int = 0,
                 name: str = "the results") -> Report:
    counts = {status: 0 for status in STATUSES}
    values: List[float] = []
    supports: Dict[Tuple[int, int], int] = {}
    choices: List[List[Dict[str, Any]]] = []
    seconds: Dict[int, List[float]] = {}
    limits: Dict[int, int] = {}
    for record in records:
        where = f"{name}, the result of input line {record['line']}"
        status = record.get("status")
        if status not in STATUSES:
            raise errors.NimmtError(f"{where}: unknown status {errors.quote(status)}")
        counts[status] += 1
        if status == "error":
            continue
        position = read_position(record["position"], where)
        cards = position.hand_size
        if status == "limit":
            limits[cards] = limits.get(cards, 0) + 1
            continue
        values.append(value_of(record.get("value"), position.deck, where))
        sizes = support_sizes(record.get("strategies"), position, where)
        supports[sizes] = supports.get(sizes, 0) + 1
        spent = number(record.get("seconds"), f"{where}: seconds")
        if spent < 0:
            raise errors.NimmtError(f"{where}: seconds is negative: {errors.quote(spent)}")
        seconds.setdefault(cards, []).append(spent)
        if record.get("row_choices") is not None:
            choices.append(row_choices(record["row_choices"], where))
    hands = tuple(HandTimes(cards, tuple(sorted(seconds.get(cards, []))), limits.get(cards, 0))
                  for cards in sorted(set(seconds) | set(limits)))
    return Report(
        results=len(records), torn_bytes=torn_bytes, counts=counts,
        values=summarize(values) if values else None,
        mixed=Share(sum(n for sizes, n in supports.items() if max(sizes) > 1), len(values)),
        supports=tuple(sorted(supports.items())),
        row_choices=summarize_choices(choices) if choices else None,
        unrecorded=len(values) - len(choices), hands=hands)


# the figures --------------------------------------------------------------------------------
def quantile(ascending: Sequence[float], q: float) -> float:
    """The q-quantile, linear between the closest ranks (numpy's default, R's type 7)."""
    position = q * (len(ascending) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ascending) - 1)
    return ascending[low] + (ascending[high] - ascending[low]) * (position - low)


def summarize(values: Sequence[float]) -> Values:
    ascending = sorted(values)
    mean, low, high = mean_ci95(ascending)
    return Values(len(ascending), mean, (low, high),
                  tuple((label, quantile(ascending, q)) for label, q in QUANTILES),
                  histogram(ascending))


def histogram(ascending: Sequence[float]) -> Tuple[Bin, ...]:
    """Bins [k w, (k + 1) w) from the lowest value's to the highest's, of the narrowest
    width of `BIN_WIDTHS` that needs at most `MAX_BINS` of them."""
    for width in BIN_WIDTHS:
        first = math.floor(ascending[0] / width)
        last = math.floor(ascending[-1] / width)
        if last - first < MAX_BINS:
            break
    counts = [0] * (last - first + 1)
    for value in ascending:
        counts[math.floor(value / width) - first] += 1
    return tuple(Bin((first + k) * width, (first + k + 1) * width, count)
                 for k, count in enumerate(counts))


def summarize_choices(positions: Sequence[List[Dict[str, Any]]]) -> RowChoices:
    plays = [play for choices in positions for play in choices]
    costs = [play["cheapest_row_costs_more"] for play in plays
             if play["row"] != play["cheapest_row"]]
    with_choice = [choices for choices in positions if choices]
    not_cheapest = [choices for choices in with_choice
                    if any(play["row"] != play["cheapest_row"] for play in choices)]
    probability = sum(play["probability"] for play in plays
                      if play["row"] != play["cheapest_row"]) / len(positions)
    return RowChoices(len(positions), Share(len(with_choice), len(positions)),
                      Share(len(not_cheapest), len(with_choice)), probability,
                      len(plays), len(costs), sum(costs) / len(costs) if costs else None,
                      max(costs) if costs else None)


# reading a line's fields ------------------------------------------------------------------
def number(value: Any, what: str) -> float:
    try:
        finite = (not isinstance(value, bool) and isinstance(value, (int, float))
                  and math.isfinite(value))
    except OverflowError:            # an integer beyond a float's range
        finite = False
    if not finite:
        raise errors.NimmtError(f"{what} is not a number: {errors.quote(value)}")
    return float(value)


def value_of(value: Any, deck: int, where: str) -> float:
    """A solved line's value: a number no larger than the bullheads of the whole deck (a
    round's value is a difference of bullheads taken; a value beyond them is no value)."""
    value = number(value, f"{where}: value")
    most = deck_bullheads(deck)
    if abs(value) > most:
        raise errors.NimmtError(f"{where}: value {errors.quote(value)} is more bullheads than"
                                f" the deck holds ({most})")
    return value


def read_position(text: str, where: str) -> Position:
    try:
        return Position.from_text(text)
    except errors.NimmtError as exc:
        raise errors.NimmtError(f"{where}: its position is not one: {exc}") from None


def support_sizes(strategies: Any, position: Position, where: str) -> Tuple[int, int]:
    """Each player's support size, once its strategy is checked: cards of that player's hand,
    each once, with probabilities in (0, 1] that add up to 1."""
    if position.hand_size == 0 and strategies == [[], []]:     # the round is over
        return 0, 0
    if not (isinstance(strategies, list) and len(strategies) == 2
            and all(isinstance(s, list) and s for s in strategies)):
        raise errors.NimmtError(f"{where}: strategies are not two lists of cards")
    for k, strategy in enumerate(strategies):
        what = f"{where}: player {k + 1}'s strategy"
        if not all(isinstance(e, dict) for e in strategy):
            raise errors.NimmtError(f"{what} is not a list of objects")
        cards = [e.get("card") for e in strategy]
        hand = position.hands[k] or ()
        if len(set(map(str, cards))) != len(cards) \
                or any(not errors.is_integer(c) or c not in hand for c in cards):
            raise errors.NimmtError(f"{what} is not of cards of their hand, each once:"
                                    f" {errors.quote(cards)}")
        shares = [number(e.get("probability"), f"{what}: a probability") for e in strategy]
        if not all(0 < p <= 1 for p in shares) or abs(sum(shares) - 1) > 1e-6:
            raise errors.NimmtError(f"{what}: the probabilities are not in (0, 1] adding up"
                                    f" to 1: {errors.quote(shares)}")
    return len(strategies[0]), len(strategies[1])


def row_choices(choices: Any, where: str) -> List[Dict[str, Any]]:
    keys = ("probability", "row", "cheapest_row", "cheapest_row_costs_more")
    if not (isinstance(choices, list) and all(isinstance(c, dict) for c in choices)):
        raise errors.NimmtError(f"{where}: row_choices is not a list of objects")
    return [{key: number(choice.get(key), f"{where}: a row choice's {key}") for key in keys}
            for choice in choices]
