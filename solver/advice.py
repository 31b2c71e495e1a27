"""`nimmt best`: "what should I play here?", for each player, as JSON-ready data.

`advise(position, ...)` dispatches on the kind of position (`uses_exact_solver`): 2 players
with both hands visible go to the exact solver (`exact_advice`); any other position (a hidden
hand, 3+ players) goes to `hidden_advice`, the search player's estimates for the viewer's
cards (`solver.mcts.analyse`). Every advice is a dict (`--json`); `text.advice` words it.
"""
import math
from typing import Dict, List, Optional

from .core.position import Position
from .core.rules import row_bullheads
from .errors import SearchLimitError
from .exact import Engine, Solution
from .limits import Limit
from .mcts import SearchOptions, analyse, root_strategies
from .mcts.player import viewer_of

SAME_VALUE = 1e-9
DEFAULT_SEARCH_ITERATIONS = 100_000     # about 1 s at 4 players on one core
PROVISIONAL_FROM = 9                    # cards a hand: the exact solve takes a minute or more
PROVISIONAL_ITERATIONS = 200_000        # about 1 s: the search player's regret matching
# roughly how long the exact solver takes on one core, by cards a hand (docs/benchmarks.md)
EXACT_DURATION = {9: "about a minute", 10: "2 to 25 minutes"}


def uses_exact_solver(position: Position) -> bool:
    return position.players == 2 and position.complete_information


def provisional_strategies(position: Position):
    """While a long exact solve runs: both players' strategies by the search player (regret
    matching's average strategy, reproducible: seed 0), {card: probability}. Not proven."""
    return root_strategies(position, Limit(iterations=PROVISIONAL_ITERATIONS), seed=0)


def advise(position: Position, limit: Optional[Limit] = None, *, tt_mb: Optional[float] = None,
           threads: int = 1, seed: int = 0, jobs: int = 1, progress=None) -> dict:
    """The exact advice (`limit` of nodes and seconds, `tt_mb`, `threads`) or the search's
    (`limit` of iterations, default 100,000, or seconds; `seed`, `jobs`); `progress` is
    the exact solver's or `analyse`'s callback accordingly."""
    if uses_exact_solver(position):
        return exact_advice(position, limit, tt_mb, threads, progress)
    return hidden_advice(position, limit, seed, jobs, progress)


# search advice (hidden hands, 3+ players) ---------------------------------------------------
def hidden_advice(position: Position, limit: Optional[Limit] = None, seed: int = 0,
                  jobs: int = 1, progress=None) -> dict:
    """The viewer's cards (the `viewer` key, else the first visible hand) with the bullheads the
    search expects each to cost from now to the end of the round and a 95% interval, lowest
    first (cards not tried last); `play` is the card the search tried most (the search
    player's choice); `opponents` the search's model of the other seats at the root
    ("careful" or "bandit"). `progress(fraction, iterations, seconds)` while it searches."""
    if limit is None or (limit.iterations is None and limit.seconds is None):
        limit = Limit(iterations=DEFAULT_SEARCH_ITERATIONS)
    options = SearchOptions(jobs=jobs)
    viewer = viewer_of(position)
    advice = {"position": position.to_text(), "method": "search", "viewer": viewer + 1,
              "play": None, "cards": [], "iterations": 0, "seconds": 0.0,
              "seed": seed, "jobs": jobs, "opponents": None}
    if not position.hands[viewer]:
        return advice                                   # the round is over
    analysis = analyse(position, limit, seed, options, viewer=viewer, progress=progress)
    cards = sorted(analysis.cards, key=lambda e: (not e.visits, e.mean if e.visits else 0.0,
                                                  e.card))
    advice.update(play=analysis.best, iterations=analysis.iterations,
                  seconds=analysis.seconds, cards=[card_estimate(e) for e in cards],
                  opponents=analysis.stats.get("opponents"))
    return advice


def finite(x: float) -> Optional[float]:
    """A float for JSON: None when not a finite number (a card too rarely tried)."""
    return x if math.isfinite(x) else None


def card_estimate(e) -> dict:
    return {"card": e.card, "expected_bullheads": finite(e.mean),
            "ci95": [finite(x) for x in e.ci95], "visits": e.visits}


# exact advice -----------------------------------------------------------------------------
def exact_advice(position: Position, limit: Optional[Limit] = None,
                 tt_mb: Optional[float] = None, threads: int = 1, progress=None) -> dict:
    with Engine(position, tt_mb, threads=threads) as engine:
        solution = engine.solve(position, limit, progress)
        losses = solution.card_losses()
        rows = engine.run(lambda: all_row_advice(engine, solution), progress=progress,
                          same_limits=True)
        players = [player_advice(solution, k, losses[k], None if rows is None else rows[k])
                   for k in range(2)]
    return {"position": position.to_text(), "value": solution.value, "players": players,
            "stats": solution.stats.to_dict()}


def player_advice(solution: Solution, k: int, losses: Dict[int, float],
                  row_choices: Optional[List[dict]]) -> dict:
    strategy = solution.strategies[k]
    return {
        "player": k + 1,
        "play": [{"card": c, "probability": p} for c, p in sorted(strategy.items())],
        "cards": [{"card": c, "value": solution.card_values[k][c], "loss": losses[c],
                   "in_equilibrium": c in strategy} for c in sorted(losses)],
        "row_choices": row_choices,
    }


def all_row_advice(engine: Engine, solution: Solution) -> Optional[List[List[dict]]]:
    """Each player's `row_advice`, searched under the solve's limits: None when one
    stopped it (the solution stays proven; a row is never named from a stopped search)."""
    try:
        return [[choice for card in solution.hands[k]
                 for choice in [row_advice(engine, solution, k, card)] if choice]
                for k in range(2)]
    except SearchLimitError:
        return None


def row_advice(engine: Engine, solution: Solution, k: int, card: int) -> Optional[dict]:
    """For a card lower than every row end: the row to take if the opponent plays their most
    likely card above it (below it, the opponent's card starts a row and ours follows)."""
    position = solution.position
    if card > min(row[-1] for row in position.rows):
        return None
    opponent = solution.strategies[1 - k]
    higher = [c for c in opponent if c > card]
    if not higher:
        return None
    other = max(higher, key=lambda c: (opponent[c], -c))
    choice = engine.row_choice(position, (card, other) if k == 0 else (other, card))
    assert choice is not None and choice.player == k
    return {"card": card, "if_opponent_plays": other, "row": choice.row,
            "row_bullheads": row_bullheads(position.rows[choice.row]),
            "cheapest_row": choice.cheapest_row,
            "cheapest_bullheads": row_bullheads(position.rows[choice.cheapest_row]),
            "cheapest_row_costs_more": choice.cheapest_row_costs_more}
