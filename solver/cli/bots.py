"""Bots at a table: `tournament`, `engine` (a bot for another tool's table), `exploit`."""
import json
import os
import sys
from typing import List

import click

from .. import errors
from ..batch.deals import MAX_COUNT, deal_positions
from ..core.notation import INTEGER_TEXT
from ..core.position import Position
from ..core.rules import GameConfig
from ..limits import MAX_GAMES, MAX_JOBS
from ..play.bots import BOTS, make_bot, parse_bot_names
from ..play.exploit import DEFAULT_SAMPLES, MAX_SAMPLES
from ..play.tournament import run_tournament
from ..reading import read_lines
from ..text.progress import GamesProgress
from ..text.tournament import format_table
from .app import SEED, VARIANTS, interruption, main, threshold_option


# tournament -------------------------------------------------------------------------------
@main.command()
@click.option("--players", "-n", type=click.IntRange(2, 10), required=True)
@click.option("--bots", required=True,
              help=f"Comma-separated bots: {', '.join(BOTS)}; options after colons, e.g."
                   " mcts:seconds=1 or mcts:iterations=2000:jobs=2 (docs/commands.md).")
@click.option("--games", type=click.IntRange(1, MAX_GAMES), default=100, show_default=True)
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--variant", type=VARIANTS, default="standard", show_default=True)
@threshold_option
@click.option("--jobs", "-j", type=click.IntRange(1, MAX_JOBS), default=1, show_default=True,
              help="Worker processes (the results do not depend on it).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--out", default=None, metavar="GAMES.jsonl",
              help="Keep every game in this file as it ends; the same command run again"
                   " resumes from it (docs/formats.md).")
def tournament(players, bots, games, seed, variant, threshold, jobs, as_json, out):
    """Play whole games between bots, seats rotated: bullheads per round and win rates.

    A progress bar goes to stderr. With --out FILE every game goes to FILE as it ends:
    stopped (Ctrl-C, a kill), the same command resumes where it stopped, and the summary is
    the one an uninterrupted run gives.

    \b
    Examples:
      nimmt tournament --players 4 --bots random,greedy --games 200 --seed 1
      nimmt tournament -n 4 --bots mcts:iterations=2000,safe --games 20 --jobs 2
      nimmt tournament -n 4 --bots belief,mcts --games 500 --out games.jsonl
    """
    from ..play.gamesfile import GamesFile
    from ..play.tournament import describe

    config = GameConfig.named(players, variant, threshold=threshold)
    names = parse_bot_names(bots)
    games_file, done, on_game, before = None, {}, None, 0
    if out is not None:
        games_file = GamesFile(out)
        games_file.lock()
    try:
        if games_file is not None:
            done = games_file.resume(describe(config, names, seed))
            before = sum(g < games for g in done)     # games of this run in the file
            kept = [before]

            def on_game(game, seats, result):
                games_file.write_game(game, seats, result,
                                      written=lambda: kept.__setitem__(0, kept[0] + 1))
            if games_file.torn_bytes:
                click.echo(f"tournament: removed a torn last line"
                           f" ({errors.plural(games_file.torn_bytes, 'byte')}) from"
                           f" {games_file.name}", err=True)
            if done:
                click.echo(f"tournament: resuming: {kept[0]} of {games} games already in"
                           f" {games_file.name}", err=True)
        progress = GamesProgress(games, done_before=before)
        try:
            summary = run_tournament(config, names, games, seed, progress=progress, jobs=jobs,
                                     done=done, on_game=on_game)
        except KeyboardInterrupt:
            if games_file is not None:
                progress.close()
                click.echo(f"tournament: {interruption()[0].split(' (')[0]}: {kept[0]} of"
                           f" {games} games in {games_file.name}; the same command resumes",
                           err=True)
            raise
        finally:
            progress.close()
    finally:
        if games_file is not None:
            games_file.unlock()
    click.echo(json.dumps(summary, indent=2) if as_json else format_table(summary))


# engine -----------------------------------------------------------------------------------
@main.command()
@click.option("--bot", "spec", default="belief", show_default=True, metavar="SPEC",
              help="The bot that answers (any bot of 'nimmt tournament').")
@click.option("--seed", type=SEED, default=None,
              help="Seed of the bot (default: NIMMT_SEED from the environment, else 0).")
def engine(spec, seed):
    """Answer a table's questions with one of nimmt's bots, over standard input and output.

    Reads one JSON object a line: {"ask": "card", "view": VIEW} and {"ask": "row", "card":
    C, "view": VIEW} get one line each, the card or the row; {"tell": "round_over", ...}
    none. The protocol of the bot program:path=FILE (docs/formats.md, "Program bots"), so
    a table of another tool can seat nimmt's bots, and a script running 'nimmt engine' is a
    program bot. Ends at the end of the input; a malformed line ends it with one line on
    stderr and exit status 2.

    \b
    Example:
      echo '{"ask": "card", "view": {...}}' | nimmt engine --bot greedy
    """
    from ..play.program import serve

    if seed is None:
        seed = os.environ.get("NIMMT_SEED") or "0"
        if not INTEGER_TEXT.fullmatch(seed.strip()) or int(seed) < 0:
            raise errors.NimmtError(f"NIMMT_SEED must be an integer, 0 or more, got"
                                    f" {errors.quote(seed)}")
        seed = int(seed)
    if sys.stdin is None:                   # started with stdin closed (<&-)
        raise errors.NimmtError("cannot read stdin: it is closed")
    bot = make_bot(spec, seed)

    def answer(value: int) -> None:
        sys.stdout.write(f"{int(value)}\n")
        sys.stdout.flush()

    # a table that stops reading ends it as a pipe into head does: OUTPUT_CLOSED
    serve(bot, read_lines(sys.stdin, "the table's input"), answer)


# exploit ----------------------------------------------------------------------------------
@main.command()
@click.argument("bot")
@click.option("--positions", "positions_file", default=None, metavar="FILE",
              help="The positions, one a line (a deal file of 'nimmt deal --count'; - for"
                   " stdin).")
@click.option("--count", type=click.IntRange(1, MAX_COUNT), default=None,
              help="Deal this many positions, as 'nimmt deal --count K --seed S --cards C'.")
@click.option("--cards", type=click.IntRange(1, 10), default=None,
              help="With --count: cards a hand.  [default: 6]")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the bot's answers (and with --count, of the deals).")
@click.option("--samples", type=click.IntRange(1, MAX_SAMPLES), default=DEFAULT_SAMPLES,
              show_default=True,
              help="Answers asked of a bot that does not state its strategy, per seat.")
@click.option("--json", "as_json", is_flag=True, help="Print the measure as JSON.")
def exploit(bot, positions_file, count, cards, seed, samples, as_json):
    """How much BOT loses against a best reply, on 2-player 24-card positions.

    BOT is a bot of 'nimmt tournament' (e.g. greedy, mcts:iterations=2000). On each
    position the bot plays in both seats; the exact solver gives the root's matrix (each
    pair of cards, perfect play after) and the loss of the bot's root strategy against a
    best reply, in bullheads: 0 for an equilibrium strategy. Only the card of the first
    turn (and a too-low card's row, 'row loss') is the bot's: the rest of the round is
    played perfectly. A progress bar goes to stderr.

    \b
    Examples:
      nimmt exploit greedy --count 50 --cards 6 --seed 1
      nimmt exploit sampler --positions six.jsonl --samples 50 --json
    """
    from ..play.exploit import exploit as measure
    from ..text.exploit import format_report

    if (positions_file is None) == (count is None):
        raise errors.NimmtError("give the positions: --positions FILE or --count K (one of"
                                " them)")
    if count is None:
        if cards is not None:
            raise errors.NimmtError("--cards needs --count")
        positions = read_positions(positions_file)
    else:
        positions = list(deal_positions(count, seed, 6 if cards is None else cards))
    make_bot(bot)                        # a bad spec: refused before any solve
    progress = GamesProgress(len(positions), "positions")
    try:
        report = measure(bot, positions, samples, seed, progress)
    finally:
        progress.close()
    click.echo(json.dumps(report.to_dict(), indent=2) if as_json else format_report(report))


def read_positions(source: str) -> List[Position]:
    """The positions of a file, one a line (blank lines skipped): the first bad line refused."""
    from ..batch.runner import read_tasks
    from ..play.exploit import check_position
    from ..reading import read_source

    tasks = read_tasks(read_source(source, "positions, one a line"))
    for task in tasks:
        try:
            if task.error is not None:
                raise errors.NimmtError(task.error)
            check_position(task.position)
        except errors.NimmtError as exc:
            raise errors.NimmtError(f"line {task.line}: {exc}") from None
    if not tasks:
        where = "stdin" if source == "-" else errors.quote(source, errors.SHORT_PATH)
        raise errors.NimmtError(f"no position in {where}")
    return [task.position for task in tasks]
