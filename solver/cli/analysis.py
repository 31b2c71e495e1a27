"""The answers about a position or a round: `solve`, `best` and `review`."""
from typing import Any, Callable, List

import click

from .. import errors
from ..core.position import Position
from ..core.rules import variant_deck
from ..errors import Interrupted
from ..files import check_writable
from ..limits import (MAX_ITERATIONS, MAX_JOBS, MAX_NODES, MAX_SECONDS, MAX_TT_MB, Limit,
                      max_threads)
from ..reading import load_position, load_position_or_record, load_record
from ..text.progress import ExactProgress, SearchProgress
from ..text.render import known_hand
from .app import SEED, NumberRange, json_by_key, main, round_option


# solve / best -----------------------------------------------------------------------------
def note_loaded(count: int, in_file: int, path: str) -> None:
    """On stderr: a progress file gave the search `count` proven entries of its `in_file`."""
    name = errors.quote(path, errors.SHORT_PATH)
    if count < in_file:
        click.echo(f"nimmt: starting from {count:,} of the {in_file:,} proven entries of {name}:"
                   f" the table (--tt-size) holds no more, and the file will keep only these",
                   err=True)
    else:
        click.echo(f"nimmt: starting from {count:,} proven entries of {name}", err=True)


def solver_options(command):
    """--max-nodes, --time-limit, --tt-size, --threads, --progress-file and --exact-only,
    shared by the exact solver's commands."""
    command = click.option("--threads", type=click.IntRange(1, max_threads()), default=None,
                           help="N (up to the machine's cores): N - 1 helper threads share"
                                " the search's work (faster on big positions; the same"
                                " answer, node counts vary from run to run). Default 1.")(command)
    command = click.option("--tt-size", "tt_mb", type=NumberRange(0.001, MAX_TT_MB),
                           default=None, help="Transposition table size in MB (default: by"
                                              " hand size).")(command)
    # a time limit needs no upper bound: inf, like 0, is no limit
    command = click.option("--time-limit", type=NumberRange(0), default=0.0,
                           help="Stop after S seconds (0: no limit); exit status 3.")(command)
    command = click.option("--max-nodes", type=click.IntRange(0, MAX_NODES), default=0,
                           help="Stop after N nodes (0: no limit); exit status 3.")(command)
    command = click.option("--progress-file", default=None, metavar="FILE",
                           help="Keep the search's proven work in FILE (written every minute"
                                " and when the search ends or stops); run again with the same"
                                " FILE, a stopped solve starts from there.")(command)
    command = click.option("--exact-only", is_flag=True,
                           help="No provisional answer on stderr while a long solve (9+ cards"
                                " a hand) runs.")(command)
    return command


PROVISIONAL_AFTER = 2.0      # seconds of the exact search before the provisional answer


class ProvisionalProgress(ExactProgress):
    """The exact search's progress, and on a long solve (PROVISIONAL_FROM cards or more) a
    provisional answer on stderr after PROVISIONAL_AFTER seconds, with the bounds proven
    then: a player waiting minutes sees a likely strategy within seconds."""

    def __init__(self, position: Position, exact_only: bool, resumable: bool):
        from ..advice import EXACT_DURATION, PROVISIONAL_FROM
        from ..text.solution import format_exact_duration
        super().__init__()
        self.position = position
        self.pending = not exact_only and position.hand_size >= PROVISIONAL_FROM
        if self.pending:
            duration = EXACT_DURATION.get(position.hand_size, "minutes")
            self.say(format_exact_duration(position.hand_size, duration, resumable))

    def say(self, line: str) -> None:
        self.close()
        self.stream.write(line + "\n")
        self.stream.flush()

    def __call__(self, nodes: int, bounds, seconds: float) -> None:
        if self.pending and seconds >= PROVISIONAL_AFTER:
            from ..advice import provisional_strategies
            from ..exact.engine import proven_bounds
            from ..text.solution import format_provisional
            self.pending = False
            strategies = provisional_strategies(self.position)
            self.say(format_provisional(strategies, proven_bounds(*bounds), seconds))
        super().__call__(nodes, bounds, seconds)


def with_progress(position: Position, exact_only: bool, resumable: bool,
                  run: Callable[[ExactProgress], Any]) -> Any:
    progress = ProvisionalProgress(position, exact_only, resumable)
    try:
        return run(progress)
    finally:
        progress.close()


@main.command()
@click.argument("position")
@click.option("--json", "as_json", is_flag=True, help="Print the solution as JSON (docs/formats.md).")
@click.option("--stats", "show_stats", is_flag=True, help="Show the search statistics.")
@solver_options
@click.option("--graph", "graph_path", default=None, metavar="FILE.graphml|FILE.dot",
              help="Write the equilibrium strategy graph (Gephi or Graphviz).")
@click.option("--depth", type=click.IntRange(1, 10), default=None,
              help="Turns in the graph (default 2; needs --graph).")
@click.option("--no-card-values", "skip_card_values", is_flag=True,
              help="Skip the exact values of the cards outside the equilibrium (on a full"
                   " deal they cost about as much as the solve).")
def solve(position, as_json, show_stats, exact_only, progress_file, max_nodes, time_limit,
          tt_mb, threads, graph_path, depth, skip_card_values):
    """Exact value and equilibrium strategies of POSITION (2 players, both hands visible).

    Prints the table, the value (player 2's bullheads minus player 1's from now to the end
    of the round), both mixed strategies, what every card is worth against the opponent's
    strategy and the principal line. Exit status 2 for bad input, 3 when --max-nodes or
    --time-limit stops the search before the value is proven, 130 on Ctrl-C (the bounds
    proven so far in the one line).

    \b
    Examples:
      nimmt solve positions/example.json
      nimmt solve positions/example.json --json
      nimmt solve positions/example.json --graph tree.graphml --depth 3
    """
    from ..exact import Engine
    from ..exact.graph import GRAPH_FILE, check_graph_path, strategy_graph, write_graph
    from ..text.solution import format_solution

    if depth is not None and graph_path is None:
        raise errors.NimmtError("--depth needs --graph FILE")
    if graph_path is not None:
        check_graph_path(graph_path)
        check_writable(graph_path, GRAPH_FILE)
    game, deduced = load_position(position).deduced()    # the 24-card game: maybe known
    limit = Limit(nodes=max_nodes, seconds=time_limit)
    with Engine(game, tt_mb, threads=threads or 1, progress_file=progress_file) as engine:
        if engine.loaded:
            note_loaded(engine.loaded, engine.in_file, progress_file)
        resumable = progress_file is not None
        solution = with_progress(game, exact_only, resumable, lambda progress: engine.solve(
            game, limit, progress, card_values=not skip_card_values, principal_line=True))
        interrupted = engine.interrupted      # the graph's own searches start a new run
        if graph_path is not None and not interrupted:
            try:
                write_graph(strategy_graph(engine, solution, depth or 2), graph_path)
            except errors.SearchLimitError:
                if not engine.interrupted:
                    raise
            interrupted = engine.interrupted
        if graph_path is not None and interrupted:
            click.echo(f"note: the graph {errors.quote(graph_path, errors.SHORT_PATH)} was not"
                       f" written: interrupted (Ctrl-C)", err=True)
    if as_json:
        data = solution.to_dict()
        if deduced is not None:
            data["deduced"] = deduced + 1
        click.echo(json_by_key(data))
    else:
        if deduced is not None:
            click.echo(known_hand(deduced, game.hands[deduced]))
        click.echo(format_solution(solution, show_stats))
    if interrupted:
        # Ctrl-C after the proof, while the other cards' values were computed: what is
        # printed is proven, and the exit status still says the command was interrupted
        raise Interrupted()


def check_options_apply(exact: bool, given: dict, deduced: bool = False) -> None:
    """Refuse an option of the other method: the exact solver's limits on a position that goes
    to the search, or a search budget on one that goes to the exact solver (`deduced`: its
    hidden hand known, every card of the 24-card game being dealt)."""
    if exact:
        wrong = [name for name in ("--iterations", "--seconds", "--seed", "--jobs", "--bot")
                 if given.get(name) is not None]
        why = ("the exact solver answers this position (2 players, both hands visible)"
               if not deduced else "the exact solver answers this position (2 players of the"
               " 24-card game, the hidden hand known from the cards seen)")
    else:
        wrong = [name for name in ("--max-nodes", "--time-limit", "--tt-size", "--threads",
                                   "--exact-only", "--progress-file")
                 if given[name]]
        why = "the search answers this position (a hidden hand or 3+ players)"
    if wrong:
        raise errors.NimmtError(f"{', '.join(wrong)} cannot be used here: {why}")


@main.command()
@click.argument("position")
@click.option("--json", "as_json", is_flag=True, help="Print the advice as JSON.")
@solver_options
@click.option("--iterations", type=click.IntRange(1, MAX_ITERATIONS), default=None,
              help="Search budget in iterations (hidden hands; default 100,000, reproducible).")
@click.option("--seconds", type=NumberRange(0, MAX_SECONDS, min_open=True), default=None,
              help="Think about S seconds (hidden hands; not reproducible): belief's"
                   " seconds=S, or the search player's budget.")
@click.option("--seed", type=SEED, default=None, help="Seed of the search (default 0).")
@click.option("--jobs", "-j", type=click.IntRange(1, MAX_JOBS), default=None,
              help="Search trees in threads, one per core (default 1).")
@click.option("--bot", default=None, metavar="SPEC",
              help="The player of a hidden hand: belief (the default), belief:OPTIONS or"
                   " nsearch:OPTIONS (docs/search-player.md), or mcts, the search player (the"
                   " default with --iterations or --jobs, or when another hand is visible).")
@click.option("--revealed", default=None, metavar="CARDS",
              help="This turn's cards, one a player in seat order (\"3 45 67 88\"), when the"
                   " viewer's is lower than every row end: which row to take (a hidden hand:"
                   " the bot's choice, --bot and --seed apply; 2 known hands: exact).")
@round_option
@click.option("--turns", type=click.IntRange(0, 10), default=None, metavar="N",
              help="A game record's first N turns only: the advice for turn N + 1.")
@click.option("--viewer", type=click.IntRange(1, 10), default=None, metavar="K",
              help="A game record as player K saw it: the other hands hidden.")
def best(position, as_json, exact_only, progress_file, max_nodes, time_limit, tt_mb, threads,
         iterations, seconds, seed, jobs, bot, revealed, round_number, turns, viewer):
    """What should be played in POSITION?

    2 players with both hands visible: the exact solver, for each player: cards with their
    probabilities, what each other card costs, and which row to take with a card lower than
    every row end (limits: --max-nodes, --time-limit, --tt-size; --threads N for N cores).

    A hidden hand (null or ?) or 3+ players: for the viewer (the position's `viewer` key,
    else the first visible hand), each card with the bullheads it is expected to cost to the
    end of the round and a 95% interval, best first: by the `belief` bot (a search with the
    learned networks, a fraction of a second, or about S with --seconds S; --seed), or by
    the search player with --bot mcts (budget: --iterations or --seconds; --seed, --jobs).
    A longer search shows its progress on a terminal, and Ctrl-C ends it with the answer
    so far (exit status 130).

    POSITION may be a game record (the other hands null: the round as the viewer saw it):
    the advice is for the position after its turns, and the `belief` bot weighs the deals of
    the hidden hands by the cards the others played in them. A file of rounds (`play
    --record`, `tournament --out`) needs --round N; --turns N stops after turn N, --viewer K
    hides every hand but player K's.

    \b
    Examples:
      nimmt best positions/example.json
      echo '104; 20, 92, 65, 103; 5 10 11 21 24 37 40 53 85 101, ?, ?, ?' | nimmt best - --seconds 2
      nimmt best positions/records/four_players_seen_by_1.json
      nimmt best games.jsonl --round 2 --turns 4 --viewer 1
    """
    from ..advice import (DEFAULT_PLAYER, advise, exact_row_advice, hidden_row_advice,
                          uses_exact_solver)
    from ..text.advice import format_advice, format_row_advice

    game, view = load_position_or_record(position, round_number=round_number, turns=turns,
                                         viewer=None if viewer is None else viewer - 1)
    game, deduced = game.deduced()     # 2 players, 24 cards: a hidden hand may be known
    exact = uses_exact_solver(game)
    if revealed is not None:
        options = {"--iterations": iterations, "--seconds": seconds, "--jobs": jobs,
                   "--max-nodes": max_nodes, "--time-limit": time_limit, "--tt-size": tt_mb,
                   "--threads": threads, "--exact-only": exact_only,
                   "--progress-file": progress_file, "--bot": bot, "--seed": seed}
        # the exact answer's options are its limits; a bot's, --bot and --seed
        own = ("--max-nodes", "--time-limit", "--tt-size", "--threads") if exact \
            else ("--bot", "--seed")
        given = [name for name, value in options.items()
                 if value not in (None, False) and name not in own]
        if given:
            raise errors.NimmtError(
                f"{', '.join(given)} cannot be used with --revealed "
                + ("on 2 known hands (the exact row: --time-limit, --max-nodes, --tt-size and"
                   " --threads apply)" if exact else "(it asks the bot's row choice: --bot and"
                   " --seed apply)"))
        cards = parse_revealed(revealed)
        if exact:
            advice = exact_row_advice(game, cards, Limit(nodes=max_nodes, seconds=time_limit),
                                      tt_mb, threads or 1)
            if deduced is not None:
                advice["deduced"] = deduced + 1
        else:
            advice = hidden_row_advice(game, cards, (bot or DEFAULT_PLAYER).strip(), seed or 0,
                                       view)
        click.echo(json_by_key(advice) if as_json else format_row_advice(advice))
        return
    if not exact:
        note_unknown_out_of_play(game)
    check_options_apply(exact, {"--iterations": iterations, "--seconds": seconds,
                                "--seed": seed, "--jobs": jobs, "--max-nodes": max_nodes,
                                "--time-limit": time_limit, "--tt-size": tt_mb,
                                "--threads": threads, "--exact-only": exact_only,
                                "--progress-file": progress_file, "--bot": bot},
                        deduced is not None)
    if bot is not None and bot.strip() != "mcts":
        wrong = [name for name, value in (("--iterations", iterations), ("--jobs", jobs))
                 if value is not None]
        if wrong:
            they = "they are" if len(wrong) > 1 else "it is"
            raise errors.NimmtError(f"{', '.join(wrong)} cannot be used with --bot"
                                    f" {errors.quote(bot)}: {they} the search player's"
                                    f" (--bot mcts); a network search's budget is --seconds")
    if exact:
        limit = Limit(nodes=max_nodes, seconds=time_limit)
        resumable = progress_file is not None
        advice = with_progress(game, exact_only, resumable, lambda progress: advise(
            game, limit, tt_mb=tt_mb, threads=threads or 1, progress=progress,
            progress_file=progress_file,
            on_loaded=lambda count, in_file: note_loaded(count, in_file, progress_file)))
    else:
        progress = SearchProgress()
        try:
            advice = advise(game, Limit(iterations=iterations, seconds=seconds),
                            seed=seed or 0, jobs=jobs or 1, progress=progress,
                            player="mcts" if jobs is not None else (bot and bot.strip()),
                            view=view)
        finally:
            progress.close()
    if deduced is not None:
        advice["deduced"] = deduced + 1
    click.echo(json_by_key(advice) if as_json else format_advice(advice))
    if advice.get("interrupted"):
        raise Interrupted()         # the answer so far is printed; the status says it was cut


def parse_revealed(revealed: str) -> List[int]:
    """`--revealed "3 45 67 88"` (or with commas): this turn's cards."""
    cards = [token for token in revealed.replace(",", " ").split()]
    if not cards or not all(token.isdigit() for token in cards):
        raise errors.NimmtError(f"--revealed {errors.quote(revealed)}: cards as numbers, one a"
                                f" player in seat order (\"3 45 67 88\")")
    return [int(c) for c in cards]


def note_unknown_out_of_play(position: Position) -> None:
    """The 10n+4 deck deals every card: unseen cards beyond what the hidden hands hold were
    played earlier and belong in `played`; said on stderr (the search deals from them all)."""
    hidden = sum(hand is None for hand in position.hands)
    extra = len(position.unseen_cards()) - hidden * position.hand_size
    if position.deck == variant_deck(position.players) and hidden and extra > 0:
        click.echo(f"note: the {position.deck}-card deck deals every card, but the unseen"
                   f" cards are {extra} more than the hidden hands hold: the cards out of play"
                   f" belong in \"played\" (the search deals the hidden hands from all the"
                   f" unseen cards)", err=True)


# review -----------------------------------------------------------------------------------
@main.command()
@click.argument("record")
@click.option("--json", "as_json", is_flag=True, help="Print the review as JSON (docs/formats.md).")
@click.option("--time-limit", type=NumberRange(0), default=None,
              help="Seconds per turn for the exact solve of a 2-player 24-card turn (default"
                   " 10; 0: no limit); a turn not solved in time is estimated by the search.")
@click.option("--bot", "reviewer", default=None, metavar="SPEC",
              help="What estimates the turns of hidden hands: a belief or nsearch spec, or"
                   " mcts (the search player, --iterations).  [default:"
                   " belief:worlds=64:belief=384]")
@click.option("--iterations", type=click.IntRange(1, MAX_ITERATIONS), default=None,
              help="The search player's iterations for each estimate it makes: a player's"
                   " card (with --bot mcts, or in a 2-player 24-card turn not solved) and a"
                   " too-low card's rows (default 100,000, reproducible).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the estimates.")
@click.option("--tt-size", "tt_mb", type=NumberRange(0.001, MAX_TT_MB), default=None,
              help="The exact solver's table in MB (default: by the hand size of the first"
                   " turn solved: 128 MB at 8 cards).")
@click.option("--player", "players", type=click.IntRange(1, 10), multiple=True, metavar="K",
              help="Review only player K's plays (again for more players; default every"
                   " player): the others' turns are replayed, not judged.")
@round_option
def review(record, as_json, reviewer, time_limit, iterations, seed, tt_mb, players,
           round_number):
    """Review a played round: what each player's card and row choice cost, turn by turn.

    RECORD is a game record (docs/formats.md; a file, or - for stdin; a file of several
    rounds, one a line, needs --round N). A 2-player 24-card
    turn is solved exactly: a card's loss is the bullheads it gives away against the
    opponent's equilibrium strategy, a too-low card's row choice what it costs against the
    best row. Every turn of 3+ players or another deck is estimated from the player's view
    of the round (by default by the network search, the strongest player measured), and so
    is a turn whose exact solve would exceed --time-limit (9 and 10 cards under 20 and 100 s
    are not tried; by the search player): the card's expected bullheads minus the lowest,
    with a 95% interval. The review says which turns are exact.

    \b
    Marks, by a play's loss in bullheads:
      best        loses nothing (up to 1e-9)
      good        estimated, its 95% interval holds 0: not told apart from the best
      inaccuracy  less than 0.5
      mistake     0.5 to less than 2
      blunder     2 or more
      forced      one card left, no row to choose

    \b
    Examples:
      nimmt review positions/records/six_turns.json
      nimmt review my_game.jsonl --round 2 --player 1
    """
    from ..review import DEFAULT_SEARCH_ITERATIONS, DEFAULT_TIME_LIMIT, REVIEWER, review_record
    from ..text.progress import ReviewProgress
    from ..text.review import format_review

    data = load_record(record, round_number)
    progress = ReviewProgress()
    try:
        result = review_record(data, DEFAULT_TIME_LIMIT if time_limit is None else time_limit,
                               iterations or DEFAULT_SEARCH_ITERATIONS, seed, tt_mb, progress,
                               reviewer or REVIEWER,
                               [k - 1 for k in players] if players else None)
    finally:
        progress.close()
    click.echo(json_by_key(result.to_dict()) if as_json else format_review(result))
