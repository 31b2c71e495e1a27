"""Output files written whole or not at all: the one place the package writes a file that
a reader might find half-written (a temporary beside it, then a rename into place)."""
import contextlib
import os
import signal
import tempfile
import threading
from typing import Callable, Iterator

from . import errors


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Ctrl-C waits until the block ends, then takes its course (KeyboardInterrupt, or
    whatever handler was there): a write it would cut in the middle finishes first. A
    handler of our own for the time of the block, not a blocked signal: a process with other
    threads (BLAS's) would take a blocked signal on one of them, and Python runs its handler
    on the main thread all the same. Only on the main thread, where Python takes signals."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: caught.append(number))
    try:
        yield
    finally:
        # None: a handler not set from Python; Python's own is the nearest
        signal.signal(signal.SIGINT, signal.default_int_handler if previous is None else previous)
        if caught:
            signal.raise_signal(signal.SIGINT)      # to this thread, under the old handler


def write_atomically(path: str, write: Callable[[str], None], suffix: str = "") -> str:
    """Call `write(temporary)` on a new file beside `path`, then rename it to `path`: a stop
    at any moment leaves the old file or the new one, never a part, and a Ctrl-C during the
    write waits for the new one. `suffix` ends the temporary's name (for writers that go by
    the extension). An OSError becomes a one-line NimmtError; anything else is raised as it
    is, the temporary removed either way."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        handle, temporary = tempfile.mkstemp(prefix="tmp-", suffix=suffix, dir=directory)
    except OSError as exc:
        raise errors.NimmtError(f"cannot write {errors.quote(path, errors.SHORT_PATH)}:"
                                f" {exc.strerror}") from None
    os.close(handle)
    try:
        with interrupts_held():
            write(temporary)
            os.chmod(temporary, 0o644)
            os.replace(temporary, path)
    except BaseException as exc:
        if os.path.exists(temporary):
            os.unlink(temporary)
        if isinstance(exc, OSError):
            raise errors.NimmtError(f"cannot write {errors.quote(path, errors.SHORT_PATH)}:"
                                    f" {exc.strerror}") from None
        raise
    return path


def check_writable(path: str) -> None:
    """Refuse an output file that cannot be written before a long solve, not after."""
    if not path:
        raise errors.NimmtError("cannot write '': an output file needs a name")
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory) or not os.access(directory, os.W_OK):
        raise errors.NimmtError(f"cannot write {errors.quote(path, errors.SHORT_PATH)}: no"
                                f" writable directory {errors.quote(directory, errors.SHORT_PATH)}")


def write_text_file(path: str, text: str) -> str:
    """`text` (UTF-8) to `path`, atomically."""
    def write(temporary: str) -> None:
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(text)
    return write_atomically(path, write)
