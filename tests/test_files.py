"""Output files written whole or not at all (solver/files.py), Ctrl-C included."""
import os
import signal

import pytest

from solver.errors import NimmtError
from solver.files import interrupts_held, write_atomically


def test_a_ctrl_c_during_a_write_waits_for_the_whole_file(tmp_path):
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


def test_interrupts_held_lets_a_ctrl_c_through_afterwards():
    reached = []
    with pytest.raises(KeyboardInterrupt):
        with interrupts_held():
            os.kill(os.getpid(), signal.SIGINT)
            reached.append(True)
    assert reached == [True]
