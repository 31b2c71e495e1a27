"""Output files written whole or not at all (solver/files.py), Ctrl-C included."""
import os
import signal
import subprocess
import sys
import time

import pytest

from solver.errors import NimmtError
from solver.files import (check_writable, interrupts_held, remove_dead_temporaries,
                          write_atomically)


@pytest.fixture
def ctrl_c_heard():
    """Python's Ctrl-C handler for the test: a process started in the background by a
    shell without job control inherits SIGINT ignored, and then a Ctrl-C rightly does
    nothing."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def test_a_ctrl_c_during_a_write_waits_for_the_whole_file(tmp_path, ctrl_c_heard):
    path = tmp_path / "out.txt"
    path.write_text("old")

    def write(temporary):
        with open(temporary, "w") as handle:
            handle.write("new, ")
            os.kill(os.getpid(), signal.SIGINT)     # a Ctrl-C in the middle
            handle.write("whole")

    with pytest.raises(KeyboardInterrupt):
        write_atomically(str(path), write)
    assert path.read_text() == "new, whole"
    assert os.listdir(tmp_path) == ["out.txt"]           # no temporary left


def test_an_error_during_a_write_leaves_the_old_file(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("old")

    def write(temporary):
        with open(temporary, "w") as handle:
            handle.write("half")
        raise OSError(28, "No space left on device")

    with pytest.raises(NimmtError, match="No space left"):
        write_atomically(str(path), write)
    assert path.read_text() == "old" and os.listdir(tmp_path) == ["out.txt"]


def test_interrupts_held_lets_a_ctrl_c_through_afterwards(ctrl_c_heard):
    reached = []
    with pytest.raises(KeyboardInterrupt):
        with interrupts_held():
            os.kill(os.getpid(), signal.SIGINT)
            reached.append(True)
    assert reached == [True]


def text_writer(text):
    def write(temporary):
        with open(temporary, "w") as handle:
            handle.write(text)
    return write


def test_a_link_s_target_is_written_and_no_regular_file_is_replaced(tmp_path):
    target, link = tmp_path / "target.txt", tmp_path / "link.txt"
    os.symlink(target.name, link)
    write_atomically(str(link), text_writer("new"))
    assert link.is_symlink() and target.read_text() == "new"
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    for path, words in ((pipe, "not a regular file"), (tmp_path, "a directory")):
        with pytest.raises(NimmtError, match=words):
            write_atomically(str(path), text_writer("x"))
        with pytest.raises(NimmtError, match=words):
            check_writable(str(path))
    assert pipe.exists() and not pipe.is_file()



@pytest.mark.skipif(not os.path.exists("/dev/stdout"), reason="no /dev/stdout")
def test_standard_output_as_a_file_name_is_no_regular_file():
    """/dev/stdout on a pipe: a link that realpath cannot follow to its end."""
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "solver", "deal", "--count", "1", "--out",
                           "/dev/stdout"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "/dev/stdout': not a regular file" in done.stderr


def test_check_writable_makes_a_file_to_know(tmp_path):
    check_writable(str(tmp_path / "out.txt"))
    assert list(tmp_path.iterdir()) == []              # nothing left behind
    with pytest.raises(NimmtError, match="no writable directory"):
        check_writable(str(tmp_path / "none" / "out.txt"))


def test_an_npy_where_an_npz_is_expected_is_one_line(tmp_path):
    import numpy as np
    from solver.files import read_npz
    path = tmp_path / "plain.npy"
    np.save(path, np.zeros(3))
    with pytest.raises(NimmtError, match="cannot read weights .*not an .npz file"):
        read_npz(str(path), ("a",), "weights")


def _writer_stuck_in_a_write(folder):
    """A process in the middle of write_atomically into `folder`, and its temporary."""
    code = ("import sys, time\n"
            "from solver.files import write_atomically\n"
            "def write(temporary):\n"
            "    open(temporary, 'w').write('half')\n"
            "    time.sleep(60)\n"
            "write_atomically(sys.argv[1], write, suffix='.npz')\n")
    process = subprocess.Popen([sys.executable, "-c", code, str(folder / "chunk.npz")])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        names = [n for n in os.listdir(folder) if n.startswith(f"tmp-{process.pid}-")]
        if names:
            return process, names[0]
        time.sleep(0.05)
    process.kill()
    raise AssertionError("the writer made no temporary")


@pytest.mark.skipif(os.name != "posix", reason="process ids asked after on POSIX only")
def test_a_killed_writer_s_temporary_is_removed_and_a_running_one_s_kept(tmp_path):
    killed, left = _writer_stuck_in_a_write(tmp_path)
    killed.kill()                                       # SIGKILL: no clean-up of its own
    killed.wait()
    running, kept = _writer_stuck_in_a_write(tmp_path)
    try:
        (tmp_path / "tmp-notes.txt").write_text("not ours")
        assert remove_dead_temporaries(str(tmp_path)) == 1
        assert sorted(os.listdir(tmp_path)) == sorted([kept, "tmp-notes.txt"])
    finally:
        running.kill()
        running.wait()


def test_a_line_cut_short_is_told_from_a_line_with_a_mistake():
    import json
    import random
    from solver.linefile import cut_short
    rng = random.Random(1)
    for _ in range(50):
        value = {"deck": 104, "rows": [[rng.randint(1, 104)] for _ in range(4)],
                 "turns": [{"cards": [rng.randint(1, 104), -rng.random()],
                            "row_choices": [None, True, False]}],
                 "s": "\u00e9\u2603\\\"x", "e": 1e-7, "g": -3e21}
        for ascii_only in (True, False):
            line = json.dumps(value, ensure_ascii=ascii_only).encode("utf-8")
            assert all(cut_short(line[:i]) for i in range(1, len(line)))
            assert not cut_short(line)
    for text in (b'{"turns": [{"cards": [4, 22]},]}', b'{"a": 1 2', b'{"a": tru e',
                 b'{"deck": 24}x', b'{"a": [1, 2]]'):
        assert not cut_short(text), text


def test_a_damaged_compressed_npz_is_one_line(tmp_path):
    """A compressed member scrambled (zlib's error, not numpy's): the same one line."""
    import zipfile
    import numpy as np
    from solver.errors import ConfigError
    from solver.files import read_npz
    path = tmp_path / "w.npz"
    np.savez_compressed(path, a=np.arange(1000))
    info = zipfile.ZipFile(path).getinfo("a.npy")
    data = bytearray(path.read_bytes())
    start = info.header_offset + 30 + len(info.filename)
    for i in range(start + 2, start + info.compress_size - 2):
        data[i] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(ConfigError, match="not an .npz file, or cut short"):
        read_npz(str(path), ["a"], "weights")


def test_a_system_error_is_told_in_our_words_not_python_s(tmp_path):
    """A folder asked for under a file: the file named and the system's words, without
    Python's "[Errno 20]"."""
    from tests.support import assert_input_error, run
    (tmp_path / "afile").write_text("x")
    result = run(["train", "generate", "--out", str(tmp_path / "afile" / "sub"), "--rounds", "2"])
    assert_input_error(result, "afile/sub'", "Not a directory")
    assert "Errno" not in result.stderr


def test_a_line_the_disk_could_not_take_whole_is_cut(tmp_path, monkeypatch):
    """A full disk mid-line: the part written is cut, so the file ends with its last whole
    line, and the error is one line (a run resumed later had to remove a torn line)."""
    import errno

    from solver import linefile
    out = tmp_path / "results.jsonl"
    lines = linefile.LineFile(str(out), "nimmt test")
    lines.append({"line": 1})
    whole = out.read_bytes()
    real_write = os.write

    def full_disk(fd, data):
        real_write(fd, bytes(data[:5]))
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(linefile.os, "write", full_disk)
    with pytest.raises(NimmtError, match="No space left on device"):
        lines.append({"line": 2, "a long field": "x" * 100})
    assert out.read_bytes() == whole
