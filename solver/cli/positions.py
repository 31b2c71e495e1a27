"""Commands on positions and records: `show`, `deal`, `replay`."""
import random
from typing import Optional

import click

from .. import errors
from ..batch.deals import DEAL_FILE, MAX_COUNT, deal_positions
from ..core.deal import deal
from ..core.position import OPTIONAL_KEYS, Position
from ..core.record import position_after
from ..core.rules import GameConfig
from ..files import check_writable, write_text_file
from ..reading import load_position, load_record, replay_turns
from ..text.render import describe_turn, render_position
from .app import SEED, VARIANTS, main, round_option


# show / deal ------------------------------------------------------------------------------
@main.command()
@click.argument("position")
@click.option("--as", "output", type=click.Choice(["table", "json", "text"]), default="table",
              show_default=True, help="table: for a player; json: the position format; text: notation.")
def show(position, output):
    """Render POSITION (a file in JSON or text notation, or - for stdin).

    \b
    Example:
      echo '24; 3 10, 7, 12 15 18, 21; 1 2 4, 5 6 8' | nimmt show -
    """
    game = load_position(position)
    lost = [key for key in OPTIONAL_KEYS if key in game.extra]
    if output == "text" and lost:
        click.echo(f"note: the text notation has no {', '.join(lost)}: left out (--as json"
                   f" keeps them)", err=True)
    click.echo(format_position(game, output))


def format_position(position: Position, output: str) -> str:
    if output == "json":
        return position.to_json()
    if output == "text":
        return position.to_text()
    return render_position(position)


@main.command("deal")
@click.option("--players", "-n", type=click.IntRange(2, 10), default=None,
              help="2..10 (required without --count).")
@click.option("--variant", type=VARIANTS, default=None,
              help="standard: cards 1..104; 10n+4: cards 1..10n+4, all dealt."
                   "  [default: standard; 10n+4 with --count]")
@click.option("--seed", type=SEED, default=None,
              help="Seed for a reproducible deal (with --count: default 0).")
@click.option("--as", "output", type=click.Choice(["json", "text", "table"]), default="json",
              show_default=True)
@click.option("--count", type=click.IntRange(1, MAX_COUNT), default=None,
              help="Write this many 2-player 24-card positions, one JSON line each.")
@click.option("--cards", type=click.IntRange(1, 10), default=10, show_default=True,
              help="With --count: cards a hand; below 10 each deal is played down by the"
                   " rule above.")
@click.option("--out", "out", default=None, metavar="FILE",
              help="With --count: the file to write (default, or -: stdout).")
@click.option("--viewer", type=click.IntRange(1, 10), default=None, metavar="K",
              help="Hide every hand but player K's (the position as K sees it, for best).")
def deal_command(players, variant, seed, output, count, cards, out, viewer):
    """Print a random deal as a position (JSON by default).

    With --count K: K positions of the 2-player 24-card game, one JSON position a line, for
    'nimmt batch solve'. The same seed gives the same file. With --cards C below 10, each
    fresh deal is played for 10 - C turns: each turn both players play a card drawn
    uniformly from their hand, and a card lower than every row end takes the row with the
    fewest bullheads (the lowest-numbered among equals).

    \b
    Examples:
      nimmt deal --players 2 --variant 10n+4 --seed 7
      nimmt deal --players 4 --seed 7 --viewer 1 | nimmt best -
      nimmt deal --count 100 --seed 1 --cards 6 --out six.jsonl
    """
    if count is None:
        given = [name for name, value in (("--cards", cards != 10), ("--out", out is not None))
                 if value]
        if given:
            raise errors.NimmtError(f"{', '.join(given)} needs --count")
        if players is None:
            raise click.UsageError("Missing option '--players' / '-n'.")
        position = deal(GameConfig.named(players, variant or "standard"), random.Random(seed))
        if viewer is not None:
            if viewer > players:
                raise errors.NimmtError(f"--viewer {viewer}: the deal has {players} players")
            position = position.seen_by(viewer - 1)
        click.echo(format_position(position, output))
        return
    if viewer is not None:
        raise errors.NimmtError("--viewer deals one position, not with --count")
    if players not in (None, 2) or variant == "standard" or output != "json":
        raise errors.NimmtError("--count deals the 2-player 24-card game as JSON lines: no"
                                " --players but 2, --variant but 10n+4, --as but json")
    lines = "".join(p.to_json() + "\n" for p in deal_positions(count, 0 if seed is None else seed,
                                                                cards))
    write_text(out, lines)


def write_text(out: Optional[str], text: str) -> None:
    """`text` to the file `out` (written whole, then renamed into place), or to stdout."""
    if out is None or out == "-":
        click.echo(text, nl=False)
        return
    check_writable(out, DEAL_FILE)
    write_text_file(out, text)


# replay -----------------------------------------------------------------------------------
@main.command()
@click.argument("record")
@click.option("--json", "as_json", is_flag=True, help="Print only the final position as JSON.")
@click.option("--turns", "turns", type=click.IntRange(0, 10), default=None, metavar="N",
              help="Replay only the first N turns: the position after turn N (0: the start).")
@round_option
def replay(record, as_json, turns, round_number):
    """Replay a game RECORD (docs/formats.md; a file, or - for stdin).

    Prints each turn and the final position; --json prints the final position (penalties
    taken since the start added to the starting ones). A file of several rounds (one a
    line) needs --round N. --turns N stops after turn N: `nimmt replay R --turns 3 --json |
    nimmt best -` asks what to play at turn 4.
    """
    start, outcomes = replay_turns(load_record(record, round_number), turns)
    final = position_after(start, outcomes)
    if as_json:
        click.echo(final.to_json())
        return
    for t, outcome in enumerate(outcomes):
        click.echo(describe_turn(t, outcome.turn.cards, outcome.taken, outcome.taken_rows))
    click.echo()
    click.echo(render_position(final))
