"""A solve's saved work: the proven bounds of the big states in its table, kept in a file, so
that a long solve that stops (a limit, Ctrl-C, a machine that goes down) starts again where
it was instead of from nothing.

What is kept: the table's entries of MIN_CARDS cards a hand or more, the nodes whose proofs
cost the most and are few: on an 8-card root stopped halfway, a few thousand entries, and the
search started again from them needs 0.55 of the whole solve's nodes (0.12 when stopped at
90%); on a full deal about a million entries, 35-50 MB. Each entry is a proven bound of a
state under its canonical key (cext/key.pxd), true whatever the root, so the file of a
round's position serves its later positions too (a turn later, the search finds most of its
work done); the file names that position, and a file of another round is refused rather
than mixed in.

The file (.npz, written whole or not at all) holds `format` (FORMAT: a change of the key or of
the record must change it), `position` (the round's position it was made for, `Position.to_text()`), `records` (packed
`SavedEntry` records, cext/table.pxd: key low and high words, lower, upper, the support's
cards of each player, cards a hand) and `digest` (SHA-256 of the records). Its bounds are
trusted as the search's own memory: a file edited by hand could make a wrong answer.
"""
import hashlib
import os
from typing import Optional, Tuple
try:
    import fcntl
except ImportError:          # Windows: no advisory locks, and no check for a second solve
    fcntl = None

import numpy as np

from .._search import ExactSearch
from ..core.position import Position
from ..errors import ConfigError, NimmtError, quote, SHORT_PATH
from ..files import npz_damage, remove_dead_temporaries, write_atomically

FORMAT = "nimmt exact progress 1"
SAVE_EVERY = 60.0              # seconds between the saves of a running search
MIN_CARDS = 5                  # the smallest nodes kept (cards a hand)
ROUNDING = 1e-9
RECORD = np.dtype([("key_low", "<u8"), ("key_high", "<u8"), ("lower", "<f8"),
                   ("upper", "<f8"), ("rows_in", "<u2"), ("cols_in", "<u2"), ("cards", "i1")])
assert RECORD.itemsize == ExactSearch.saved_entry_size()


def save_progress(search: ExactSearch, root: str, path: str) -> int:
    """Write the table's big entries to `path`, the file of the round's position `root` (its
    text); returns how many."""
    records = search.export_entries(MIN_CARDS)

    def write(temporary: str) -> None:
        with open(temporary, "wb") as handle:
            np.savez(handle, format=np.array(FORMAT), position=np.array(root),
                     records=np.frombuffer(records, dtype=np.uint8),
                     digest=np.array(hashlib.sha256(records).hexdigest()))
    write_atomically(path, write, named=True)
    return len(records) // RECORD.itemsize


def load_progress(search: ExactSearch, root: Position, path: str) -> Tuple[int, int, str]:
    """Store the entries of a progress file in the search's table: the file of `root`, or
    of an earlier position of its round (every card of `root`'s hands in that position's:
    its entries cover `root`'s subtree). Returns how many the table kept (fewer than the
    file holds when the table is too small for them: the next save keeps only those), how
    many the file holds, and the text of the position the file stays the file of. A missing
    file is no progress; a file that is not one, is damaged or is of another round is
    refused with a ConfigError. (The engine has checked that the path can be written, before
    the first save, and holds its `ProgressLock`.)"""
    # a save killed mid-write (SIGKILL) left its temporary beside the file: 35-50 MB a deal
    remove_dead_temporaries(os.path.dirname(os.path.abspath(path)), os.path.basename(path))
    if not os.path.exists(path) or os.path.getsize(path) == 0:     # none yet, or `touch`ed
        return 0, 0, root.to_text()
    name = quote(path, SHORT_PATH)
    try:
        with np.load(path, allow_pickle=False) as saved:       # an .npy: TypeError
            fields = {k: saved[k] for k in ("format", "position", "records", "digest")}
    except (OSError, KeyError, TypeError) + npz_damage():
        raise ConfigError(f"{name} is not a progress file of nimmt solve, or is damaged (cut"
                          f" short): remove it to start afresh, or give another"
                          f" --progress-file") from None
    if str(fields["format"]) != FORMAT:
        raise ConfigError(f"{name} is a progress file of another format"
                          f" ({quote(str(fields['format']))}, this build reads {quote(FORMAT)})")
    text = str(fields["position"])
    try:
        first = Position.from_text(text)
    except NimmtError:
        raise ConfigError(f"{name} is damaged (its position does not read)") from None
    if text != root.to_text() and not _earlier(first, root):
        raise ConfigError(f"{name} is the progress of {quote(text)}, of which this position"
                          f" is not a later one (another round, or an earlier position)")
    records = np.ascontiguousarray(fields["records"], dtype=np.uint8).tobytes()
    if hashlib.sha256(records).hexdigest() != str(fields["digest"]):
        raise ConfigError(f"{name} is damaged (its records do not match their digest)")
    if len(records) % RECORD.itemsize or not _plausible(records, first.hand_size):
        raise ConfigError(f"{name} is damaged (records that no search of its position"
                          f" writes)")
    search.import_entries(records)
    # a state written twice (a file edited by hand) is one entry of the table
    keys = np.frombuffer(records, dtype=RECORD)[["key_low", "key_high"]]
    count = len(np.unique(keys))
    # two entries a bucket: a table too small for the file drops some (counted, not trusted)
    kept = len(search.export_entries(MIN_CARDS)) // RECORD.itemsize
    return min(kept, count), count, text


def _earlier(first: Position, root: Position) -> bool:
    """Could `root` be a later position of the round of `first`: the same deck and two
    players, fewer cards a hand, and every card of its hands in `first`'s?"""
    return (first.players == root.players == 2 and first.deck == root.deck
            and root.hand_size < first.hand_size
            and all(set(h) <= set(g) for h, g in zip(root.hands, first.hands)))


def _plausible(records: bytes, hand_size: int) -> bool:
    """Every record a possible entry: a key, bounds in order (to rounding: an exact value
    proven from two sides may differ in its last bit), a node the root can reach."""
    r = np.frombuffer(records, dtype=RECORD)
    return bool(np.all((r["key_low"] | r["key_high"]) != 0)
                and np.all(r["lower"] <= r["upper"] + ROUNDING)     # False for NaN too
                and np.all((r["cards"] >= 3) & (r["cards"] <= hand_size)))


class ProgressLock:
    """`FILE.lock` beside a progress file, held while a solve uses the file: two solves
    saving to one file would each overwrite the other's work, so a second is refused. The
    lock is the kernel's (flock), so a killed solve's is free again; its file is removed
    when the solve ends (one a SIGKILL left is taken over)."""

    def __init__(self, path: str):
        self.path = path + ".lock"
        self.fd: Optional[int] = None
        if fcntl is None:
            return
        name = quote(path, SHORT_PATH)
        while True:
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o644)
            except OSError as exc:
                raise NimmtError(f"cannot write {quote(self.path, SHORT_PATH)}: {exc.strerror}"
                                 ) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise NimmtError(f"{name} is in use by another solve: wait for it to end, or"
                                 f" give another --progress-file") from None
            except OSError:
                break                     # a file system without locks: unguarded
            try:                          # still the file of that name (not one removed
                if os.stat(self.path).st_ino == os.fstat(fd).st_ino:    # by its holder)?
                    break
            except FileNotFoundError:
                pass
            os.close(fd)
        self.fd = fd

    def release(self) -> None:
        if self.fd is not None:
            try:
                os.unlink(self.path)
            except OSError:
                pass
            os.close(self.fd)             # closing releases the lock
            self.fd = None
