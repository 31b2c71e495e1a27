"""`nimmt best`: "what should I play here?", for each player, as JSON-ready data.

`advise(position, ...)` dispatches on the kind of position (`uses_exact_solver`): 2 players
with both hands visible go to the exact solver (`exact_advice`); any other position (a hidden
hand, 3+ players) goes to a player for the viewer's cards: by default the `belief` bot (the
network search, `network_advice`, a budget of seconds its time), or the search player
(`hidden_advice`, `solver.mcts.analyse`) when asked for, given a budget of iterations, or
when another hand than the viewer's is visible (the network search sees only its own).
Ctrl-C ends either search with the answer so far. Every advice is a dict (`--json`);
`text.advice` words it.
"""
import math
import time
from typing import Callable, Dict, List, Optional

from .core.player import PlayerView
from .core.position import Position
from .core.rules import GameConfig, row_bullheads
from .errors import ConfigError, SearchLimitError, quote
from .exact import Engine, Solution
from .limits import Limit
from .mcts import SearchOptions, analyse, root_strategies
from .mcts.player import checked_pool
from .stopping import run_stoppable

SAME_VALUE = 1e-9
DEFAULT_PLAYER = "belief"               # of a hidden hand: measured in docs/search-player.md
NETWORK_PLAYERS = ("belief", "nsearch")  # bots whose cards network_advice can score
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
           threads: int = 1, seed: int = 0, jobs: int = 1, progress=None,
           player: Optional[str] = None, view: Optional[PlayerView] = None,
           progress_file: Optional[str] = None,
           on_loaded: Optional[Callable[[int, int], None]] = None) -> dict:
    """The exact advice (`limit` of nodes and seconds, `tt_mb`, `threads`, `progress_file`:
    the search's work kept there, see solver/exact/progress.py, `on_loaded` told how many
    entries the table kept of it and how many it holds, when it gave some), or for a hidden
    hand `player`'s: a `belief` or `nsearch` spec (`seed`; `limit`'s seconds, if any, its time
    budget), or "mcts", the search player (`limit` of iterations, default 100,000, or
    seconds; `seed`, `jobs`). Without `player`: "mcts" when `limit` sets iterations or
    another hand than the viewer's is visible, else `DEFAULT_PLAYER`. `progress` is the exact
    solver's or the search's callback; Ctrl-C stops a search of a hidden hand with the
    answer so far (`interrupted`). `view`, the
    viewer's view of the round so far (a game record's: `core.record.record_view`), lets the
    network search weigh the hidden hands by the earlier turns; the other methods need only
    the position."""
    if uses_exact_solver(position):
        return exact_advice(position, limit, tt_mb, threads, progress, progress_file, on_loaded)
    if player is None:
        iterations = limit is not None and limit.iterations is not None
        player = "mcts" if iterations or others_visible(position) else DEFAULT_PLAYER
    if player == "mcts":
        return hidden_advice(position, limit, seed, jobs, progress)
    seconds = None if limit is None else limit.seconds
    return network_advice(position, timed_spec(player, seconds), seed, view, progress)


def timed_spec(spec: str, seconds: Optional[float]) -> str:
    """A network bot's spec with a time budget of `seconds` (None: as it is)."""
    from .play.bots import parse_bot_spec
    if seconds is None:
        return spec
    if "seconds" in parse_bot_spec(spec)[1]:
        raise ConfigError(f"a time budget given twice: {seconds:g} s, and seconds= in bot"
                          f" {quote(spec)}")
    return f"{spec.strip()}:seconds={seconds!r}"


def others_visible(position: Position) -> bool:
    viewer = position.viewer_seat
    return any(h is not None for k, h in enumerate(position.hands) if k != viewer)


# the network search's advice ----------------------------------------------------------------
def position_view(position: Position, seat: int) -> PlayerView:
    """Seat `seat`'s view of a position given without its history: its rows stand as the
    round's start, its `played` cards are out of play, no earlier turn is known (so a
    belief over the hidden hands has nothing to weigh: every deal of the unseen cards is
    as likely)."""
    seat = position.visible_seat(seat)
    rows = tuple(tuple(r) for r in position.rows)
    scores = position.extra.get("scores")
    config = GameConfig(players=position.players, deck=position.deck)
    return PlayerView(config, seat, rows, tuple(sorted(position.hands[seat])), rows, (),
                      tuple(position.penalties),
                      tuple(scores) if scores else (0,) * position.players,
                      config.hand_size - position.hand_size, out_of_play=tuple(position.played))


def network_advice(position: Position, spec: str, seed: int = 0,
                   view: Optional[PlayerView] = None, progress=None) -> dict:
    """The viewer's cards as a network-search bot (`belief`, `nsearch`) scores them: the
    bullheads expected from now to the end of the round (mean over its worlds, with a 95%
    interval of that mean), the policy's probability and the score the bot plays by (the
    least; ties: the lower card), best first. `play` is the bot's card. `view`: the viewer's
    view of the round (its earlier turns, from a record), default `position_view` (none);
    `turns_known` says how many earlier turns it holds. Under a time budget (the spec's
    `seconds`) `progress(fraction, worlds, seconds, "worlds")` while it searches, and Ctrl-C
    ends it with the batches of worlds done (at least one; `interrupted` is then true)."""
    from .learn.search import Reward, analyse_cards, score_order
    from .play.bots import make_bot, parse_bot_spec
    name, _ = parse_bot_spec(spec)
    if name == "mcts":
        raise ConfigError(f"--bot {quote(spec)}: the search player takes its options from"
                          f" best's own (--bot mcts with --iterations, --seconds, --jobs)")
    if name not in NETWORK_PLAYERS:
        raise ConfigError(f"bot {quote(spec)} cannot advise: use belief, nsearch or mcts")
    if others_visible(position):
        raise ConfigError(f"bot {quote(spec)} sees only the viewer's hand: hide the other"
                          " hands (null) or use mcts")
    viewer = position.viewer_seat
    bot = make_bot(spec, seed)
    options = bot.options
    view = view or position_view(position, viewer)
    advice = {"position": position.to_text(), "method": "network", "player": spec,
              "viewer": viewer + 1, "play": None, "cards": [], "worlds": options.worlds,
              "candidates": options.belief, "turns_known": len(view.played), "seconds": 0.0,
              "seed": seed}
    hand = position.hands[viewer]
    if not hand:
        return advice                                   # the round is over
    checked_pool(position)
    start = time.perf_counter()
    if len(hand) == 1:
        cards = []
    else:
        drawn: List[int] = []           # each world's model: as many as the worlds

        def tick() -> None:
            spent = time.perf_counter() - start
            progress(min(1.0, spent / options.seconds), len(drawn), spent, "worlds")

        cards, stopped = run_stoppable(
            lambda stop: analyse_cards(bot.net, view, options, bot.rng, bot.others_net, drawn,
                                       stop),
            tick if progress is not None and options.seconds > 0 else None)
        if stopped:
            advice["interrupted"] = True
        cards.sort(key=lambda e: score_order(e.card, e.score))
        # under a time budget (`seconds`) as many batches as it held
        batches = len(drawn) // options.worlds
        advice.update(worlds=len(drawn), candidates=options.belief * batches)
    margin = [1.96 * e.spread / math.sqrt(e.samples) for e in cards]
    # a seat's own bullheads are never negative, whatever the normal approximation says
    floor = 0.0 if options.reward is Reward.OWN else -math.inf
    # estimates over a few worlds: 6 decimals say all they know, the same on any machine
    advice.update(play=cards[0].card if cards else hand[0],
                  seconds=time.perf_counter() - start,
                  cards=[{"card": e.card, "expected_bullheads": round(e.expected, 6),
                          "ci95": [round(max(e.expected - m, floor), 6),
                                   round(e.expected + m, 6)],
                          "probability": round(e.probability, 6), "score": round(e.score, 6)}
                         for e, m in zip(cards, margin)])
    return advice


# search advice (hidden hands, 3+ players) ---------------------------------------------------
def hidden_advice(position: Position, limit: Optional[Limit] = None, seed: int = 0,
                  jobs: int = 1, progress=None) -> dict:
    """The viewer's cards (the `viewer` key, else the first visible hand) with the bullheads the
    search expects each to cost from now to the end of the round and a 95% interval, lowest
    first (cards not tried last); `play` is the card the search tried most (the search
    player's choice); `opponents` the search's model of the other seats at the root
    ("careful" or "bandit"). `progress(fraction, iterations, seconds)` while it searches.
    Stopped by Ctrl-C, the search ends with the iterations done and `interrupted` is true."""
    if limit is None or (limit.iterations is None and limit.seconds is None):
        limit = Limit(iterations=DEFAULT_SEARCH_ITERATIONS)
    options = SearchOptions(jobs=jobs)
    viewer = position.viewer_seat
    advice = {"position": position.to_text(), "method": "search", "viewer": viewer + 1,
              "play": None, "cards": [], "iterations": 0, "seconds": 0.0,
              "seed": seed, "jobs": jobs, "opponents": None}
    if not position.hands[viewer]:
        return advice                                   # the round is over
    analysis, stopped = run_stoppable(lambda stop: analyse(
        position, limit, seed, options, viewer=viewer, progress=progress, stop=stop))
    cards = sorted(analysis.cards, key=lambda e: (not e.visits, e.mean if e.visits else 0.0,
                                                  e.card))
    advice.update(play=analysis.best, iterations=analysis.iterations,
                  seconds=analysis.seconds, cards=[card_estimate(e) for e in cards],
                  opponents=analysis.stats.get("opponents"))
    if stopped:
        advice["interrupted"] = True
    return advice


def check_revealed(position: Position, revealed: List[int]) -> int:
    """`--revealed`: this turn's cards, one a seat, each in its hand (a visible one) or
    unseen (a hidden one), the lowest lower than every row end; the seat that owns it."""
    from .core.rules import target_row
    if len(revealed) != position.players:
        raise ConfigError(f"--revealed: {len(revealed)} cards for {position.players} players"
                          f" (this turn's cards, one a player, in seat order)")
    outside = [c for c in revealed if not 1 <= c <= position.deck]
    if outside:
        raise ConfigError(f"--revealed: card {outside[0]} is outside 1..{position.deck}")
    if len(set(revealed)) != len(revealed):
        raise ConfigError("--revealed: a card is given twice")
    unseen = set(position.unseen_cards())
    for k, c in enumerate(revealed):
        hand = position.hands[k]
        if hand is not None and c not in hand:          # a hand the position shows
            raise ConfigError(f"--revealed: player {k + 1}'s card {c} is not in their hand"
                              f" {list(hand)}")
        if hand is None and c not in unseen:
            raise ConfigError(f"--revealed: a hidden hand's card must be a card never seen,"
                              f" and player {k + 1}'s {c} is seen (on the rows, in a hand or"
                              f" played)")
    owner = revealed.index(min(revealed))
    if target_row(position.rows, revealed[owner]) is not None:
        raise ConfigError(f"--revealed: no card of {revealed} is lower than every row end:"
                          f" nobody takes a row by choice")
    return owner


def hidden_row_advice(position: Position, revealed: List[int], spec: str = DEFAULT_PLAYER,
                      seed: int = 0, view: Optional[PlayerView] = None) -> dict:
    """The row the viewer should take when this turn's cards, `revealed` (one a seat), show
    its card lower than every row end: `spec`'s bot's choice (any bot: `belief` scores
    each row over sampled worlds, `mcts` plays them out) from the viewer's view (`view`, a
    record's, or `position_view`) with the turn's cards revealed."""
    from dataclasses import replace

    from .core.rules import cheapest_row
    from .play.bots import make_bot
    viewer = position.viewer_seat
    owner = check_revealed(position, revealed)
    card = revealed[viewer]
    if owner != viewer:
        raise ConfigError(f"--revealed: player {viewer + 1}'s {card} is not lower than every"
                          f" row end and every other card of the turn: it takes no row by"
                          f" choice")
    base = view or position_view(position, viewer)
    asked = replace(base, hand=tuple(c for c in base.hand if c != card),
                    revealed=tuple(revealed))
    bot = make_bot(spec, seed)
    row = bot.choose_row(asked, card)
    bulls = [row_bullheads(r) for r in position.rows]
    # a bot that searched the rows says what it expects of each (others choose by a rule)
    estimates = getattr(bot, "last_rows", None)
    return {"position": position.to_text(), "method": "row", "player": spec,
            "viewer": viewer + 1, "card": card, "revealed": list(revealed), "row": row,
            "row_bullheads": bulls, "cheapest_row": cheapest_row(position.rows),
            "row_estimates": estimates, "seed": seed}


def exact_row_advice(position: Position, revealed: List[int], limit: Optional[Limit] = None,
                     tt_mb: Optional[float] = None, threads: int = 1) -> dict:
    """The row the owner of this turn's too-low card takes, both hands known (2 players,
    24 cards): each row's exact entry (the turn's bullheads plus the rest of the round's
    value, player 1's side) and the owner's best, against whatever card the other played."""
    from .core.rules import cheapest_row
    owner = check_revealed(position, revealed)
    cards = (revealed[0], revealed[1])
    with Engine(position, tt_mb, threads=threads) as engine:
        def work():
            values = engine.row_values(position, cards)
            return values, engine.row_choice(position, cards, values)
        values, choice = engine.run(work, limit)
        engine.check_not_stopped()
    return {"position": position.to_text(), "method": "exact_row", "viewer": owner + 1,
            "card": revealed[owner], "revealed": list(revealed), "row": choice.row,
            "row_bullheads": [row_bullheads(r) for r in position.rows],
            "cheapest_row": cheapest_row(position.rows), "row_values": values,
            "cheapest_row_costs_more": choice.cheapest_row_costs_more}


def finite(x: float) -> Optional[float]:
    """A float for JSON: None when not a finite number (a card too rarely tried)."""
    return x if math.isfinite(x) else None


def card_estimate(e) -> dict:
    return {"card": e.card, "expected_bullheads": finite(e.mean),
            "ci95": [finite(x) for x in e.ci95], "visits": e.visits}


# exact advice -----------------------------------------------------------------------------
def exact_advice(position: Position, limit: Optional[Limit] = None,
                 tt_mb: Optional[float] = None, threads: int = 1, progress=None,
                 progress_file: Optional[str] = None,
                 on_loaded: Optional[Callable[[int, int], None]] = None) -> dict:
    with Engine(position, tt_mb, threads=threads, progress_file=progress_file) as engine:
        if engine.loaded and on_loaded is not None:
            on_loaded(engine.loaded, engine.in_file)
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
                 for choice in row_advice(engine, solution, k, card)]
                for k in range(2)]
    except SearchLimitError:
        return None


def row_advice(engine: Engine, solution: Solution, k: int, card: int) -> List[dict]:
    """For a card lower than every row end: the row to take against each card of the
    opponent's strategy above it, likeliest first (below it, the opponent's card starts a row
    and ours follows; the best row can differ from one opponent's card to another)."""
    position = solution.position
    if card > min(row[-1] for row in position.rows):
        return []
    opponent = solution.strategies[1 - k]
    higher = sorted((c for c in opponent if c > card), key=lambda c: (-opponent[c], c))
    out = []
    for other in higher:
        choice = engine.row_choice(position, (card, other) if k == 0 else (other, card))
        assert choice is not None and choice.player == k
        out.append({"card": card, "if_opponent_plays": other,
                    "opponent_probability": opponent[other], "row": choice.row,
                    "row_bullheads": row_bullheads(position.rows[choice.row]),
                    "cheapest_row": choice.cheapest_row,
                    "cheapest_bullheads": row_bullheads(position.rows[choice.cheapest_row]),
                    "cheapest_row_costs_more": choice.cheapest_row_costs_more})
    return out
