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
from typing import Any, Dict, List, Optional, Tuple

from . import errors
from .core.jsontext import JSON_STARTS, parse_json, to_int
from .core.player import PlayerView
from .core.position import Position
from .core.record import position_after, record_view, replay_steps


def load_position(source: str) -> Position:
    """Read a position from a file path, from stdin when `source` is '-', or from `source`
    itself when it is no file but a position written inline (JSON or the notation).

    The content may be JSON or the text notation.
    """
    return load_position_or_record(source, records=False)[0]


def load_position_or_record(source: str,
                            records: bool = True) -> Tuple[Position, Optional[PlayerView]]:
    """A position read as `load_position` does, and None; or, for a game record, the position
    after its turns and its viewer's view of the round (`core.record.record_view`: the
    `viewer` key, else the first visible hand). With `records` False a record is refused."""
    inline = is_inline(source)
    text = source if inline else read_source(source)
    if text.lstrip().startswith(JSON_STARTS) or not text.strip() or is_json_scalar(text):
        data = parse_json(text)
        if isinstance(data, dict) and "turns" in data:
            if not records:
                raise errors.RecordGivenError(_record_given(source, inline))
            start, outcomes = replay_steps(data)
            return position_after(start, outcomes), record_view(start, outcomes)
        return Position.from_dict(data), None
    return Position.from_text(text), None


def _record_given(source: str, inline: bool) -> str:
    """Why a game record is refused where a position is expected, and what to run instead."""
    if inline:
        return ('the position given is a game record (it has "turns"): for the position after'
                " its turns, save it to a file RECORD, run 'nimmt replay RECORD --json' and"
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
    return (";" in source or source.lstrip().startswith("{")) and not os.path.exists(source)


def _is_terminal(stream: Any) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):     # no stdin, or a closed one
        return False


def read_source(source: str, what: str = "a position") -> str:
    """The text of a file, or of stdin when `source` is '-' (on a terminal, first a line on
    stderr says what is read and how to end it: the command would wait silently otherwise)."""
    name = "stdin" if source == "-" else errors.quote(source, errors.SHORT_PATH)
    try:
        if source == "-":
            if sys.stdin is None:                     # started with stdin closed
                raise errors.NimmtError("cannot read stdin: it is closed")
            if _is_terminal(sys.stdin):
                sys.stderr.write(f"reading {what} from standard input; end it with Ctrl-D\n")
                sys.stderr.flush()
            text = sys.stdin.read()
        else:
            with open(source, encoding="utf-8") as handle:
                text = handle.read()
        text.encode("utf-8")     # stdin may keep bytes that are not UTF-8 as lone surrogates
    except OSError as exc:
        raise errors.NimmtError(f"cannot read {name}: {exc.strerror}") from None
    except UnicodeError:
        raise errors.JsonFormatError(f"{name} is not UTF-8 text") from None
    return text.removeprefix("\ufeff")      # the byte order mark some editors write


def load_record(source: str, round_number: Optional[int] = None) -> Dict[str, Any]:
    """A game record (JSON) from a file path, or from stdin when `source` is '-'. The file
    may also hold several rounds (`records_in`: the records file of `nimmt play --record`,
    the games file of `nimmt tournament --out`): `round_number` (1 first; -1 the last)
    picks one, and is needed when there are more than one."""
    text = read_source(source, "a game record")
    name = "stdin" if source == "-" else errors.quote(source, errors.SHORT_PATH)
    try:
        data = parse_json(text)
    except errors.JsonFormatError:
        records = records_in(text)
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
                                 f" (1..{len(records)}, or -1 for the last)")
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


def records_in(text: str) -> Optional[List[Any]]:
    """Every round of a file of JSON lines, in file order: each line a game record (`nimmt
    play --record`) or a tournament's game line (`nimmt tournament --out`, its first line
    describing the tournament); None when the text is not such lines (blank lines aside)."""
    records: List[Any] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            rounds = _rounds_of(parse_json(line))
        except errors.JsonFormatError:
            return None
        if rounds is None:
            return None
        records.extend(rounds)
    return records
