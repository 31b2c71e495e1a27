"""Output files written whole or not at all: the one place the package writes a file that
a reader might find half-written (a temporary beside it, then a rename into place)."""
import contextlib
import os
import re
import signal
import tempfile
import threading
from dataclasses import dataclass
from typing import Callable, Iterator, Optional

from . import errors


# the signals that stop a command cleanly: Ctrl-C, and (`stop_on_termination`) the polite
# requests to end of `kill`, `timeout`, a closed terminal
TERMINATION = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP")
                    if hasattr(signal, name))
STOPS = (signal.SIGINT,) + TERMINATION
_stopped_by = [signal.SIGINT]      # the last stop signal taken (Ctrl-C unless another came)
_fork_hook: list = []              # registered once a process


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Ctrl-C (and a termination signal) waits until the block ends, then takes its course
    (KeyboardInterrupt, or whatever handler was there): a write it would cut in the middle
    finishes first. A handler of our own for the time of the block, not a blocked signal: a
    process with other threads (BLAS's) would take a blocked signal on one of them, and
    Python runs its handler on the main thread all the same. Only on the main thread, where
    Python takes signals."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught = []
    previous = {number: signal.signal(number, lambda n, frame: caught.append(n))
                for number in STOPS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            # None: a handler not set from Python; Python's own is the nearest for Ctrl-C
            default = signal.default_int_handler if number == signal.SIGINT else signal.SIG_DFL
            signal.signal(number, default if handler is None else handler)
        if caught:
            signal.raise_signal(caught[0])      # to this thread, under the old handler


def stop_on_termination() -> None:
    """From now on SIGTERM and SIGHUP stop this process as Ctrl-C does (a KeyboardInterrupt:
    the proven bounds printed, a batch's lines whole); `stop_name` says which came. Forked
    workers get the default back, so that terminating one ends it at once."""
    for number in TERMINATION:
        signal.signal(number, _terminate)
    if hasattr(os, "register_at_fork") and not _fork_hook:
        os.register_at_fork(after_in_child=_default_termination)
        _fork_hook.append(True)


def stop_name() -> str:
    """How messages name what stopped the command: Ctrl-C, SIGTERM or SIGHUP."""
    number = _stopped_by[0]
    return "Ctrl-C" if number == signal.SIGINT else signal.Signals(number).name


def _terminate(number: int, frame) -> None:
    _stopped_by[0] = number
    raise KeyboardInterrupt


def _default_termination() -> None:
    for number in TERMINATION:
        if signal.getsignal(number) is _terminate:
            signal.signal(number, signal.SIG_DFL)


def write_atomically(path: str, write: Callable[[str], None], suffix: str = "",
                     named: bool = False) -> str:
    """Call `write(temporary)` on a new file beside `path`, then rename it to `path`: a stop
    at any moment leaves the old file or the new one, never a part, and a Ctrl-C during the
    write waits for the new one. `suffix` ends the temporary's name (for writers that go by
    the extension). An OSError becomes a one-line NimmtError; anything else is raised as it
    is, the temporary removed either way. A symbolic link's target is written (the link
    stays); a path that is there but no regular file (a device, a pipe) is refused. `named`:
    the temporary's name starts with the file's (`FILE.tmp-PID-...`), for a file that shares
    its folder with others', whose leftovers `remove_dead_temporaries(folder, FILE)` finds."""
    path = regular_target(path)
    directory = os.path.dirname(path)
    prefix = (os.path.basename(path) + "." if named else "") + f"tmp-{os.getpid()}-"
    try:
        handle, temporary = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=directory)
    except OSError as exc:
        raise errors.NimmtError(f"cannot write {errors.quote(path, errors.SHORT_PATH)}:"
                                f" {exc.strerror}") from None
    os.close(handle)
    try:
        with interrupts_held():
            write(temporary)
            os.chmod(temporary, 0o644)
            _sync(temporary)              # on disk before its name is: a power cut after
            os.replace(temporary, path)   # the rename leaves the new file, not an empty one
            _sync(directory, directory=True)
    except BaseException as exc:
        if os.path.exists(temporary):
            os.unlink(temporary)
        if isinstance(exc, OSError):
            raise errors.NimmtError(f"cannot write {errors.quote(path, errors.SHORT_PATH)}:"
                                    f" {exc.strerror}") from None
        raise
    return path


# a temporary of write_atomically: its writer's process id, then mkstemp's 8 characters
_TEMPORARY = re.compile(r"tmp-([0-9]+)-[a-z0-9_]{8}(\.[a-z]+)?$")


def _sync(path: str, directory: bool = False) -> None:
    """fsync a file (or a directory's entries); where a system cannot (a directory on some
    file systems, Windows), nothing."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        if not directory:
            raise
    finally:
        os.close(fd)


def remove_dead_temporaries(folder: str, owner: Optional[str] = None) -> int:
    """Remove the temporaries of `write_atomically` left in `folder` by a process killed
    mid-write (SIGKILL, a power cut), those whose writer is gone; a running writer's are
    kept. With `owner` (a file's name), only that file's `named` temporaries. Returns how
    many went. Only where that process id can be asked after (POSIX)."""
    if os.name != "posix" or not os.path.isdir(folder):
        return 0
    removed = 0
    prefix = "" if owner is None else owner + "."
    for name in os.listdir(folder):
        match = _TEMPORARY.match(name, len(prefix)) if name.startswith(prefix) else None
        if match is None or _running(int(match.group(1))):
            continue
        with contextlib.suppress(OSError):
            os.unlink(os.path.join(folder, name))
            removed += 1
    return removed


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)               # signal 0: only asks whether the process is there
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):   # another user's process; a foreign name
        return True
    return True


def regular_target(path: str) -> str:
    """The absolute path a write of `path` replaces (a link's target); refused when that is
    there and not a regular file, or when `path` names a directory (ends with a slash)."""
    if not path:
        raise errors.NimmtError("cannot write '': an output file needs a name")
    if path.endswith(os.sep) or (os.altsep and path.endswith(os.altsep)):
        raise errors.NimmtError(f"cannot write {errors.quote(path, errors.SHORT_PATH)}: a"
                                " directory's name (it ends with a slash), not a file's")
    target = os.path.realpath(path)
    # a link may lead where realpath cannot follow (/dev/stdout to a pipe): stat the path too
    for there in (target, path):
        if os.path.exists(there) and not os.path.isfile(there):
            what = "a directory" if os.path.isdir(there) else (
                "not a regular file (an output is kept whole as a file, or resumed: a device"
                " or a pipe cannot hold one)")
            raise errors.NimmtError(f"cannot write {errors.quote(path, errors.SHORT_PATH)}:"
                                    f" {what}")
    return target


# the training commands' output folders, each told by its files' names: a command refuses
# a folder that holds another's (it would mix its files in, and read them back as its own)
GAMES_FOLDER = "games (nimmt train generate, selfplay or rollouts)"
FIRST_CARD_FOLDER = "first-card examples (nimmt train first-card --data)"
FIT_FOLDER = "a fit run (nimmt train fit --out)"
TRAINING_FOLDERS = {
    GAMES_FOLDER: lambda name: name == "config.json" or name.startswith("chunk_"),
    FIRST_CARD_FOLDER: lambda name: name == "settings.json" or name.startswith("cards"),
    FIT_FOLDER: lambda name: name in ("checkpoint.pt", "log.jsonl") or name.startswith("epoch_"),
}


def check_training_folder(folder: str, kind: str) -> None:
    """Refuse `folder` for the output `kind` (a key of TRAINING_FOLDERS) when it holds the
    files of another kind; a missing folder is fine."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return                              # not there (yet), or said when it is made
    for other, holds in TRAINING_FOLDERS.items():
        found = [name for name in names if holds(name)] if other != kind else []
        if found:
            raise errors.ConfigError(f"{errors.quote(folder, errors.SHORT_PATH)} holds {other}"
                                     f" ({found[0]}), not {kind.split(' (')[0]}: give another"
                                     " folder")


@dataclass(frozen=True)
class FileKind:
    """What a command's output file holds, to tell a file of that kind (which a new run may
    replace: the command wrote it, or could have) from anyone else's, which is kept."""
    description: str                    # "a graph file of 'nimmt solve --graph'"
    test: Callable[[bytes], bool]       # on the first HEAD_BYTES of a file there already


HEAD_BYTES = 4096


def npz_kind(description: str, first: str) -> FileKind:
    """The .npz files whose first array is `first` (its name opens the zip's first local
    header, 30 bytes in): what one writer makes, told from other .npz files."""
    name = f"{first}.npy".encode()
    return FileKind(description, lambda head: head.startswith(b"PK\x03\x04")
                    and head[30:30 + len(name)] == name)


def check_writable(path: str, kind: Optional[FileKind] = None) -> None:
    """Refuse an output file that cannot be written before a long solve, not after: a file
    is made and removed beside it (the only test that the file system agrees). With `kind`,
    a file already at `path` that is not empty and not of that kind is refused, and kept."""
    target = regular_target(path)
    if kind is not None and os.path.isfile(target):
        try:
            with open(target, "rb") as handle:
                head = handle.read(HEAD_BYTES)
        except OSError as exc:
            raise errors.NimmtError(f"cannot read {errors.quote(path, errors.SHORT_PATH)}"
                                    f" (to check what it holds): {exc.strerror}") from None
        if head and not kind.test(head):
            raise errors.NimmtError(f"{errors.quote(path, errors.SHORT_PATH)} is there and is"
                                    f" not {kind.description}: not overwritten (remove it"
                                    " first, or give another name)")
    directory = os.path.dirname(target)
    try:
        with tempfile.TemporaryFile(prefix="tmp-", dir=directory):
            pass
    except OSError as exc:
        raise errors.NimmtError(f"cannot write {errors.quote(path, errors.SHORT_PATH)}: no"
                                f" writable directory {errors.quote(directory, errors.SHORT_PATH)}"
                                f" ({exc.strerror or exc})") from None


def write_text_file(path: str, text: str) -> str:
    """`text` (UTF-8) to `path`, atomically."""
    def write(temporary: str) -> None:
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(text)
    return write_atomically(path, write)


def npz_damage() -> tuple:
    """What numpy raises on an .npz that is damaged, cut short or no .npz (a compressed
    member scrambled: zlib's error)."""
    import zipfile
    import zlib
    return (ValueError, EOFError, zipfile.BadZipFile, zlib.error)


def read_npz(path: str, names, what: str) -> dict:
    """The arrays `names` of the .npz at `path`, read whole; anything that keeps them from
    being read (missing, empty, cut short, not an .npz, an array missing or pickled) is one
    ConfigError naming the file as `what` it should be."""
    import numpy as np
    name = errors.quote(path, errors.SHORT_PATH)
    try:
        loaded = np.load(path, allow_pickle=False)
        if not isinstance(loaded, np.lib.npyio.NpzFile):      # an .npy: one bare array
            raise ValueError(path)
        with loaded as z:
            return {k: z[k] for k in names}
    except KeyError as exc:
        problem = f"it has no array {exc.args[0].split()[0] if exc.args else '?'}"
    except npz_damage():                 # numpy's words speak of pickles
        problem = "not an .npz file, or cut short"
    except OSError as exc:
        problem = exc.strerror or str(exc)
    raise errors.ConfigError(f"cannot read {what} {name}: {problem}")
