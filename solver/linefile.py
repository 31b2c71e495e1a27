"""An append-only file of JSON lines that one run writes as its work finishes, so that a run
stopped by Ctrl-C, a kill or a crash loses nothing it finished and the same command resumes
it (the results of `nimmt batch solve`, the games of `nimmt tournament --out`).

- Each line is written by one `os.write`, then flushed to disk (`os.fsync`), with Ctrl-C held
  back meanwhile: a kill can leave a part of a line only at the very end of the file (a torn
  last line, without its newline), which `whole_lines` leaves out and `truncate` removes.
- One run at a time writes a file: `lock` holds it (an advisory lock, released when the
  process ends however it ends) and refuses a second run. A child forked from the run (a
  worker) drops the lock, so that a worker left behind by a killed run never keeps it.
"""
import contextlib
import json
import os
import re
try:
    import fcntl
except ImportError:          # Windows: no advisory locks, and no check for a second run
    fcntl = None
from typing import Any, Callable, Dict, List, Set

from . import errors
from .files import interrupts_held, regular_target

_HELD: Set[int] = set()      # this process's lock descriptors (LineFile.lock)


def _drop_held_locks() -> None:
    for fd in _HELD:
        try:
            os.close(fd)
        except OSError:
            pass
    _HELD.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_drop_held_locks)


def whole_lines(data: bytes) -> int:
    """The length of `data` without a torn last line (one without its newline)."""
    return len(data) if not data or data.endswith(b"\n") else data.rfind(b"\n") + 1


def last_line_whole(data: bytes, keep: int, is_line: Callable[[Any], bool]) -> bool:
    """Whether the last line of `data` past its whole lines (`keep` bytes) lacks only its
    newline: a line of the file's kind (`is_line` of its JSON value) is a line a kill cut
    just before the newline, to be kept, where a torn line is cut."""
    return keep < len(data) and is_line(json_line(data[keep:], keep == 0))


_NUMBER_END = re.compile(r"\.?[0-9]*([eE][-+]?[0-9]*)?")      # what follows a number's digits
_ESCAPE_START = re.compile(r"u[0-9a-fA-F]{0,4}(\\(u[0-9a-fA-F]{0,4})?)?")   # to the end


def cut_short(data: bytes) -> bool:
    """Whether `data` is the start of a JSON value cut off (a line a kill tore), not text with
    a mistake in it: the start of valid JSON fails to parse only at its very end."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.reason != "unexpected end of data":     # a character cut at the end only
            return False
        text = data[:exc.start].decode("utf-8", "replace")
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        rest = text[exc.pos:]
        return (exc.msg.startswith("Unterminated string") or not rest.strip()
                or exc.msg.startswith("Invalid \\uXXXX escape")
                and _ESCAPE_START.fullmatch(rest) is not None
                or any(word.startswith(rest) for word in ("true", "false", "null"))
                or rest == "-"
                or exc.pos > 0 and text[exc.pos - 1].isdigit()
                and _NUMBER_END.fullmatch(rest) is not None)
    except RecursionError:
        return False
    return False                                       # whole JSON: not cut


def json_line(raw: bytes, first: bool) -> Any:
    """One line's JSON value, None if it is not JSON (a damaged line); the first line may
    start with a byte-order mark (an editor may have put one there)."""
    try:
        return json.loads(raw.decode("utf-8-sig" if first else "utf-8"))
    except (UnicodeError, ValueError, RecursionError):      # nested too deep: not ours
        return None


def line_bytes(record: Dict[str, Any]) -> bytes:
    """`record` as the one line a file of JSON lines holds of it."""
    return (json.dumps(record, allow_nan=False, separators=(", ", ": ")) + "\n").encode("utf-8")


class LineFile:
    """The file at `path`; `command` names the run that writes it and `option` the option
    that names the file (in the refusal of a second run)."""

    def __init__(self, path: str, command: str, option: str = "--out"):
        self.path = path
        self.name = errors.quote(path, errors.SHORT_PATH)
        self.command = command
        self.option = option              # the command's option that names the file
        self._lock_fd = None
        self._created = False
        self._whole = self._size = 0       # run_lines: the whole lines' bytes, the file's
        self._newline = False              # run_lines: the last line lacks only its newline

    def lock(self) -> None:
        """Hold the file for this process (created if missing) until `unlock` or the
        process ends; refuse it when another run holds it: two runs would do every piece of
        work twice and write it twice."""
        if self.path == "-":
            raise errors.NimmtError(f"'-' cannot be the file of '{self.command}': it is read"
                                    " back to resume a stopped run, so it needs a name")
        try:
            # a device or a pipe would never give the file back (and a pipe blocks)
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
                                        f" '{self.command}': wait for it to end, or give"
                                        f" another {self.option}") from None
            except OSError:
                pass         # a file system without locks: the run goes on unguarded
        self._lock_fd = fd
        self._created = not existed
        _HELD.add(fd)

    def unlock(self) -> None:
        """Release the file; one this run made and left empty (it stopped before its first
        line) is removed."""
        if self._lock_fd is not None:
            if self._created and os.fstat(self._lock_fd).st_size == 0:
                try:
                    os.unlink(self.path)
                except OSError:
                    pass
            _HELD.discard(self._lock_fd)
            os.close(self._lock_fd)        # closing releases the lock
            self._lock_fd = None

    def read_bytes(self, missing_ok: bool) -> bytes:
        try:
            with open(self.path, "rb") as handle:
                return handle.read()
        except FileNotFoundError:
            if missing_ok:
                return b""
            raise errors.NimmtError(f"cannot read {self.name}: no such file") from None
        except OSError as exc:
            raise errors.NimmtError(f"cannot read {self.name}: {exc.strerror}") from None

    def run_lines(self, first: Dict[str, Any],
                  is_line: Callable[[Any], bool] = lambda value: False) -> List[bytes]:
        """The whole lines of a file whose run writes `first` as its first line; a new or
        empty file (a torn first line at most) gets that line and gives []. A last line
        without its newline is whole if `is_line` takes its JSON value, else torn. A torn
        last line stays until `cut_torn_line`, once the caller has accepted the rest: a file
        it refuses is left as it was."""
        data = self.read_bytes(missing_ok=True)
        self._whole, self._size = whole_lines(data), len(data)
        self._newline = self._whole > 0 and last_line_whole(data, self._whole, is_line)
        if self._newline:
            return data.splitlines()
        lines = data[:self._whole].splitlines()
        if not lines:
            if data:
                # a torn first line of this run is a part of that line; anything else is
                # someone's file without a newline, which must not be cut
                if not line_bytes(first).startswith(data):
                    raise errors.NimmtError(
                        f"{self.name} is not a file of '{self.command}' (it holds one line"
                        f" of something else); give a new {self.option} file")
                self.truncate(0)
            self.append(first)
        return lines

    def cut_torn_line(self) -> int:
        """Remove the torn last line `run_lines` found, if any (one that lacks only its
        newline gets it); returns the bytes removed."""
        if self._newline:
            self.append_bytes(b"\n")
        elif self._whole < self._size:
            self.truncate(self._whole)
            return self._size - self._whole
        return 0

    def truncate(self, size: int) -> None:
        """Cut the file to `size` bytes (a torn last line removed), on disk."""
        try:
            with open(self.path, "r+b") as handle:
                handle.truncate(size)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as exc:
            raise errors.NimmtError(f"cannot repair {self.name}: {exc.strerror}") from None

    def check_writable(self) -> None:
        """Refuse a file that cannot be appended to before any work starts."""
        self.append_bytes(b"")

    def append(self, record: Dict[str, Any], written: Callable[[], None] = None) -> None:
        """Append `record` as one line, on disk when this returns; `written()` is called once
        it is, before a Ctrl-C held meanwhile takes its course (a count of the lines stays
        true)."""
        self.append_bytes(line_bytes(record), written)

    def append_bytes(self, data: bytes, written: Callable[[], None] = None) -> None:
        try:
            with interrupts_held():     # Ctrl-C waits until the line is whole and on disk
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
                try:
                    before = os.fstat(fd).st_size
                    try:
                        view = memoryview(data)
                        while view:
                            view = view[os.write(fd, view):]
                        os.fsync(fd)
                    except OSError:
                        # a full disk took part of the line: cut it, the file stays whole
                        with contextlib.suppress(OSError):
                            os.ftruncate(fd, before)
                        raise
                finally:
                    os.close(fd)
                if written is not None:
                    written()
        except OSError as exc:
            raise errors.NimmtError(f"cannot write {self.name}: {exc.strerror}") from None
