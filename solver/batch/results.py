"""The results file of a batch: one JSON object a line, appended as each position finishes
(a `linefile.LineFile`: whole lines on disk, a torn last line removed on resuming, one run
at a time).

Opening the file to resume reads which input lines are done, keyed by their line number
and their position: a file written for another input is refused, never mixed with the new
results. An error marked `retry` (the machine failed, not the position: out of memory,
workers lost) does not make its line done: the resumed run solves it again and appends the
new result, which stands in place of the old one when `read` reads the lines back for a
report (leaving a torn last line in place).
"""
import math
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Set, Tuple

from .. import errors
from ..linefile import LineFile, json_line, last_line_whole, whole_lines


@dataclass(frozen=True)
class ResumeState:
    """What a results file already holds: the input lines done (and how many of them are not
    solved), and whether a torn last line was removed (how many bytes)."""
    done: Set[int]
    torn_bytes: int = 0
    unsolved: int = 0      # of the lines done, those not solved (status limit or error)


STATUSES = ("solved", "limit", "error")
_SHAPE = "(a JSON object with line and position)"


def _is_result(record: Any) -> bool:
    """A result line's shape: a JSON object with its input line and position."""
    return (isinstance(record, dict) and errors.is_integer(record.get("line"))
            and record["line"] >= 1 and isinstance(record.get("position"), str))


def _is_whole(record: Dict[str, Any]) -> bool:
    """A result a run can stand on: a status, and a number as the value of a solved one (a
    report checks the rest)."""
    value = record.get("value")
    return record.get("status") in STATUSES and (
        record["status"] != "solved"
        or isinstance(value, (int, float)) and not isinstance(value, bool)
        and math.isfinite(value))


class ResultsFile(LineFile):
    """The results file at `path`, checked against the input's keys (line number -> the
    position's text notation, or the line itself when it is not a position)."""

    def __init__(self, path: str):
        super().__init__(path, "nimmt batch solve")

    def resume(self, keys: Mapping[int, str], extras: Mapping[str, bool]) -> ResumeState:
        """The lines done, once a torn last line is removed; refuse a file that is not a
        batch's results, whose lines are not those of this input, or whose solved lines
        were made with other `extras` (result keys by whether this run writes them), and
        leave it as it was."""
        data = self.read_bytes(missing_ok=True)
        keep = whole_lines(data)
        newline = last_line_whole(data, keep, _is_result)    # a result but for its newline
        if newline:
            keep = len(data)
        elif keep < len(data) and not (data[keep:].startswith(b"{")
                                       or not data[keep:].strip(b"\0")):
            # a torn line starts as a result does; a tail of zero bytes is what a crash
            # can leave of a line the file system had not written yet
            raise errors.NimmtError(f"{self.name} is not a batch results file: its last line"
                                    f" is not a result {_SHAPE};"
                                    f" give a new --out file")
        done: Set[int] = set()
        unsolved = 0
        records = self._records(data[:keep], "; give a new --out file")
        changed = [(number, record) for number, record in enumerate(records, 1)
                   if keys.get(record["line"]) != record["position"]]
        if changed:
            number, record = changed[0]
            line = record["line"]
            if line not in keys:
                what = f"it has a result for line {line}, which the input does not have"
            elif 2 * len(changed) >= len(records):
                what = (f"line {line} of the input is not the position it solved there,"
                        f" {errors.quote(record['position'], 40)}")
            else:          # an input line or two edited since: their results can go
                more = f" (and {len(changed) - 1} more)" if len(changed) > 1 else ""
                raise errors.NimmtError(
                    f"{self.name}: its line {number}{more} is the result of another position"
                    f" than the input's line {line} now: remove those result lines (their"
                    f" positions are solved again) or give a new --out file")
            raise errors.NimmtError(f"{self.name} holds the results of another input: {what};"
                                    f" give a new --out file (or remove this one)")
        for number, record in enumerate(records, 1):
            line = record["line"]
            if not _is_whole(record):
                raise errors.NimmtError(
                    f"{self.name}: its line {number} is not a whole result (a status, and the"
                    f" value if solved); remove that line (its position is solved again) or"
                    f" give a new --out file")
            if record["status"] == "solved":
                for key, wanted in extras.items():
                    if (key in record) != wanted:
                        raise errors.NimmtError(
                            f"{self.name} was written {'without' if wanted else 'with'}"
                            f" --{key.replace('_', '-')} (its line {number}): resume with"
                            f" the options it was made with, or give a new --out file")
            if record.get("retry") is True:
                continue            # the machine failed there: solved again on resuming
            done.add(line)
            unsolved += record["status"] != "solved"
        if newline:
            self.append_bytes(b"\n")
        elif keep < len(data):
            self.truncate(keep)
        return ResumeState(done, len(data) - keep, unsolved)

    def read(self) -> Tuple[List[Dict[str, Any]], int]:
        """The last whole result line of each input line (a line solved again after an error
        marked `retry` stands in place of it), as written, and the bytes of a torn last
        line, left in place (reading never changes the file); refuse a file that is missing
        or is not a batch's results."""
        data = self.read_bytes(missing_ok=False)
        keep = whole_lines(data)
        if last_line_whole(data, keep, _is_result):
            keep = len(data)
        last: Dict[int, Dict[str, Any]] = {}
        for record in self._records(data[:keep]):
            last[record["line"]] = record
        return list(last.values()), len(data) - keep

    def _records(self, data: bytes, advice: str = "") -> List[Dict[str, Any]]:
        records = []
        for number, raw in enumerate(data.splitlines(), 1):
            record = json_line(raw, number == 1)
            if not _is_result(record):
                if records and advice:       # results before it: one damaged line
                    raise errors.NimmtError(
                        f"{self.name}: its line {number} is not a result {_SHAPE} among"
                        f" {len(records)} results before it; remove"
                        f" that line (its position is solved again) or give a new --out file")
                raise errors.NimmtError(
                    f"{self.name} is not a batch results file: its line {number} is not a"
                    f" result {_SHAPE}{advice}")
            records.append(record)
        return records
