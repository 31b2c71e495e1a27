"""The `nimmt` command group and what every command shares.

Every command (the other modules of this package) is registered on `main` (a `NimmtGroup`),
which turns bad input anywhere, usage errors included, into one line on stderr, `nimmt:
error: <message>`, and exit status 2: commands simply raise `errors.NimmtError` (or let
OSError/ValueError through). A search stopped by a limit (`errors.SearchLimitError`) is one
line too, with exit status 3; the input of `nimmt play` ending before the game
(`errors.EndOfInput`) exits with 4, a finished batch with positions not solved with 5 (the
command returns it), Ctrl-C with 130.
`ExitStatus` holds them all, the same for every command.
"""
import errno
import io
import json
import math
import os
import signal
import sys
from enum import IntEnum
from typing import Tuple

import click

from .. import errors
from ..errors import EndOfInput, Interrupted
from ..files import stop_name, stop_on_termination
from ..limits import MAX_THRESHOLD


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
        whole_writes()
        if sys.stdout is None:          # started with stdout closed (>&-): no reader
            sys.stdout = ClosedOutput()
        try:
            # the stop signals raise KeyboardInterrupt from here on (the entry point's guard,
            # which ends the process at once, held them until now)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            stop_on_termination()
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
            sys.stdout.flush()          # a closed or full stdout is found here, not at exit
        except (OutputClosed, BrokenPipeError):
            output_closed()
        except NoArgsIsHelpError as exc:          # bare `nimmt`: the help, not an error
            click.echo(exc.ctx.get_help())
            rv = 0
        except click.ClickException as exc:      # usage errors: bad option, missing argument...
            fail(_usage_message(exc))
        except (Interrupted, KeyboardInterrupt):  # Ctrl-C (or SIGTERM) in a command, or before
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


VARIANTS = click.Choice(["standard", "10n+4"])


round_option = click.option(
    "--round", "round_number", type=int, default=None, metavar="N",
    help="The round to take from a file of several (a 'play --record' file, a 'tournament"
         " --out' file): the N-th, 1 first, in file order; -1 the last, -2 the one before.")


def json_by_key(data: dict) -> str:
    """A JSON object with one top-level key per line, each value compact."""
    items = [f"  {json.dumps(key)}: {json.dumps(value)}" for key, value in data.items()]
    return "{\n" + ",\n".join(items) + "\n}"


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
