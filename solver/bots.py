"""Simple bots, and the registry the command line builds them from (`--bots random,greedy`)."""
import math
import random
from typing import Callable, Dict, List, Sequence

from .errors import ConfigError
from .game import Player, PlayerView
from .rules import ROW_LIMIT, ROWS, fewest_bullheads_chooser, play_turn, row_bullheads, target_row

Rows = Sequence[Sequence[int]]


class RandomBot(Player):
    """Plays a card of its hand uniformly at random; takes the cheapest row (SPEC default)."""
    name = "random"

    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def choose_card(self, view: PlayerView) -> int:
        return self.rng.choice(view.hand)


def binomial_pmf(trials: int, p: float, k: int) -> float:
    if not 0 <= k <= trials:
        return 0.0
    return math.comb(trials, k) * p ** k * (1 - p) ** (trials - k)


def card_risk(rows: Rows, card: int, unseen: Sequence[int], opponents: int) -> float:
    """Expected bullheads `card` takes this turn, if each opponent plays an unseen card at random.

    Every opponent card between the target row's end and `card` lands on that row first, so
    `card` is the 6th exactly when the row's free places are filled by such cards.
    """
    r = target_row(rows, card)
    if r is None:                      # too low: we take a row, at best the cheapest
        return min(row_bullheads(row) for row in rows)
    end = rows[r][-1]
    in_gap = sum(1 for c in unseen if end < c < card)
    p = in_gap / len(unseen) if unseen else 0.0
    free = ROW_LIMIT - len(rows[r])
    return binomial_pmf(opponents, p, free) * row_bullheads(rows[r])


def _gap(rows: Rows, card: int) -> int:
    r = target_row(rows, card)
    return card if r is None else card - rows[r][-1]


class GreedyBot(Player):
    """Plays the card with the lowest immediate risk (ties: the snuggest fit on its row).

    A row choice weighs the row's bullheads, what the rest of the turn makes the others take,
    and how safe its next card will be on the rows that result.
    """
    name = "greedy"
    spite = 0.5        # how much a bullhead taken by someone else is worth to us

    def __init__(self, seed=None):
        self.rng = random.Random(seed)   # unused: greedy is deterministic; kept for the registry

    def choose_card(self, view: PlayerView) -> int:
        unseen = view.unseen()
        opponents = view.players - 1
        return min(view.hand, key=lambda c: (round(card_risk(view.rows, c, unseen, opponents), 9),
                                             _gap(view.rows, c)))

    def choose_row(self, view: PlayerView, card: int) -> int:
        return min(range(ROWS), key=lambda r: (self._row_cost(view, card, r), r))

    def _row_cost(self, view: PlayerView, card: int, r: int) -> float:
        rows = [list(row) for row in view.rows]
        taken = row_bullheads(rows[r])
        rows[r] = [card]
        # the other cards of the turn are all higher than `card`: none of them is too low
        others = [c for k, c in enumerate(view.revealed) if k != view.seat]
        rows_after, others_taken = play_turn(rows, others, fewest_bullheads_chooser)
        unseen = view.unseen()
        hand = [c for c in view.hand if c != card]
        next_risk = min((card_risk(rows_after, c, unseen, view.players - 1) for c in hand),
                        default=0.0)
        return taken + next_risk - self.spite * sum(row_bullheads(t) for t in others_taken)


BOTS: Dict[str, Callable[..., Player]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}


def make_bot(name: str, seed=None) -> Player:
    if name not in BOTS:
        raise ConfigError(f"unknown bot {name!r} (available: {', '.join(sorted(BOTS))})")
    return BOTS[name](seed)


def parse_bot_names(text: str) -> List[str]:
    """'random,greedy' -> ['random', 'greedy'], every name checked."""
    names = [n.strip() for n in text.split(",")]
    for name in names:
        make_bot(name)
    return names
