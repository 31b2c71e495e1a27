"""The results file of a batch: one JSON object a line, appended as each position finishes.

Each line is written by one `os.write`, then flushed to disk (`os.fsync`), with Ctrl-C held
back meanwhile: a kill can leave a part of a line only at the very end of the file. Opening
the file to resume removes such a torn last line (a last line without its newline), then
reads which input lines are done, keyed by their line number and their position: a file
written for another input is refused, never mixed with the new results. An error marked
`retry` (the machine failed, not the position: out of memory, workers lost) does not make
its line done: the resumed run solves it again and appends the new result, which stands in
place of the old one when `read` reads the lines back for a report (leaving a torn last
line in place). One run at a time writes a file: `lock` refuses a second.
"""
import json
import os
try:
    import fcntl
except ImportError:          # Windows: no advisory locks, and no check for a second run
    fcntl = None
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Set, Tuple

from .. import errors
from ..files import interrupts_held, regular_target

_HELD: Set[int] = set()      # this process's lock descriptors (ResultsFile.lock)


def _drop_held_locks() -> None:
    """In a child forked from a run (a worker), close the run's lock descriptors: the lock
    is the run's, and a worker left behind by a killed run must not keep it."""
    for fd in _HELD:
        try:
            os.close(fd)
        except OSError:
            pass
    _HELD.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_drop_held_locks)


@dataclass(frozen=True)
class ResumeState:
    """What a results file already holds: the input lines done (and how many of them are not
    solved), and whether a torn last line was removed (how many bytes)."""
    done: Set[int]
    torn_bytes: int = 0
    unsolved: int = 0      # of the lines done, those not solved (status limit or error)


def whole_lines(data: bytes) -> int:
    """The length of `data` without a torn last line (one without its newline)."""
    return len(data) if not data or data.endswith(b"\n") else data.rfind(b"\n") + 1


STATUSES = ("solved", "limit", "error")
_SHAPE = "(a JSON object with line and position)"


def _is_result(record: Any) -> bool:
    """A result line's shape: a JSON object with its input line and position."""
    return (isinstance(record, dict) and errors.is_integer(record.get("line"))
            and isinstance(record.get("position"), str))


def _is_whole(record: Dict[str, Any]) -> bool:
    """A result a run can stand on: a status, and a number as the value of a solved one (a
    report checks the rest)."""
    value = record.get("value")
    return record.get("status") in STATUSES and (
        record["status"] != "solved"
        or isinstance(value, (int, float)) and not isinstance(value, bool))


class ResultsFile:
    """The results file at `path`, checked against the input's keys (line number -> the
    position's text notation, or the line itself when it is not a position)."""

    def __init__(self, path: str):
        self.path = path
        self.name = errors.quote(path, errors.SHORT_PATH)
        self._lock_fd = None
        self._created = False

    def lock(self) -> None:
        """Hold the file for this process (created if missing) until `unlock` or the
        process ends; refuse it when another run holds it: two runs would solve every
        position twice and write each result twice."""
        try:
            # a device or a pipe would never give a results file back (and a pipe blocks)
            regular_target(self.path)
            existed = os.path.exists(self.path)
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as exc:
            raise errors.NimmtError(f"cannot write {self.name}: {exc.strerror}") from None
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise errors.NimmtError(f"{self.name} is being written by another run of"
                                        " 'nimmt batch solve': wait for it to end, or give"
                                        " another --out") from None
            except OSError:
                pass         # a file system without locks: the run goes on unguarded
        self._lock_fd = fd
        self._created = not existed
        _HELD.add(fd)

    def unlock(self) -> None:
        """Release the file; one this run made and left empty (it stopped before its first
        result) is removed."""
        if self._lock_fd is not None:
            if self._created and os.fstat(self._lock_fd).st_size == 0:
                try:
                    os.unlink(self.path)
                except OSError:
                    pass
            _HELD.discard(self._lock_fd)
            os.close(self._lock_fd)        # closing releases the lock
            self._lock_fd = None

    def resume(self, keys: Mapping[int, str], extras: Mapping[str, bool]) -> ResumeState:
        """The lines done, once a torn last line is removed; refuse a file that is not a
        batch's results, whose lines are not those of this input, or whose solved lines
        were made with other `extras` (result keys by whether this run writes them), and
        leave it as it was."""
        data = self._read(missing_ok=True)
        keep = whole_lines(data)
        if keep < len(data) and not data[keep:].startswith(b"{"):
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
        if keep < len(data):
            self._truncate(keep)
        return ResumeState(done, len(data) - keep, unsolved)

    def read(self) -> Tuple[List[Dict[str, Any]], int]:
        """The last whole result line of each input line (a line solved again after an error
        marked `retry` stands in place of it), as written, and the bytes of a torn last
        line, left in place (reading never changes the file); refuse a file that is missing
        or is not a batch's results."""
        data = self._read(missing_ok=False)
        keep = whole_lines(data)
        last: Dict[int, Dict[str, Any]] = {}
        for record in self._records(data[:keep]):
            last[record["line"]] = record
        return list(last.values()), len(data) - keep

    def _read(self, missing_ok: bool) -> bytes:
        try:
            with open(self.path, "rb") as handle:
                return handle.read()
        except FileNotFoundError:
            if missing_ok:
                return b""
            raise errors.NimmtError(f"cannot read {self.name}: no such file") from None
        except OSError as exc:
            raise errors.NimmtError(f"cannot read {self.name}: {exc.strerror}") from None

    def _records(self, data: bytes, advice: str = "") -> List[Dict[str, Any]]:
        records = []
        for number, raw in enumerate(data.splitlines(), 1):
            try:
                # utf-8-sig: an editor may have put a byte-order mark before the first line
                record = json.loads(raw.decode("utf-8-sig" if number == 1 else "utf-8"))
            except (UnicodeError, ValueError, RecursionError):     # nested too deep: no result
                record = None
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

    def _truncate(self, size: int) -> None:
        try:
            with open(self.path, "r+b") as handle:
                handle.truncate(size)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as exc:
            raise errors.NimmtError(f"cannot repair {self.name}: {exc.strerror}") from None

    def check_writable(self) -> None:
        """Refuse a file that cannot be appended to before any solving starts."""
        self.append_bytes(b"")

    def append(self, record: Dict[str, Any], written: Callable[[], None] = None) -> None:
        """Append `record` as one line, on disk when this returns; `written()` is called once
        it is, before a Ctrl-C held meanwhile takes its course (a count of the lines stays
        true)."""
        text = json.dumps(record, allow_nan=False, separators=(", ", ": ")) + "\n"
        self.append_bytes(text.encode("utf-8"), written)

    def append_bytes(self, data: bytes, written: Callable[[], None] = None) -> None:
        try:
            with interrupts_held():     # Ctrl-C waits until the line is whole and on disk
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
                try:
                    view = memoryview(data)
                    while view:
                        view = view[os.write(fd, view):]
                    os.fsync(fd)
                finally:
                    os.close(fd)
                if written is not None:
                    written()
        except OSError as exc:
            raise errors.NimmtError(f"cannot write {self.name}: {exc.strerror}") from None
