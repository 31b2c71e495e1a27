"""The records file of `nimmt play --record FILE`: one game record (docs/formats.md) a line,
each round's written whole and on disk as the round ends, so that a game stopped or
abandoned keeps the rounds it finished. Games add their rounds to the file's end; `nimmt
review FILE --round N` and `nimmt replay FILE --round N` take any of them.

A line is the round's record with every hand (the table's view: `review` grades every
player), plus two notes that records may carry and no reader needs: `seats` (the name of
each seat) and `round` (1 for a game's first).
"""
import shlex
from typing import Any, Dict, List, Optional, Sequence

from .. import errors
from ..linefile import LineFile, cut_short, json_line, whole_lines


TORN = b'{"deck": '       # how every line written here starts (Position.to_dict's first key)


def _is_record(value: Any) -> bool:
    """A game record's line (a tournament's games line is not: a record added to its file
    would break its resuming)."""
    return isinstance(value, dict) and "turns" in value


def _rounds(data: bytes) -> Optional[List[Any]]:
    """The game records of `data`, lines of them ([] when blank); None for anything else."""
    records = [json_line(line, number == 0)
               for number, line in enumerate(data.splitlines()) if line.strip()]
    return records if all(_is_record(r) for r in records) else None


def _torn(data: bytes) -> bool:
    """`data` is a line written here and cut short: it starts as they do, and is the start of
    JSON (a line with a mistake in it is someone's, not torn)."""
    return data.startswith(TORN) and cut_short(data)


class RecordsFile(LineFile):
    def __init__(self, path: str):
        super().__init__(path, "nimmt play", "--record")
        self.before = 0          # rounds the file held when opened
        self.written = 0         # rounds this game added

    def open(self) -> None:
        """Hold the file for this game and check it: a new one, or one of records (a torn
        last line, from a game killed while writing, removed). Any other file is refused and
        left as it was: a line added would make it unreadable as what it was."""
        if self.path == "-":
            raise errors.NimmtError("--record needs a file name: the game itself is on"
                                    " standard output")
        self.lock()
        try:
            data = self.read_bytes(missing_ok=True)
            whole = whole_lines(data)
            lines, tail = _rounds(data[:whole]), _rounds(data[whole:])   # tail: no newline
            if lines is None or (tail is None and not _torn(data[whole:])):
                raise errors.NimmtError(f"{self.name} is not a records file (one game record"
                                        " a line): give a new --record file")
            self.before = len(lines) + len(tail or [])
            if tail is not None and whole < len(data):   # whole, but for its newline: kept
                self.append_bytes(b"\n")
            elif whole < len(data):     # a record torn by a kill: the round is lost
                self.truncate(whole)
            self.check_writable()
        except BaseException:
            self.unlock()
            raise

    def write_round(self, record: Dict[str, Any], seats: Sequence[str], number: int) -> None:
        """Append a finished round's record, with the seats' names and its number in the
        game (1 first) as notes; on disk when this returns."""
        self.append(dict(record, seats=list(seats), round=number))
        self.written += 1

    def kept(self) -> str:
        """Where this game's rounds are, for the end of the game ('' when none are)."""
        if not self.written:
            return ""
        first, last = self.before + 1, self.before + self.written
        rounds = f"round {first}" if first == last else f"rounds {first} to {last}"
        return (f"this game's {rounds} of {self.name}: nimmt review"
                f" {shlex.quote(self.path)} --round {first}")
