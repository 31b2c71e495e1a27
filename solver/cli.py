"""The `nimmt` command line.

Every command is registered on `main` (a `NimmtGroup`), which turns bad input anywhere, usage
errors included, into one line on stderr, `nimmt: error: <message>`, and exit status 2:
commands simply raise `errors.NimmtError` (or let OSError/ValueError through). A search stopped
by a limit (`errors.SearchLimitError`) is one line too, with exit status 3; the input of
`nimmt play` ending before the game (`errors.EndOfInput`) exits with 4, a finished batch with
positions not solved with 5 (the command returns it), Ctrl-C with 130.
`ExitStatus` holds them all, the same for every command.
"""
import errno
import io
import json
import math
import os
import random
import sys
from enum import IntEnum
from typing import Any, Callable, List, Optional, Tuple

import click

from . import errors
from .batch.deals import DEAL_FILE, MAX_COUNT, deal_positions
from .core.player import Player, PlayerView
from .core.notation import INTEGER_TEXT
from .core.position import OPTIONAL_KEYS, Position
from .core.record import position_after, replay_steps
from .core.rules import GameConfig, two_player_variant, variant_deck
from .core.turn import TurnOutcome
from .errors import EndOfInput, GameQuit, Interrupted, plural
from .files import check_writable, stop_name, stop_on_termination, write_text_file
from .limits import (max_threads, MAX_GAMES, MAX_ITERATIONS, MAX_JOBS, MAX_NODES, MAX_SECONDS,
                     MAX_THRESHOLD, MAX_TT_MB, Limit)
from .play.bots import BOTS, make_bot, parse_bot_names
from .play.exploit import DEFAULT_SAMPLES, MAX_SAMPLES
from .core.deal import deal
from .play.runner import RoundResult, close_all, play_game
from .play.tournament import run_tournament
from .reading import (load_position, load_position_or_record, load_record, read_line,
                      read_lines)
from .text.progress import ExactProgress, GamesProgress, SearchProgress
from .text.render import describe_turn, known_hand, render_position, render_row
from .text.tournament import format_table


class ExitStatus(IntEnum):
    """The exit status of every `nimmt` command (listed in `nimmt --help`). Any other status
    (1, with Python's traceback) is a bug of nimmt's."""
    OK = 0              # done; also a game of `nimmt play` ended by typing quit
    BAD_INPUT = 2       # bad input or usage: invalid position, record or option, unreadable
                        # file, unwritable output, a table too big for this machine's memory
    NOT_PROVEN = 3      # --max-nodes or --time-limit stopped a search before it proved its
                        # answer (the bounds proven so far in the one line)
    INPUT_ENDED = 4     # the input of `nimmt play` ended before the game did
    NOT_ALL_SOLVED = 5  # `nimmt batch solve` finished, but some positions of its results
                        # file are not solved (errors, or stopped by a limit)
    INTERRUPTED = 130   # Ctrl-C (solve and best still give the bounds, or the answer so far)
    HUNG_UP = 129       # SIGHUP (the terminal closed): stopped as by Ctrl-C
    TERMINATED = 143    # SIGTERM (kill, timeout): stopped as by Ctrl-C
    OUTPUT_CLOSED = 141  # stdout closed before all was written (a pipe into head): quietly,
                         # the status a shell gives a tool stopped by SIGPIPE


STOPPED = {"SIGTERM": ("terminated", ExitStatus.TERMINATED),
           "SIGHUP": ("hung up", ExitStatus.HUNG_UP)}


def interruption() -> Tuple[str, int]:
    """What stopped the command, and its exit status: Ctrl-C, or a termination signal."""
    name = stop_name()
    verb, status = STOPPED.get(name, ("interrupted", ExitStatus.INTERRUPTED))
    return f"{verb} ({name})", status


# the commands whose answer is the exact value: stopped, they print the bounds proven so far
ANSWER_IS_A_VALUE = ("solve", "best")

# bare `nimmt` raises this in click >= 8.2 (older versions print the help themselves)
NoArgsIsHelpError = getattr(click.exceptions, "NoArgsIsHelpError", ())


def whole_writes() -> None:
    """Unbuffered (PYTHONUNBUFFERED, python -u), stdout's text layer writes straight to the
    file and ignores a short write: text that a pipe whose reader left mid-write did not
    take is lost without an error, and `nimmt ... | head` exits 0 instead of 141. A buffered
    writer under it, flushed at every line, writes all or raises."""
    out = sys.stdout
    if out is not None and isinstance(getattr(out, "buffer", None), io.RawIOBase):
        sys.stdout = io.TextIOWrapper(io.BufferedWriter(out.buffer), encoding=out.encoding,
                                      errors=out.errors, line_buffering=True)


class NimmtGroup(click.Group):
    """A click group whose commands never show a traceback for bad input."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        stop_on_termination()
        whole_writes()
        if sys.stdout is None:          # started with stdout closed (>&-): no reader
            sys.stdout = ClosedOutput()
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
            sys.stdout.flush()          # a closed or full stdout is found here, not at exit
        except (OutputClosed, BrokenPipeError):
            output_closed()
        except NoArgsIsHelpError as exc:          # bare `nimmt`: the help, not an error
            click.echo(exc.ctx.get_help())
            rv = 0
        except click.ClickException as exc:      # usage errors: bad option, missing argument...
            fail(_usage_message(exc))
        except Interrupted:                      # Ctrl-C (or SIGTERM) in a command
            fail(*interruption())
        except click.Abort as exc:               # Ctrl-C (or end of input) outside a command
            if isinstance(exc.__context__, EOFError):
                fail("end of input", ExitStatus.INPUT_ENDED)
            fail(*interruption())
        except errors.SearchLimitError as exc:   # before NimmtError, its base class
            fail(f"value NOT proven: {exc}",
                 interruption()[1] if exc.interrupted else ExitStatus.NOT_PROVEN)
        except EndOfInput as exc:                # `nimmt play`: the input ended mid-game
            fail(str(exc), ExitStatus.INPUT_ENDED)
        except OSError as exc:
            fail(("cannot write standard output: " if stdout_failed() and exc.filename is None
                  else "") + errors.os_error_text(exc))
        except (errors.NimmtError, ValueError) as exc:
            fail(str(exc) or type(exc).__name__)
        except MemoryError as exc:               # a table too large for this machine
            fail(f"out of memory: {exc}" if str(exc) else "out of memory")
        if not standalone_mode:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)

    def make_context(self, *args, **kwargs):
        # Ctrl-C while the arguments are read: the same (click would print an empty line)
        try:
            return super().make_context(*args, **kwargs)
        except KeyboardInterrupt:
            raise Interrupted() from None

    def invoke(self, ctx):
        # Ctrl-C in a command: raised as `Interrupted`, not as the KeyboardInterrupt click
        # would turn into Abort after printing an empty line
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise Interrupted() from None
        except BrokenPipeError:
            raise OutputClosed() from None          # click would exit 1 on it
        except errors.SearchLimitError as exc:
            # a solve inside another command's work (a bot's, the training's): plainly stopped
            if exc.interrupted and ctx.invoked_subcommand not in ANSWER_IS_A_VALUE:
                raise Interrupted() from None
            raise


class OutputClosed(Exception):
    """The reader of stdout went away (a pipe into head): nothing is wrong with the input."""


class ClosedOutput(io.TextIOBase):
    """stdout when the command started without one: a write finds no reader, as a pipe whose
    reader left (OUTPUT_CLOSED), rather than being dropped without a word."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not text:
            return 0
        raise BrokenPipeError(errno.EPIPE, "standard output is closed")


def discard_output() -> None:
    """Point stdout's file at /dev/null, so that Python's last flush of what it still holds
    neither fails nor prints a second error."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass


def stdout_failed() -> bool:
    """After an OSError: whether stdout cannot take what it holds (a full disk, a device
    error); if so its rest is discarded."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        discard_output()
        return True
    return False


def output_closed() -> None:
    """Exit quietly with OUTPUT_CLOSED: what is left of the output has no reader."""
    discard_output()
    sys.exit(ExitStatus.OUTPUT_CLOSED)


def _usage_message(exc: click.ClickException) -> str:
    # a value quoted whole could be any size: each word cut, as errors.quote cuts a value
    message = " ".join(errors.cut(word) for word in exc.format_message().split(" "))
    ctx = getattr(exc, "ctx", None)
    if isinstance(exc, click.UsageError) and ctx is not None:
        message += f" (see '{ctx.command_path} --help')"
    return message


class NumberRange(click.FloatRange):
    """A click.FloatRange that refuses nan too (nan passes its bounds: every comparison with
    nan is false)."""

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if math.isnan(number):
            self.fail(f"{value!r} is not a number.", param, ctx)
        return number


# seeds are 0 or more: Python's generators take a negative seed as its absolute value, so -1
# would silently repeat 1
SEED = click.IntRange(min=0)

threshold_option = click.option(
    "--threshold", type=click.IntRange(1, MAX_THRESHOLD), default=66, show_default=True,
    help="The game ends when a total reaches this.")


def fail(message: str, status: int = ExitStatus.BAD_INPUT) -> None:
    """Print `nimmt: error: message` on one line of stderr and exit."""
    one_line = " ".join(str(message).split())
    try:
        click.echo(f"nimmt: error: {one_line}", err=True)
    except (OSError, ValueError):       # stderr closed or full: the status still says it
        pass
    sys.exit(status)


@click.group(cls=NimmtGroup, context_settings={"help_option_names": ["-h", "--help"]})
def main():
    """Analysis engine for the card game 6 nimmt!

    Players are numbered 1..N and rows 0..3, in every text and JSON output.

    \b
    Exit status, the same for every command:
      0    done (also a game of 'nimmt play' ended by typing quit)
      2    bad input or usage: invalid position, record or option, unreadable
           file, an output that cannot be written (a full disk), a table too big
           for this machine's memory
      3    --max-nodes or --time-limit stopped the search before it proved its
           answer (the bounds proven so far are in the one line on stderr)
      4    the input of 'nimmt play' ended before the game did
      5    'nimmt batch solve' finished, but some positions are not solved
           (errors, or stopped by a limit: counted on stderr and in the results)
      130  interrupted by Ctrl-C (solve, and best on 2 visible hands, still give
           the bounds proven so far; best on a hidden hand its answer so far)
      129  stopped by SIGHUP (the terminal closed), as cleanly as by Ctrl-C
      143  stopped by SIGTERM (kill, timeout), as cleanly as by Ctrl-C
      141  standard output closed before all was written (a pipe into head, or
           none at all): no message, the status a shell gives a tool stopped by
           SIGPIPE
    """


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


VARIANTS = click.Choice(["standard", "10n+4"])


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
            hands = [list(h) if k == viewer - 1 else None for k, h in enumerate(position.hands)]
            position = Position.create([list(r) for r in position.rows], hands,
                                       list(position.penalties), position.deck,
                                       {"viewer": viewer})
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
round_option = click.option(
    "--round", "round_number", type=int, default=None, metavar="N",
    help="The round to take from a file of several (a 'play --record' file, a 'tournament"
         " --out' file): the N-th, 1 first, in file order; -1 the last, -2 the one before.")


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
    start, outcomes = replay_steps(load_record(record, round_number))
    if turns is not None:
        if turns > len(outcomes):
            raise errors.NimmtError(f"--turns {turns}: the record has"
                                    f" {errors.plural(len(outcomes), 'turn')}")
        outcomes = outcomes[:turns]
    final = position_after(start, outcomes)
    if as_json:
        click.echo(final.to_json())
        return
    for t, outcome in enumerate(outcomes):
        click.echo(describe_turn(t, outcome.turn.cards, outcome.taken, outcome.taken_rows))
    click.echo()
    click.echo(render_position(final))


# play -------------------------------------------------------------------------------------
# the 2-player 24-card game: every card dealt, each hand known to the other; there the
# search player hands positions of 7 cards and fewer to the exact solver
COMPLETE_INFORMATION_BOT = "mcts"


class TerminalPlayer(Player):
    """The human at the terminal: reads cards and rows from stdin, re-asks on bad input;
    `hint` asks the `belief` bot what it would play in your seat (in the 2-player 24-card
    game, where the other hand is shown, the search player, exact from 7 cards)."""
    name = "you"

    def __init__(self, names: List[str]):
        self.names = names
        self.stdin = sys.stdin
        if self.stdin is None:               # started with stdin closed (<&-)
            raise errors.NimmtError("cannot read stdin: it is closed")

    def choose_card(self, view: PlayerView) -> int:
        click.echo()
        click.echo(render_position(self._position(view), names=self.names,
                                   scores=view.scores))
        return self._ask(f"turn {view.turn + 1}, your card", lambda n: n in view.hand,
                         f"play one of {' '.join(map(str, view.hand))}",
                         lambda: self._card_hint(view))

    def choose_row(self, view: PlayerView, card: int) -> int:
        revealed = ", ".join(f"{self.names[k]} {c}" for k, c in enumerate(view.revealed))
        click.echo(f"revealed: {revealed}")
        click.echo(f"your {card} is lower than every row end: take the row of your choice")
        for i, row in enumerate(view.rows):
            click.echo("  " + render_row(i, row))
        return self._ask("row to take (0-3)", lambda n: 0 <= n <= 3, "a row is 0, 1, 2 or 3",
                         lambda: self._row_hint(view, card))

    # hints: the default player of a hidden hand in your seat, seed 0 (the same view, the
    # same hint); in the 2-player 24-card game the search player, exact from 7 cards
    def _card_hint(self, view: PlayerView) -> str:
        from .advice import DEFAULT_PLAYER, network_advice
        if len(view.hand) == 1:
            return f"hint: {view.hand[0]}, your last card"
        if two_player_variant(view.config.players, view.config.deck):
            bot = make_bot(COMPLETE_INFORMATION_BOT, 0)
            strategy = bot.card_strategy(view)
            if strategy is None:
                return f"hint: the search player would play {bot.choose_card(view)}"
            mix = ", ".join(f"{c} ({p:.0%})" for c, p in sorted(strategy.items()) if p > 0)
            return f"hint: the exact equilibrium plays {mix}"
        advice = network_advice(self._position(view), DEFAULT_PLAYER, 0, view)
        if advice.get("interrupted"):
            raise KeyboardInterrupt           # a Ctrl-C during the hint stops the game
        first = [f"{c['card']} ({'bullheads ' if i == 0 else ''}{c['expected_bullheads']:.1f},"
                 f" {'policy ' if i == 0 else ''}{c['probability']:.0%})"
                 for i, c in enumerate(advice["cards"][:3])]
        return (f"hint: {DEFAULT_PLAYER} would play {advice['play']}, the least score (the"
                f" bullheads a card is expected to cost you to the end of the round, plus the"
                f" policy's prior); its first choices {', '.join(first)}")

    @staticmethod
    def _row_hint(view: PlayerView, card: int) -> str:
        from .advice import DEFAULT_PLAYER
        complete = two_player_variant(view.config.players, view.config.deck)
        player = COMPLETE_INFORMATION_BOT if complete else DEFAULT_PLAYER
        row = make_bot(player, 0).choose_row(view, card)
        return f"hint: {'the search player' if complete else player} would take row {row}"

    def _ask(self, prompt: str, valid: Callable[[int], bool], hint: str,
             advise: Callable[[], str]) -> int:
        while True:
            click.echo(f"{prompt}? ", nl=False)
            try:
                line = read_line(self.stdin, "the input")
            except KeyboardInterrupt:
                click.echo()              # the error line then starts a line of its own
                raise
            if not line:
                click.echo()
                raise EndOfInput("end of input: game abandoned")
            answer = line.strip().lower()
            if answer in ("q", "quit", "exit"):
                raise GameQuit()
            if answer in ("h", "hint", "?"):
                click.echo(f"  {advise()}")
                continue
            try:       # int() refuses digits such as '²' and more than 4,300 of them
                number = (int(answer) if answer.isascii() and answer.lstrip("-").isdigit()
                          else None)      # int() would read other scripts' digits too
            except ValueError:
                number = None
            if number is not None and valid(number):
                return number
            click.echo(f"  {answer!r} is not possible: {hint} (or hint, or quit)")

    @staticmethod
    def _position(view: PlayerView) -> Position:
        hands = [list(view.hand) if k == view.seat else None for k in range(view.players)]
        if two_player_variant(view.config.players, view.config.deck):
            hands[1 - view.seat] = view.unseen()          # every card dealt: it is known
        return Position.create([list(r) for r in view.rows], hands, list(view.penalties),
                               view.config.deck)


@main.command()
@click.option("--players", "-n", type=click.IntRange(2, 10), default=4, show_default=True)
@click.option("--bots", default=None,
              help="Bots of seats 2..N, comma-separated, at most N - 1; fewer are seated in turn"
                   " (e.g. random,greedy)."
                   "  [default: belief, the strongest measured; mcts in the 2-player 10n+4"
                   " game, where it plays the exact equilibrium from 7 cards]")
@click.option("--variant", type=VARIANTS, default="standard", show_default=True)
@threshold_option
@click.option("--seed", type=SEED, default=None, help="Seed for reproducible deals and bots.")
@click.option("--record", "record_file", default=None, metavar="FILE.jsonl",
              help="Add each round's game record to FILE as the round ends (one a line; for"
                   " 'nimmt review FILE --round N').")
def play(players, bots, variant, threshold, seed, record_file):
    """Play a whole game against bots: you are player 1 (type a card, hint, or quit).

    \b
    Examples:
      nimmt play --players 3 --bots greedy,random --seed 1
      nimmt play --record games.jsonl; nimmt review games.jsonl --round 1
    """
    from .play.recordsfile import RecordsFile

    config = GameConfig.named(players, variant, threshold=threshold)
    if bots is None:
        two_players = two_player_variant(config.players, config.deck)
        bots = COMPLETE_INFORMATION_BOT if two_players else "belief"
    names = parse_bot_names(bots)
    if len(names) > players - 1:
        raise errors.ConfigError(f"{len(names)} bots for the {players - 1} other seat"
                                 f"{'s' if players > 2 else ''} of a {players}-player game:"
                                 " give at most as many (fewer are seated in turn)")
    rng = random.Random(seed)
    seat_names = ["you"] + [f"{names[k % len(names)]}-{k + 2}" for k in range(players - 1)]
    seats: List[Player] = [TerminalPlayer(seat_names)]
    seats += [make_bot(names[k % len(names)], rng.getrandbits(64)) for k in range(players - 1)]

    def round_done(i: int, result: RoundResult, scores) -> None:
        if records is not None:
            records.write_round(result.record, seat_names, i + 1)
        click.echo(f"\nround {i + 1} over: " + ", ".join(
            f"{seat_names[k]} +{p} = {s}" for k, (p, s) in enumerate(zip(result.penalties, scores))))

    def turn_done(t: int, outcome: TurnOutcome) -> None:
        click.echo(describe_turn(t, outcome.turn.cards, outcome.taken, outcome.taken_rows,
                                 seat_names))

    records = None
    if record_file is not None:
        records = RecordsFile(record_file)
        records.open()

    def tell_kept() -> None:                # where the rounds finished are, if any
        if records is not None and records.kept():
            click.echo(records.kept())

    try:
        result = play_game(config, seats, rng.getrandbits(64), on_round=round_done,
                           on_turn=turn_done)
    except GameQuit:
        click.echo("game abandoned")
        result = None
    except EndOfInput:
        tell_kept()
        raise
    finally:
        close_all(seats)
        if records is not None:
            records.unlock()
    if result is not None:
        winners = " and ".join(seat_names[k] for k in result.winners)
        verb = "wins" if len(result.winners) == 1 and winners != "you" else "win"
        click.echo(f"\ngame over after {plural(len(result.rounds), 'round')}: {winners} {verb}")
    tell_kept()


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
    from .play.gamesfile import GamesFile
    from .play.tournament import describe

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
                click.echo(f"tournament: removed a torn last line ({games_file.torn_bytes}"
                           f" bytes) from {games_file.name}", err=True)
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


# bench ------------------------------------------------------------------------------------
@main.command(context_settings={"ignore_unknown_options": True,
                                "allow_interspersed_args": False})
@click.argument("name", required=False)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def bench(ctx, name, args):
    """The benchmarks: list them, or run NAME with its own options.

    nimmt bench NAME --help shows a benchmark's options.

    The benchmarks are in the repository's benchmarks/ folder (docs/benchmarks.md has every
    command and its results): run them in a clone (or after pip install -e .).

    \b
    Examples:
      nimmt bench
      nimmt bench solver --quick
      nimmt bench paired --players 4 --bot belief --rounds 200 --jobs 2
    """
    from .bench import available, run

    if name is None:
        found = available()
        width = max(len(n) for n, _ in found)
        click.echo("\n".join(f"{n:<{width}}  {doc}" for n, doc in found))
        return
    status = run(name, args)
    if status:
        ctx.exit(status)


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
    from .play.program import serve

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
    from .play.exploit import exploit as measure
    from .text.exploit import format_report

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
    from .batch.runner import read_tasks
    from .play.exploit import check_position
    from .reading import read_source

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


# train ------------------------------------------------------------------------------------
def _numbers(text: str, kind: Callable[[str], Any], what: str) -> List[Any]:
    try:
        return [kind(part) for part in text.split(",")]
    except ValueError:
        raise errors.ConfigError(f"{what} must be comma-separated numbers, got"
                                 f" {errors.quote(text)}") from None


@main.group()
def train():
    """Make training games and train the learned policy (bot `net`).

    \b
    Examples:
      nimmt train generate --out runs/data --rounds 3000 --seed 1
      nimmt train fit --data runs/data --out runs/net --export solver/learn/weights/net-v4.npz
    """


def _generate(config, out: str) -> None:
    """Write a generation's missing chunks to `out`, with a progress bar on stderr."""
    from .learn.data import generate

    config.check()
    total = (config.rounds + config.chunk_rounds - 1) // config.chunk_rounds
    progress = GamesProgress(total, "chunks")
    done = [0]

    def tick(chunks: int, _total: int) -> None:
        done[0] = chunks
        progress(chunks)
    try:
        written = generate(config, out, progress=tick)
    except (KeyboardInterrupt, Interrupted):
        progress.close()
        if done[0]:
            click.echo(f"train: {done[0]} of {total} chunks in {out}; the same command"
                       " resumes", err=True)
        raise
    finally:
        progress.close()
    click.echo(f"{written} chunk{'' if written == 1 else 's'} written to {out}")


def _chunks_options(rounds: int) -> Callable:
    """The options every generation of training data shares: the folder of its chunks and
    how many rounds it plays."""
    def decorate(command: Callable) -> Callable:
        command = click.option("--rounds", type=click.IntRange(1, MAX_GAMES), default=rounds,
                               show_default=True)(command)
        return click.option("--out", required=True, help="Folder of the chunks (made if"
                            " missing; chunks already there are kept, so a stopped run"
                            " resumes).")(command)
    return decorate


@train.command("generate")
@_chunks_options(3000)
@click.option("--teacher", default="mcts:iterations=10000", show_default=True,
              help="The bot in every seat whose choices are learned (a bot spec).")
@click.option("--players", "players_text", default="3,4,5,10", show_default=True,
              help="Seat counts of the rounds, comma-separated.")
@click.option("--weights", "weights_text", default="1,6,1,0.5", show_default=True,
              help="How often each seat count is drawn.")
@click.option("--chunk", type=click.IntRange(1, 10000), default=25, show_default=True,
              help="Rounds per chunk file.")
@click.option("--others", "others_text", default="", help="Bots (specs, comma-separated)"
              " that may take a seat instead of the teacher (with --others-share above 0); their"
              " decisions are not saved.")
@click.option("--others-share", type=NumberRange(0, 1, max_open=True), default=0.0,
              show_default=True, help="Each seat's chance to get one of --others.")
@click.option("--net-policy", is_flag=True, help="A `net` teacher's target is its whole"
              " policy over the hand (by default the card it played).")
@click.option("--seed", type=SEED, default=1, show_default=True)
def train_generate(out, rounds, teacher, players_text, weights_text, chunk, others_text,
                   others_share, net_policy, seed):
    """Play rounds with the teacher in every seat; save every card decision (the view, the
    teacher's distribution over the hand, the bullheads each seat takes to the end of the
    round). A progress bar goes to stderr."""
    from .learn.data import GenerateConfig

    config = GenerateConfig(teacher, rounds, chunk, seed,
                            tuple(_numbers(players_text, int, "--players")),
                            tuple(_numbers(weights_text, float, "--weights")),
                            tuple(o for o in others_text.split(",") if o), others_share,
                            net_policy)
    _generate(config, out)


def _lockstep_options(weights: str, chunk: int) -> Callable:
    """The options of the generations played in lockstep: seat counts, their weights, the
    rounds of a chunk (played together), the seed."""
    options = [
        click.option("--players", "players_text", default="3,4,5,10", show_default=True,
                     help="Seat counts of the rounds, comma-separated."),
        click.option("--weights", "weights_text", default=weights, show_default=True,
                     help="How often each seat count is drawn."),
        click.option("--chunk", type=click.IntRange(1, 100000), default=chunk,
                     show_default=True,
                     help="Rounds per chunk file (played together, one batch per turn)."),
        click.option("--seed", type=SEED, default=1, show_default=True)]

    def decorate(command: Callable) -> Callable:
        for option in reversed(options):
            command = option(command)
        return command
    return decorate


@train.command("selfplay")
@_chunks_options(10000)
@click.option("--network", default="", help="Weights file of the network in every seat"
              " (default: the shipped one).")
@click.option("--temperature", type=NumberRange(0.01, 100), default=0.5, show_default=True,
              help="Each card's chance goes as exp(logit / T): below 1, nearer the best card.")
@_lockstep_options("1,6,1,0.5", 200)
def train_selfplay(out, rounds, network, temperature, players_text, weights_text, chunk, seed):
    """Play rounds with the network's policy in every seat, many at once, and save every card
    decision with the bullheads each seat takes to the end of the round, for the value head
    (no policy target). Much faster than a search teacher. A progress bar goes to stderr."""
    from .learn.selfplay import SelfPlayConfig

    config = SelfPlayConfig(network, temperature, rounds, chunk, seed,
                            tuple(_numbers(players_text, int, "--players")),
                            tuple(_numbers(weights_text, float, "--weights")))
    _generate(config, out)


@train.command("rollouts")
@_chunks_options(4000)
@click.option("--network", default="", help="Weights file of the learner (default: the"
              " shipped one).")
@click.option("--opponents", "opponents_text", default="net-v3.npz,net-v2.npz,net-v1.npz,sampler",
              show_default=True, help="Models of the other tables, comma-separated (weights"
              " files, shipped names, or sampler): each such table has one in every other seat.")
@click.option("--self-share", type=NumberRange(0, 1), default=0.5, show_default=True,
              help="Share of the rounds with the learner in every seat.")
@click.option("--temperature", type=NumberRange(0.01, 100), default=0.5, show_default=True,
              help="The learner's cards in the rounds: chance as exp(logit / T).")
@click.option("--target-temperature", type=NumberRange(0.01, 100), default=1.0,
              show_default=True, help="Bullheads: a card that costs this much more in its"
              " rollout gets e^-1 times the share.")
@click.option("--others-temperature", type=float, default=0.0, show_default=True,
              help="The other seats' cards in the rounds, as --temperature (0: each its"
              " likeliest card).")
@click.option("--rollout-temperature", type=float, default=0.0, show_default=True,
              help="Every seat's cards in the rollouts (0: the likeliest; else drawn, the"
              " same draws for every card of a decision).")
@click.option("--prior", type=float, default=0.0, show_default=True,
              help="The learner's logits times this are added to the target's: a step from"
              " its policy rather than a jump.")
@_lockstep_options("1,4,1,1", 50)
def train_rollouts(out, rounds, network, opponents_text, self_share, temperature,
                   target_temperature, others_temperature, rollout_temperature, prior,
                   players_text, weights_text, chunk, seed):
    """Play rounds with the learner network at tables of itself and of other models, and save
    each of its decisions with a target from rollouts: every card of its hand played out to
    the end of the round from the true deal, every seat by its own model; the cards that
    cost fewer bullheads get the larger shares. One step of policy iteration: a network
    trained on it answers those tables better. A progress bar goes to stderr."""
    from .learn.rollouts import RolloutConfig

    config = RolloutConfig(network=network,
                           opponents=tuple(o for o in opponents_text.split(",") if o),
                           self_share=self_share, temperature=temperature,
                           target_temperature=target_temperature,
                           others_temperature=others_temperature,
                           rollout_temperature=rollout_temperature, prior=prior, rounds=rounds,
                           chunk_rounds=chunk, seed=seed,
                           players=tuple(_numbers(players_text, int, "--players")),
                           shares=tuple(_numbers(weights_text, float, "--weights")))
    _generate(config, out)


@train.command("first-card")
@click.option("--data", required=True, help="Folder of the examples (made if missing;"
              " chunks already there are kept, so a stopped run resumes).")
@click.option("--out", required=True, help="Write the weights (.npz) here.")
@click.option("--positions", "positions_text", default="20000,12000,3000", show_default=True,
              help="Positions of 5, 6 and 7 cards a hand, comma-separated.")
@click.option("--node-roots", type=click.IntRange(0, MAX_GAMES), default=0, show_default=True,
              help="Also label new nodes of 5-7 cards that searches of this many seeded"
              " roots of 8-10 cards meet (first part of each search).")
@click.option("--epochs", type=click.IntRange(1, 10000), default=60, show_default=True)
@click.option("--jobs", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Processes solving positions.")
@click.option("--seed", type=SEED, default=1, show_default=True)
def train_first_card(data, out, positions_text, node_roots, epochs, jobs, seed):
    """Train the exact search's opening-card model: seeded positions of 5, 6 and 7 cards a
    hand (and with --node-roots the nodes a search meets) solved exactly, each card's
    features and margin (its worst entry) kept, one small network per hand size fitted to
    pick the card of the largest margin (numpy only). The shipped weights are
    solver/exact/weights/first-card-v1.npz. Progress on stderr."""
    from .exact.firstcard import LEVELS, WEIGHTS_FILE
    from .exact.firstcard_train import train as train_model

    check_writable(out, WEIGHTS_FILE)        # before the hours of solving, not after
    counts = _numbers(positions_text, int, "--positions")
    if len(counts) != len(LEVELS) or min(counts) < 10 or max(counts) > MAX_GAMES:
        raise errors.ConfigError(f"--positions must be {len(LEVELS)} counts in 10..{MAX_GAMES},"
                                 f" got {errors.quote(positions_text)}")
    bars = {}

    def progress(cards, done, total):
        if cards not in bars:
            for bar in bars.values():
                bar.close()
            bars[cards] = GamesProgress(total, "chunks of search nodes" if cards == "nodes"
                                        else f"chunks of {cards}-card positions")
        bars[cards](done)

    try:
        train_model(data, out, dict(zip(LEVELS, counts)), seed, jobs, epochs,
                    report=click.echo, progress=progress, node_roots=node_roots)
    finally:
        for bar in bars.values():
            bar.close()
    click.echo(f"weights written to {out}")


@train.command("fit")
@click.option("--data", required=True, multiple=True,
              help="Folder of the chunks (nimmt train generate); repeat to train on several.")
@click.option("--out", required=True, help="Folder of the run: checkpoint.pt, log.jsonl"
              " (a run stopped there continues from its last epoch).")
@click.option("--export", "export_path", default=None, help="Write the weights (.npz) here.")
@click.option("--hidden", type=click.IntRange(1, 1024), default=64, show_default=True)
@click.option("--epochs", type=click.IntRange(1, 10000), default=30, show_default=True)
@click.option("--batch", type=click.IntRange(1, 1 << 16), default=256, show_default=True)
@click.option("--lr", type=NumberRange(0, 1, min_open=True), default=2e-3, show_default=True)
@click.option("--target-temperature", type=NumberRange(0.01, 100), default=1.0,
              show_default=True, help="Sharpen (below 1) the teacher's distributions: each"
              " share raised to 1/T.")
@click.option("--init", default="", help="Start from these weights (a .npz, or a shipped"
              " name such as net-v3.npz) instead of random ones: fine-tuning.")
@click.option("--seed", type=SEED, default=0, show_default=True)
def train_fit(data, out, export_path, hidden, epochs, batch, lr, target_temperature, init,
              seed):
    """Train the network on the saved games (needs PyTorch: pip install 'nimmt[train]'),
    one CPU thread, deterministic for a seed; one line per epoch."""
    from .learn.model import WEIGHTS_FILE
    from .learn.train import TrainConfig, train as run_training

    for folder in data:
        if not os.path.isdir(folder):
            raise errors.ConfigError(f"no such folder: {folder}")
    if export_path is not None:
        check_writable(export_path, WEIGHTS_FILE)  # before the training, not after

    def report(line):
        # held-out figures only where there are some: too few rounds give no validation
        # set (rounds numbered 9 mod 10), self-play data no policy targets
        parts = [f"epoch {line['epoch']:>3}", f"train ce {line['train_ce']:.4f}"]
        if "valid_ce" in line:
            parts += [f"valid ce {line['valid_ce']:.4f}", f"agree {100 * line['valid_agree']:.1f}%"]
        if "valid_value_rmse" in line:
            parts.append(f"value rmse {line['valid_value_rmse']:.2f}")
        else:
            parts.append("no validation rounds")
        click.echo("  ".join(parts + [f"{line['seconds']:.1f} s"]))

    config = TrainConfig(hidden=hidden, epochs=epochs, batch=batch, lr=lr, seed=seed,
                         target_temperature=target_temperature, init=init)
    done = [0]

    def epoch_done(line):
        done[0] = line["epoch"]
        report(line)
    try:
        net = run_training(data, out, config, report=epoch_done)
    except (KeyboardInterrupt, Interrupted):
        if done[0]:
            click.echo(f"train: {done[0]} of {epochs} epochs done in {out}; the same command"
                       " goes on from there", err=True)
        raise
    if export_path:
        net.save(export_path)
        click.echo(f"weights written to {export_path}")


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
        from .advice import EXACT_DURATION, PROVISIONAL_FROM
        from .text.solution import format_exact_duration
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
            from .advice import provisional_strategies
            from .exact.engine import proven_bounds
            from .text.solution import format_provisional
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
    from .exact import Engine
    from .exact.graph import GRAPH_FILE, check_graph_path, strategy_graph, write_graph
    from .text.solution import format_solution

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
        if graph_path is not None:
            write_graph(strategy_graph(engine, solution, depth or 2), graph_path)
    if as_json:
        data = solution.to_dict()
        if deduced is not None:
            data["deduced"] = deduced + 1
        click.echo(json_by_key(data))
    else:
        if deduced is not None:
            click.echo(known_hand(deduced, game.hands[deduced]))
        click.echo(format_solution(solution, show_stats))
    if engine.interrupted:
        # Ctrl-C after the proof, while the other cards' values were computed: what is
        # printed is proven, and the exit status still says the command was interrupted
        raise Interrupted()


def json_by_key(data: dict) -> str:
    """A JSON object with one top-level key per line, each value compact."""
    items = [f"  {json.dumps(key)}: {json.dumps(value)}" for key, value in data.items()]
    return "{\n" + ",\n".join(items) + "\n}"


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
                   " viewer's is lower than every row end: which row to take (a hidden hand;"
                   " --bot and --seed apply).")
def best(position, as_json, exact_only, progress_file, max_nodes, time_limit, tt_mb, threads,
         iterations, seconds, seed, jobs, bot, revealed):
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
    the hidden hands by the cards the others played in them.

    \b
    Examples:
      nimmt best positions/example.json
      echo '104; 20, 92, 65, 103; 5 10 11 21 24 37 40 53 85 101, ?, ?, ?' | nimmt best - --seconds 2
      nimmt best positions/records/four_players_seen_by_1.json
    """
    from .advice import advise, uses_exact_solver
    from .text.advice import format_advice

    game, view = load_position_or_record(position)
    game, deduced = game.deduced()     # 2 players, 24 cards: a hidden hand may be known
    exact = uses_exact_solver(game)
    if revealed is not None:
        best_row(game, view, revealed, exact, bot, seed, as_json,
                 [name for name, value in (("--iterations", iterations), ("--seconds", seconds),
                                           ("--jobs", jobs), ("--max-nodes", max_nodes),
                                           ("--time-limit", time_limit), ("--tt-size", tt_mb),
                                           ("--threads", threads), ("--exact-only", exact_only),
                                           ("--progress-file", progress_file))
                  if value not in (None, False)])
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


def best_row(game: Position, view: Optional[PlayerView], revealed: str, exact: bool,
             bot: Optional[str], seed: Optional[int], as_json: bool, given: List[str]) -> None:
    """`best --revealed`: the row the viewer takes with a card lower than every row end."""
    from .advice import DEFAULT_PLAYER, hidden_row_advice
    from .text.advice import format_row_advice
    if exact:
        raise errors.NimmtError("--revealed is for a hidden hand: with both hands known, best"
                                " names the row against each card of the other's strategy")
    if given:
        raise errors.NimmtError(f"{', '.join(given)} cannot be used with --revealed (it asks"
                                f" the bot's row choice: --bot and --seed apply)")
    cards = [token for token in revealed.replace(",", " ").split()]
    if not cards or not all(token.isdigit() for token in cards):
        raise errors.NimmtError(f"--revealed {errors.quote(revealed)}: cards as numbers, one a"
                                f" player in seat order (\"3 45 67 88\")")
    advice = hidden_row_advice(game, [int(c) for c in cards], (bot or DEFAULT_PLAYER).strip(),
                               seed or 0, view)
    click.echo(json_by_key(advice) if as_json else format_row_advice(advice))


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
@round_option
def review(record, as_json, reviewer, time_limit, iterations, seed, tt_mb, round_number):
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
    Example:
      nimmt review positions/records/six_turns.json
    """
    from .review import DEFAULT_SEARCH_ITERATIONS, DEFAULT_TIME_LIMIT, REVIEWER, review_record
    from .text.progress import ReviewProgress
    from .text.review import format_review

    data = load_record(record, round_number)
    progress = ReviewProgress()
    try:
        result = review_record(data, DEFAULT_TIME_LIMIT if time_limit is None else time_limit,
                               iterations or DEFAULT_SEARCH_ITERATIONS, seed, tt_mb, progress,
                               reviewer or REVIEWER)
    finally:
        progress.close()
    click.echo(json_by_key(result.to_dict()) if as_json else format_review(result))


# batch ------------------------------------------------------------------------------------
@main.group()
def batch():
    """Many positions at once (docs/formats.md, "Batch results")."""


@batch.command("solve")
@click.argument("positions")
@click.option("--out", "out", required=True, metavar="RESULTS.jsonl",
              help="The results file: one JSON line a position, appended as each finishes;"
                   " an existing one is resumed.")
@click.option("--jobs", "-j", type=click.IntRange(1, MAX_JOBS), default=None,
              help="Worker processes, one per core (more share the cores). Default 1.")
@click.option("--time-limit", type=NumberRange(0), default=0.0,
              help="Stop each position after S seconds (0: no limit): status limit.")
@click.option("--max-nodes", type=click.IntRange(0, MAX_NODES), default=0,
              help="Stop each position after N nodes (0: no limit): status limit.")
@click.option("--card-values", is_flag=True,
              help="Add every card's exact value (on a full deal about as costly as the solve).")
@click.option("--row-choices", is_flag=True,
              help="Add the first turn's row choices: each joint play of the equilibrium whose"
                   " lower card is too low, its best row against the cheapest (for 'nimmt"
                   " batch report').")
@click.option("--tt-size", "tt_mb", type=NumberRange(0.001, MAX_TT_MB), default=None,
              help="Each worker's table in MB (default: by hand size, capped so that the"
                   " workers fit in the memory available).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Solve on this Dask distributed cluster (e.g. tcp://host:8786) instead of"
                   " local workers; needs the batch extra.")
def batch_solve(positions, out, jobs, time_limit, max_nodes, card_values, row_choices, tt_mb,
                scheduler):
    """Solve every position of POSITIONS (one a line, JSON or text notation; - for stdin).

    Writes one JSON line a position to --out as each finishes (status solved, limit or
    error; docs/formats.md). A line that is no position of the 2-player 24-card game with
    both hands is recorded as an error and the batch goes on. Run the same command again to
    resume: the lines done are skipped (a results file of another input is refused), a torn
    last line is removed. Ctrl-C stops it cleanly (exit status 130); a finished batch exits
    with 0 when every position of the results file is solved, else with 5 (the counts are
    on stderr).

    \b
    Example:
      nimmt deal --count 20 --seed 1 --cards 6 --out six.jsonl
      nimmt batch solve six.jsonl --out six-results.jsonl --jobs 2
    """
    from .batch.memory import available_mb, plan_tables
    from .batch.results import ResultsFile
    from .batch.runner import BatchOptions, BatchSummary, read_tasks, run_batch
    from .reading import read_source
    from .text.batch import (format_interrupted, format_jobs_note, format_resume,
                             format_summary, format_tables)
    from .text.progress import BatchProgress

    if scheduler is not None and jobs is not None:
        raise errors.NimmtError("--jobs sets local workers: with --scheduler the cluster's"
                                " workers solve")
    if out == "-":
        raise errors.NimmtError("--out - : the results must go to a file (a stopped batch"
                                " resumes from it), not to stdout")
    jobs = jobs or 1
    tasks = read_tasks(read_source(positions, "positions, one a line"))
    results = ResultsFile(out)
    results.lock()
    try:
        state = results.resume({task.line: task.key for task in tasks},
                               {"card_values": card_values, "row_choices": row_choices})
        results.check_writable()
        todo = [task for task in tasks if task.line not in state.done]
        summary = BatchSummary(len(tasks), skipped=len(tasks) - len(todo),
                               torn_bytes=state.torn_bytes, unsolved_before=state.unsolved)
        say = lambda line: line and click.echo(line, err=True)
        say(format_resume(summary.skipped, summary.total, state.torn_bytes, out))
        sizes = {task.position.hand_size for task in todo if task.position is not None}
        client = None
        if scheduler is not None:
            from .batch.cluster import cluster_tables, connect
            client = connect(scheduler)
        try:
            if client is not None:
                tables = cluster_tables(client, sizes, tt_mb)
            else:
                solvable = sum(1 for task in todo if task.position is not None)
                tables = plan_tables(max(1, min(jobs, solvable)), sizes, tt_mb, available_mb())
            if sizes:
                say(format_tables(tables, scheduler))
                say(None if client is not None else format_jobs_note(tables.workers))
            options = BatchOptions(Limit(nodes=max_nodes, seconds=time_limit), card_values, tables,
                                   row_choices)
            progress = BatchProgress(summary.total, summary.skipped)
            progress(summary.done)
            on_result = lambda _, s: progress(s.done, s.counts["error"])
            try:
                if client is not None:
                    from .batch.cluster import run_on_cluster
                    run_on_cluster(client, todo, results, options, on_result, summary)
                else:
                    run_batch(todo, results, options, jobs, summary=summary, on_result=on_result)
            except KeyboardInterrupt:
                progress.close()
                say(format_interrupted(summary, out))
                raise
            finally:
                progress.close()
        finally:
            if client is not None:
                client.close()
        say(format_summary(summary, out))
        return ExitStatus.NOT_ALL_SOLVED if summary.unsolved else ExitStatus.OK
    finally:
        results.unlock()


@batch.command("report")
@click.argument("results", metavar="RESULTS.jsonl")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--plots", "plots_dir", default=None, metavar="DIR",
              help="Also draw the report's figures as PNG files in DIR (made if missing);"
                   " needs the plots extra (matplotlib).")
def batch_report(results, as_json, plots_dir):
    """Figures of a batch's results file (nimmt batch solve): the values' distribution,
    mixed first turns and support sizes, row choices, solve seconds by cards a hand.

    A torn last line is skipped, lines stopped by a limit and errors are counted apart
    (docs/report.md says what each figure counts).

    \b
    Example:
      nimmt batch report positions/batch/results.jsonl --plots plots/
    """
    from .batch.report import read_report
    from .text.report import format_plot, format_report

    report = read_report(results)
    written = []
    if plots_dir is not None:
        from .batch.plots import write_plots
        written = write_plots(report, plots_dir)
    click.echo(json_by_key(report.to_dict()) if as_json else format_report(report, results))
    for path in written:
        click.echo(format_plot(path), err=True)
