"""Where input comes from: a file, standard input (`-`), or a position written inline.

`load_position` reads a position in JSON or the text notation, and refuses a game record
where a position is expected, saying how to get the position after its turns;
`load_record` reads a game record (or picks one round of a file of several);
`load_position_or_record` takes either, a record as the position after its turns with its
viewer's view of them. On a terminal, reading stdin is
announced on stderr (the command would otherwise wait in silence).
"""
import json
import os
import shlex
import sys
from typing import Any, Dict, Iterator, List, Optional, Tuple

from . import errors
from .core.jsontext import JSON_STARTS, parse_json, to_int
from .core.player import PlayerView
from .core.position import Position
from .core.record import position_after, record_view, replay_steps
from .core.turn import TurnOutcome


def load_position(source: str) -> Position:
    """Read a position from a file path, from stdin when `source` is '-', or from `source`
    itself when it is no file but a position written inline (JSON or the notation).

    The content may be JSON or the text notation.
    """
    return load_position_or_record(source, records=False)[0]


def load_position_or_record(source: str, records: bool = True,
                            round_number: Optional[int] = None, turns: Optional[int] = None,
                            viewer: Optional[int] = None
                            ) -> Tuple[Position, Optional[PlayerView]]:
    """A position read as `load_position` does, and None; or, for a game record, the position
    after its turns and its viewer's view of the round (`core.record.record_view`: the
    `viewer` key, else the first visible hand). With `records` False a record is refused.
    `round_number` picks a round of a file of several (`load_record`), `turns` keeps its
    first turns only, `viewer` (0-based) is the seat whose view it is, the other hands hidden:
    any of them needs a record."""
    if (round_number, turns, viewer) != (None, None, None):
        return _record_at(source, round_number, turns, viewer)
    inline = is_inline(source)
    text = source if inline else read_source(source)
    if text.lstrip().startswith(JSON_STARTS) or not text.strip() or is_json_scalar(text):
        try:
            data = parse_json(text)
        except errors.JsonFormatError:
            _refuse_json_lines(text, source, inline, records)
            raise
        if isinstance(data, dict) and "turns" in data:
            if not records:
                raise errors.RecordGivenError(_record_given(source, inline))
            start, outcomes = replay_steps(data)
            return position_after(start, outcomes), record_view(start, outcomes)
        return Position.from_dict(data), None
    return Position.from_text(text), None


def _record_at(source: str, round_number: Optional[int], turns: Optional[int],
               viewer: Optional[int]) -> Tuple[Position, PlayerView]:
    data = load_record(source, round_number)
    if not (isinstance(data, dict) and "turns" in data):
        given = [name for name, value in (("--round", round_number), ("--turns", turns),
                                          ("--viewer", viewer)) if value is not None]
        raise errors.RecordError(f"{', '.join(given)} needs a game record, and"
                                 f" {_source_name(source)} holds a position")
    start, outcomes = replay_turns(data, turns)
    if viewer is not None and viewer >= start.players:
        raise errors.RecordError(f"--viewer {viewer + 1}: the record has {start.players}"
                                 f" players")
    seat = start.visible_seat(viewer, "record", errors.RecordError)
    if viewer is not None:
        # the record as the viewer saw it, every other hand null, replayed so: the turns
        # then keep the cards taken with rows out of play, as for a record given that way
        hands = [hand if k == seat else None for k, hand in enumerate(data["hands"])]
        start, outcomes = replay_turns(dict(data, hands=hands, viewer=seat + 1), turns)
    return position_after(start, outcomes), record_view(start, outcomes, seat)


def replay_turns(data: Any, turns: Optional[int] = None) -> Tuple[Position, List[TurnOutcome]]:
    """A record replayed (`replay_steps`), to its turn `turns` only when given (--turns)."""
    start, outcomes = replay_steps(data)
    if turns is not None:
        if turns > len(outcomes):
            raise errors.RecordError(f"--turns {turns}: the record has"
                                     f" {errors.plural(len(outcomes), 'turn')}")
        outcomes = outcomes[:turns]
    return start, outcomes


def _source_name(source: str) -> str:
    return "stdin" if source == "-" else errors.quote(source, errors.SHORT_PATH)


def _refuse_json_lines(text: str, source: str, inline: bool, records: bool) -> None:
    """A file of JSON values one a line (positions, rounds), where one position is read: said
    so, with the commands that read such files, rather than as a JSON error at line 2 (a
    file of rounds where a command takes one, `records`, as replay and review say it)."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) < 2:
        return
    try:
        parse_json(lines[0])
    except errors.JsonFormatError:
        return
    given = "the position given" if inline else _source_name(source)
    try:
        rounds = records_in(text, given)
    except errors.NimmtError:
        rounds = None
    if rounds and records:
        raise errors.RecordError(f"{given} holds {len(rounds)} rounds: pick one with --round N"
                                 f" (1..{len(rounds)})")
    raise errors.PositionError(
        f"{given} holds {len(lines)} lines of JSON, not one position: a file of positions, one"
        " a line, is for 'nimmt batch solve'; one of rounds, for 'nimmt best', 'nimmt replay'"
        " or 'nimmt review' with --round N")


def _record_given(source: str, inline: bool) -> str:
    """Why a game record is refused where a position is expected, and what to run instead."""
    if inline:
        return ('the position given is a game record (it has "turns"): for the position after'
                " its turns, run 'nimmt replay RECORD --json' with it in place of RECORD and"
                " give that instead")
    if source == "-":
        return ('stdin holds a game record (it has "turns"): for the position after its turns,'
                " pipe it through 'nimmt replay - --json' and give that instead")
    name = errors.quote(source, errors.SHORT_PATH)
    command = errors.cut(f"nimmt replay {shlex.quote(source)} --json", errors.SHORT_PATH)
    return (f'{name} is a game record (it has "turns"): for the position after its turns,'
            f" run '{command}' and give that instead")


def is_json_scalar(text: str) -> bool:
    """`text` is a lone JSON number, string or constant (no position, but JSON: say so)."""
    if ";" in text:
        return False
    try:
        json.loads(text, parse_int=to_int)
    except ValueError:
        return False
    return True


def is_inline(source: str) -> bool:
    """A position written on the command line (notation, or JSON: an object, or an array
    that is none, said so), not a file's name."""
    return (";" in source or source.lstrip().startswith(("{", "["))) \
        and not os.path.exists(source)


def _is_terminal(stream: Any) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):     # no stdin, or a closed one
        return False


MAX_INPUT = 1 << 30     # bytes of one input: more is no position, record or batch (/dev/zero)


MAX_LINE = 1 << 20      # characters of one line of an interactive input (a card, a message)


def read_line(stream: Any, what: str) -> str:
    """One line of `stream` ('' at its end); a line longer than MAX_LINE (an endless input
    without newlines) is refused rather than read without end."""
    line = stream.readline(MAX_LINE + 1)
    if len(line) > MAX_LINE:
        raise errors.NimmtError(f"{what}: a line longer than {MAX_LINE:,} characters")
    return line


def not_utf8(line: str) -> bool:
    """A line decoded with surrogates for its bytes that are not UTF-8 (stdin's way, and
    `read_source(by_line=True)`) holds some."""
    return not line.isascii() and any("\udc80" <= ch <= "\udcff" for ch in line)


def read_lines(stream: Any, what: str) -> Iterator[str]:
    """Every line of `stream`, each by `read_line`, the byte order mark of some editors
    dropped; a line that is not UTF-8 (stdin's undecodable bytes come as surrogates) is
    refused."""
    number = 0
    while True:
        line = read_line(stream, what)
        if not line:
            return
        number += 1
        if number == 1:
            line = line.removeprefix("\ufeff")
        if not_utf8(line):
            raise errors.NimmtError(f"{what}: line {number} is not UTF-8 text")
        yield line


def read_source(source: str, what: str = "a position", by_line: bool = False) -> str:
    """The text of a file, or of stdin when `source` is '-' (on a terminal, first a line on
    stderr says what is read and how to end it: the command would wait silently otherwise);
    at most MAX_INPUT bytes, so that an endless input ends in an error, not out of memory.
    Text that is not UTF-8 is refused; with `by_line` its bytes are kept as surrogates
    (`not_utf8`), for the caller to refuse the lines that hold them."""
    name = _source_name(source)
    try:
        if source == "-":
            if sys.stdin is None:                     # started with stdin closed
                raise errors.NimmtError("cannot read stdin: it is closed")
            if _is_terminal(sys.stdin):
                sys.stderr.write(f"reading {what} from standard input; end it with Ctrl-D\n")
                sys.stderr.flush()
            stream = getattr(sys.stdin, "buffer", None)
            data = stream.read(MAX_INPUT + 1) if stream is not None \
                else sys.stdin.read(MAX_INPUT + 1).encode("utf-8")
        else:
            with open(source, "rb") as handle:
                data = handle.read(MAX_INPUT + 1)
        if len(data) > MAX_INPUT:
            raise errors.NimmtError(f"{name} holds more than {MAX_INPUT:,} bytes: too much"
                                    f" for {what}")
        text = data.decode("utf-8", "surrogateescape" if by_line else "strict")
    except OSError as exc:
        raise errors.NimmtError(f"cannot read {name}: {exc.strerror}") from None
    except UnicodeError:
        raise errors.JsonFormatError(f"{name} is not UTF-8 text") from None
    return text.removeprefix("\ufeff")      # the byte order mark some editors write


def load_record(source: str, round_number: Optional[int] = None) -> Dict[str, Any]:
    """A game record (JSON) from a file path, or from stdin when `source` is '-'. The file
    may also hold several rounds (`records_in`: the records file of `nimmt play --record`,
    the games file of `nimmt tournament --out`): `round_number` (1 first; -1 the last)
    picks one, and is needed when there are more than one. A record may also be written on
    the command line, as JSON."""
    inline = is_inline(source)
    if inline and not source.lstrip().startswith(JSON_STARTS):
        raise errors.RecordError(f"{errors.quote(source, errors.SHORT_PATH)} is no game record:"
                                 " a record is JSON (the text notation holds a position only)")
    text = source if inline else read_source(source, "a game record")
    name = "the record on the command line" if inline else _source_name(source)
    try:
        data = parse_json(text)
    except errors.JsonFormatError:
        records = records_in(text, name)
        if records is None:               # not JSON lines of rounds either: the JSON error
            raise
    else:
        records = _rounds_of(data)
        if records is None:
            if round_number is None:
                return data          # replaying it says what a record lacks
            raise errors.RecordError(f"{name} holds no round to pick with --round: neither a"
                                     " game record nor a games file's line")
    if not records:
        raise errors.RecordError(f"{name} holds no round yet")
    if round_number is None:
        if len(records) == 1:
            return records[0]
        raise errors.RecordError(f"{name} holds {len(records)} rounds: pick one with --round N"
                                 f" (1..{len(records)})")
    if not (1 <= round_number <= len(records) or -len(records) <= round_number <= -1):
        rounds = "1 round" if len(records) == 1 else f"{len(records)} rounds"
        raise errors.RecordError(f"--round {round_number}: {name} holds {rounds}"
                                 f" (1..{len(records)}, or -1..-{len(records)} counted from"
                                 f" the last)")
    return records[round_number - 1 if round_number > 0 else round_number]


def _rounds_of(data: Any) -> Optional[List[Any]]:
    """The rounds of one JSON value: a game record is one, a games file's game line holds
    its rounds' records, a games file's first line none; None for anything else."""
    if isinstance(data, dict):
        if "turns" in data:
            return [data]
        if isinstance(data.get("records"), list):
            return list(data["records"])
        if "tournament" in data:
            return []
    return None


def records_in(text: str, name: str = "the file") -> Optional[List[Any]]:
    """Every round of a file of JSON lines, in file order: each line a game record (`nimmt
    play --record`) or a tournament's game line (`nimmt tournament --out`, its first line
    describing the tournament); None when the text is not such lines (its first line, blank
    lines aside, is none). A later line that is none is refused by its number, but a last
    line without its newline that is not JSON is a line torn by a run stopped mid-write
    (a kill, a full disk): the rounds before it are read."""
    lines = [(number, line) for number, line in enumerate(text.splitlines(), 1)
             if line.strip()]
    records: List[Any] = []
    for index, (number, line) in enumerate(lines):
        why = "neither a game record nor a games file's line"
        try:
            rounds = _rounds_of(parse_json(line))
        except errors.JsonFormatError:
            rounds, why = None, "not JSON"
            if index == len(lines) - 1 and index > 0 and not text.endswith("\n"):
                break                                   # torn by a stopped writer
        if rounds is None:
            if index == 0:
                return None
            raise errors.RecordError(f"{name}: its line {number} is not a round ({why})")
        records.extend(rounds)
    return records
