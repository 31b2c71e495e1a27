"""`nimmt best`: "what should I play here?" in plain words, for each player.

`advise(position, ...)` dispatches on the kind of position (`uses_exact_solver`): 2 players
with both hands visible go to the exact solver (`exact_advice`); any other position (a hidden
hand, 3+ players) goes to `hidden_advice`, the search player's estimates for the viewer's
cards (`solver.mcts.analyse`). Every advice is a JSON-ready dict (`--json`); `format_advice`
words it.
"""
import math
from dataclasses import dataclass
from typing import Dict, List, Optional

from .exact import Engine, Solution
from .position import Position
from .report import card_losses, clean, player_name
from .rules import cheapest_row, row_bullheads

SAME_VALUE = 1e-9
DEFAULT_SEARCH_ITERATIONS = 100_000     # about 1 s at 4 players on one core


@dataclass
class SearchOptions:
    """The budget of `hidden_advice`: `iterations` (deterministic for `seed` and `jobs`) or
    `seconds` (wall clock, not reproducible); `jobs` trees in threads."""
    iterations: Optional[int] = None
    seconds: Optional[float] = None
    seed: int = 0
    jobs: int = 1

    def __post_init__(self):
        from .mcts import Budget
        if self.iterations is None and self.seconds is None:
            self.iterations = DEFAULT_SEARCH_ITERATIONS
        Budget(self.iterations, self.seconds)        # refuses both, or a budget out of range


def uses_exact_solver(position: Position) -> bool:
    return position.players == 2 and position.complete_information


def advise(position: Position, max_nodes: int = 0, time_limit: float = 0.0,
           tt_mb: Optional[float] = None, progress=None,
           search: Optional[SearchOptions] = None, threads: int = 1) -> dict:
    """The exact advice (limits `max_nodes`, `time_limit`, `tt_mb`; `threads`) or the
    search's (`search`); `progress` is the exact solver's or `analyse`'s callback
    accordingly."""
    if uses_exact_solver(position):
        return exact_advice(position, max_nodes, time_limit, tt_mb, progress, threads)
    return hidden_advice(position, search, progress)


# search advice (hidden hands, 3+ players) ---------------------------------------------------
def hidden_advice(position: Position, search: Optional[SearchOptions] = None,
                  progress=None) -> dict:
    """The viewer's cards (the `viewer` key, else the first visible hand) with the bullheads the
    search expects each to cost from now to the end of the round and a 95% interval, lowest
    first (cards not tried last); `play` is the card the search tried most (the search
    player's choice); `opponents` the search's model of the other seats at the root
    ("careful" or "bandit"). `progress(fraction, iterations, seconds)` while it searches."""
    from .mcts import analyse, viewer_of

    search = search or SearchOptions()
    viewer = viewer_of(position)
    advice = {"position": position.to_text(), "method": "search", "viewer": viewer + 1,
              "play": None, "cards": [], "iterations": 0, "seconds": 0.0,
              "seed": search.seed, "jobs": search.jobs, "opponents": None}
    if not position.hands[viewer]:
        return advice                                   # the round is over
    analysis = analyse(position, search.iterations, search.seconds, search.seed, search.jobs,
                       viewer=viewer, progress=progress)
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
def exact_advice(position: Position, max_nodes=0, time_limit=0.0, tt_mb=None,
                 progress=None, threads: int = 1) -> dict:
    engine = Engine(position, tt_mb, threads=threads)
    solution = engine.solve(position, max_nodes, time_limit, progress)
    losses = card_losses(solution)
    players = [player_advice(engine, solution, k, losses[k]) for k in range(2)]
    return {"position": position.to_text(), "value": solution.value, "players": players,
            "stats": solution.stats}


def player_advice(engine: Engine, solution: Solution, k: int, losses: Dict[int, float]) -> dict:
    strategy = solution.strategies[k]
    return {
        "player": k + 1,
        "play": [{"card": c, "probability": p} for c, p in sorted(strategy.items())],
        "cards": [{"card": c, "value": solution.card_values[k][c], "loss": losses[c],
                   "in_equilibrium": c in strategy} for c in sorted(losses)],
        "row_choices": [choice for card in solution.hands[k]
                        for choice in [row_advice(engine, solution, k, card)] if choice],
    }


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
    cards = (card, other) if k == 0 else (other, card)
    _, row, value = engine.best_row_choice(position, cards)
    cheapest = cheapest_row(position.rows)
    cheapest_value = engine.turn_value(position, cards, cheapest)
    extra_cost = clean((value - cheapest_value) * (1 if k == 0 else -1))
    if extra_cost <= SAME_VALUE:
        row, extra_cost = cheapest, 0.0
    return {"card": card, "if_opponent_plays": other, "row": row,
            "row_bullheads": row_bullheads(position.rows[row]), "cheapest_row": cheapest,
            "cheapest_bullheads": row_bullheads(position.rows[cheapest]),
            "cheapest_row_costs_more": extra_cost}


# wording ----------------------------------------------------------------------------------
def percent(p: float) -> str:
    if p >= 1.0:
        return "always"
    text = f"{p:.0%}"
    return {"0%": "<1%", "100%": ">99%"}.get(text, text)


def bullheads_text(n: float) -> str:
    return f"{n:.2f} bullheads"


def count_text(n: int) -> str:
    return f"{n} bullhead{'' if n == 1 else 's'}"


def format_advice(advice: dict) -> str:
    if advice.get("method") == "search":
        return format_search_advice(advice)
    lines = [f"value {advice['value']:.4g} for player 1 (player 2's bullheads minus player 1's,"
             " from now to the end of the round)"]
    for player in advice["players"]:
        lines += [""] + format_player(player)
    return "\n".join(lines)


def format_player(player: dict) -> List[str]:
    k = player["player"] - 1
    name = player_name(k).capitalize()
    opponent = player_name(1 - k)
    plays = " or ".join(f"{p['card']} ({percent(p['probability'])})" for p in player["play"])
    if not plays:
        return [f"{name}: nothing to play (the round is over)"]
    lines = [f"{name}: play {plays}"]
    for card in player["cards"]:
        if card["in_equilibrium"]:
            continue
        if card["loss"] is None:
            lines.append(f"  {card['card']}: its cost was not computed within the limit")
        elif card["loss"] <= SAME_VALUE:
            lines.append(f"  {card['card']} is just as good against {opponent}'s strategy")
        else:
            lines.append(f"  {card['card']} loses {bullheads_text(card['loss'])} on average")
    lines += [format_row_choice(choice, opponent) for choice in player["row_choices"]]
    return lines


def format_row_choice(choice: dict, opponent: str) -> str:
    text = (f"  {choice['card']} is too low: if {opponent} plays {choice['if_opponent_plays']},"
            f" take row {choice['row']} ({count_text(choice['row_bullheads'])})")
    if choice["row"] == choice["cheapest_row"]:
        return text
    cost = bullheads_text(choice["cheapest_row_costs_more"])
    if choice["row_bullheads"] > choice["cheapest_bullheads"]:
        return (text + f", not the cheapest row {choice['cheapest_row']}"
                f" ({count_text(choice['cheapest_bullheads'])}), which costs {cost} more in the end")
    return text + f"; row {choice['cheapest_row']}, as cheap now, costs {cost} more in the end"


def format_search_advice(advice: dict) -> str:
    name = player_name(advice["viewer"] - 1).capitalize()
    if advice["play"] is None:
        return f"{name}: nothing to play (the round is over)"
    jobs = advice["jobs"]
    lines = [f"{name}: play {advice['play']} (the card the search tried most)",
             f"search: {advice['iterations']:,} iterations in {advice['seconds']:.2f} s,"
             f" seed {advice['seed']}, {jobs} job{'s' if jobs > 1 else ''}",
             "bullheads expected from now to the end of the round, lowest first:",
             "card  bullheads  95% interval          tried"]
    lines += [format_card_estimate(card) for card in advice["cards"]]
    return "\n".join(lines)


def format_card_estimate(card: dict) -> str:
    mean, (lo, hi), visits = card["expected_bullheads"], card["ci95"], card["visits"]
    if mean is None:
        return f"{card['card']:>4}  not tried: the budget is too small"
    interval = f"[{lo:.2f}, {hi:.2f}]" if lo is not None else "-"
    return f"{card['card']:>4}  {mean:>9.2f}  {interval:<16}  {visits:>7,}"
