"""Reading from stdin (`-`): a message quoting the input leaves out its trailing newline; on a
terminal, one line on stderr says what is read and how to end it; a closed stdin is an error."""
import io
import os
import subprocess
import sys
import time

import pytest
from solver import reading
from tests.support import assert_input_error, error_line, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOTATION = "24; 3 10, 7, 12 15 18, 21; 1 2 4, 5 6 8"
RECORD = ('{"deck": 24, "rows": [[5], [11], [17], [20]], "hands": [[1, 2], [3, 4]],'
          ' "turns": [{"cards": [1, 4]}]}')


@pytest.mark.parametrize("text, quoted", [
    ("{bad\n", '(input "{bad")'),
    ("{bad \r\n\n", '(input "{bad")'),
    ("24; 3 10, x, 12 15 18, 21; 1 2 4, 5 6 8\n", "'24; 3 10, x, 12 15 18, 21; 1 2 4, 5 6 8'"),
    ("24 3 10\n", "got '24 3 10'"),
], ids=["JSON", "JSON, CRLF and blank line", "notation", "notation sections"])
def test_a_quoted_input_has_no_trailing_newline(text, quoted):
    line = error_line(run(["show", "-"], text))
    assert quoted in line and "\\n" not in line and "\\r" not in line


class TerminalInput(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("command, what, stdin", [
    ("show", "a position", NOTATION), ("solve", "a position", NOTATION),
    ("best", "a position", NOTATION), ("replay", "a game record", RECORD)])
def test_stdin_on_a_terminal_is_announced(command, what, stdin, monkeypatch):
    monkeypatch.setattr(reading, "_is_terminal", lambda stream: True)
    result = run([command, "-"], stdin)
    assert result.exit_code == 0, result.output
    assert result.stderr == f"reading {what} from standard input; end it with Ctrl-D\n"


def test_read_source_announces_a_terminal(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", TerminalInput(NOTATION))
    assert reading.read_source("-") == NOTATION
    assert "reading a position" in capsys.readouterr().err


def test_stdin_not_a_terminal_is_read_silently(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(NOTATION))
    assert reading.read_source("-") == NOTATION
    assert capsys.readouterr().err == ""


def test_nimmt_show_on_a_real_terminal_says_it_reads_stdin():
    master, slave = os.openpty()
    process = subprocess.Popen([sys.executable, "-m", "solver", "show", "-"], cwd=ROOT,
                               stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    os.close(slave)
    try:
        time.sleep(1)
        os.write(master, (NOTATION + "\n").encode())
        time.sleep(0.2)
        os.write(master, b"\x04")                       # Ctrl-D
        out, err = process.communicate(timeout=60)
    finally:
        os.close(master)
    assert process.returncode == 0, err
    assert err == "reading a position from standard input; end it with Ctrl-D\n"
    assert "row 0" in out


def test_a_closed_stdin_is_an_error(monkeypatch):
    monkeypatch.setattr(sys, "stdin", None)
    with pytest.raises(ValueError, match="stdin"):
        reading.read_source("-")


def test_play_with_a_closed_stdin_is_one_line():
    process = subprocess.run([sys.executable, "-m", "solver", "play", "-n", "2", "--bots",
                              "greedy", "--seed", "1"], stdin=subprocess.DEVNULL, text=True,
                             capture_output=True, close_fds=True,
                             preexec_fn=lambda: os.close(0))
    assert process.returncode == 2 and process.stderr.splitlines() == [
        "nimmt: error: cannot read stdin: it is closed"], process.stderr


def test_an_endless_input_is_refused_not_read_into_memory(monkeypatch, tmp_path):
    import solver.reading
    monkeypatch.setattr(solver.reading, "MAX_INPUT", 1000)
    big = tmp_path / "big.json"
    big.write_text(" " * 2000)
    assert_input_error(run(["show", str(big)]), "holds more than", "too much for a position")
    assert_input_error(run(["show", "-"], " " * 2000), "stdin holds more than")
