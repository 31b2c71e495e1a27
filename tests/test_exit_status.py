"""Exit statuses, the same for every command (`solver.cli.ExitStatus`, listed in `nimmt
--help`): 0 done, 2 bad input or usage, 3 a search stopped by a limit, 4 the input of
`nimmt play` ended mid-game, 5 a finished batch with positions not solved, 130 Ctrl-C, 141
stdout closed early. Ctrl-C is simulated by a callable that raises
KeyboardInterrupt, and by real signals sent to `nimmt solve` and `nimmt best` processes."""
import os
import re
import signal
import subprocess
import sys
import time

import pytest
from solver import cli, errors
from solver.cli import analysis, app, bots, play
from solver.cli import ExitStatus
from solver.text.progress import GamesProgress
from tests.support import cpu_seconds, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EIGHT_CARDS = os.path.join(ROOT, "positions", "08_eight_cards_deal.json")   # about 10 s
FOUR_PLAYERS = "104; 20, 92, 65, 103; 5 10 11 21 24 37 40 53 85 101, ?, ?, ?"


def error_line(result) -> str:
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("nimmt: error: "), result.stderr
    assert "Traceback" not in result.output
    return lines[0]


def test_the_statuses_are_the_documented_ones():
    assert [int(s) for s in ExitStatus] == [0, 2, 3, 4, 5, 130, 129, 143, 141]
    help_text = run(["--help"]).stdout
    for status in ExitStatus:
        assert re.search(rf"^ +{int(status)} +\S", help_text, re.MULTILINE), status
    assert "Ctrl-C" in help_text and "quit" in help_text


def test_done_is_0_also_after_quit():
    assert run(["show", "24; 3 10, 7, 12 15 18, 21; 1 2 4, 5 6 8"]).exit_code == ExitStatus.OK
    out = run(["play", "--players", "2", "--seed", "1"], "quit\n")
    assert out.exit_code == ExitStatus.OK and "game abandoned" in out.stdout


def test_bad_input_is_2():
    error_line(result := run(["show", "-"], "{not json"))
    assert result.exit_code == ExitStatus.BAD_INPUT
    assert run(["tournament", "-n", "2", "--bots", "nobody"]).exit_code == ExitStatus.BAD_INPUT


@pytest.mark.parametrize("command", ["solve", "best"])
def test_a_search_limit_is_3(command):
    result = run([command, EIGHT_CARDS, "--max-nodes", "2000"])
    assert result.exit_code == ExitStatus.NOT_PROVEN
    assert "value NOT proven" in error_line(result) and "2000 nodes" in result.stderr


@pytest.mark.parametrize("args", [["replay", os.path.join(ROOT, "positions", "records",
                                                          "six_turns.json")],
                                  ["deal", "--count", "200", "--cards", "6"]])
def test_stdout_closed_is_141_without_a_message(args):
    """A reader that goes away (`| head -c 10`) is no error of the input: 141 and silence, not
    click's bare 1 (nor Python's complaint at exit)."""
    process = subprocess.Popen([sys.executable, "-m", "solver"] + args, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=ROOT)
    process.stdout.close()
    assert process.wait(60) == ExitStatus.OUTPUT_CLOSED
    assert process.stderr.read() == b""
    process.stderr.close()


def test_a_reader_gone_mid_write_is_141_unbuffered_too():
    """Unbuffered (PYTHONUNBUFFERED=1), Python's text layer dropped what a pipe did not take
    of one large write, without an error: `| head -1` gave 0."""
    command = f"{sys.executable} -m solver deal --count 3000 | head -1 >/dev/null;" \
              " exit ${PIPESTATUS[0]}"
    for unbuffered in ("1", ""):
        result = subprocess.run(["bash", "-c", command], cwd=ROOT, capture_output=True,
                                timeout=120, env=dict(os.environ, PYTHONUNBUFFERED=unbuffered))
        assert result.returncode == ExitStatus.OUTPUT_CLOSED, unbuffered
        assert result.stderr == b""


def test_stdout_or_stderr_closed_from_the_start_is_no_traceback(tmp_path):
    """Started with stdout closed (`>&-`: sys.stdout is None), output has no reader, as
    when a pipe's reader left: 141 (a command that writes only files is done, 0); with
    stderr closed, a bad option still exits 2; with stdin closed, a command that reads it
    says so."""
    python = f"{sys.executable} -m solver"
    out = tmp_path / "deals.txt"
    for command, status in ((f"{python} deal -n 3 --seed 1 >&-", ExitStatus.OUTPUT_CLOSED),
                            (f"{python} deal --count 3 --out {out} >&-", ExitStatus.OK),
                            (f"{python} deal -n 3 --seed -1 2>&-", ExitStatus.BAD_INPUT),
                            (f"{python} engine --bot greedy <&-", ExitStatus.BAD_INPUT)):
        result = subprocess.run(["sh", "-c", command], cwd=ROOT, capture_output=True,
                                timeout=60)
        assert result.returncode == status and b"Traceback" not in result.stderr, command
    assert out.read_text().count("\n") == 3


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_a_full_stdout_is_one_line_and_2():
    """A full disk under stdout: one line, not Python's second complaint at its exit."""
    result = subprocess.run(["sh", "-c", f"{sys.executable} -m solver deal -n 3 >/dev/full"],
                            cwd=ROOT, capture_output=True, timeout=60, text=True)
    assert result.returncode == ExitStatus.BAD_INPUT
    assert result.stderr.splitlines() == ["nimmt: error: cannot write standard output: No space"
                                          " left on device"]


def test_play_input_ended_is_4():
    result = run(["play", "--players", "3", "--seed", "1"], "")
    assert result.exit_code == ExitStatus.INPUT_ENDED
    assert "end of input" in error_line(result)


def test_a_batch_with_positions_not_solved_is_5(tmp_path):
    """Finished, every line in the results file, but not every position solved; resumed
    with nothing left to do, still 5: the status tells the file's state, not the run's."""
    out = tmp_path / "out.jsonl"
    lines = "24; 3 10, 7, 12 15 18, 21; 1 2 4, 5 6 8\nnot a position\n"
    for _ in range(2):
        result = run(["batch", "solve", "-", "--out", str(out)], lines)
        assert result.exit_code == ExitStatus.NOT_ALL_SOLVED, result.stderr
        assert "1 not solved in all (exit status 5)" in result.stderr
        assert "Traceback" not in result.output
    assert len(out.read_text().splitlines()) == 2


class Interrupting:
    """A progress callback that presses Ctrl-C the first time it is called."""

    def __call__(self, *args, **kwargs):
        raise KeyboardInterrupt


@pytest.mark.parametrize("command", ["solve", "best"])
def test_ctrl_c_in_the_exact_solver_is_130_with_the_bounds(command, monkeypatch):
    monkeypatch.setattr(analysis, "ProvisionalProgress",
                        type("P", (Interrupting, analysis.ProvisionalProgress), {}))
    result = run([command, EIGHT_CARDS])
    assert result.exit_code == ExitStatus.INTERRUPTED
    line = error_line(result)
    assert "value NOT proven" in line and "Ctrl-C" in line
    assert "value proven" in line or "no bounds proven yet" in line


def test_ctrl_c_after_the_proof_prints_the_solution_and_is_130(monkeypatch):
    """Ctrl-C while the other cards' values are computed: the proven solution is printed,
    the card values left out, and the status still says the command was interrupted."""
    from solver.exact.engine import Engine

    def interrupted(engine, *args, **kwargs):
        engine.interrupted = True          # what Engine.run records on Ctrl-C
        return False

    monkeypatch.setattr(Engine, "complete_replies", interrupted)
    result = run(["solve", "positions/spec_worked_example.json"])
    assert result.exit_code == ExitStatus.INTERRUPTED
    assert "value 2.70588" in result.stdout and "(not computed: interrupted)" in result.stdout
    assert result.stderr.strip() == "nimmt: error: interrupted (Ctrl-C)"


def test_ctrl_c_after_the_proof_with_a_graph_or_a_progress_file(monkeypatch, tmp_path):
    """The same with --graph (its searches start a new run: the Ctrl-C must not be lost,
    and no graph is written) and with --progress-file (a Ctrl-C during its last save, once
    the work is done: the file is whole, the answer printed)."""
    from solver.exact import engine as engine_module
    from solver.exact.engine import Engine

    def interrupted(engine, *args, **kwargs):
        engine.interrupted = True
        return False

    monkeypatch.setattr(Engine, "complete_replies", interrupted)
    graph = tmp_path / "tree.graphml"
    result = run(["solve", "positions/spec_worked_example.json", "--graph", str(graph)])
    assert result.exit_code == ExitStatus.INTERRUPTED and "value 2.70588" in result.stdout
    assert "was not written: interrupted" in result.stderr and not graph.exists()
    monkeypatch.undo()
    saved = engine_module.save_progress

    def ctrl_c_once_saved(*args):
        count = saved(*args)
        raise KeyboardInterrupt              # as interrupts_held raises it after the write
    monkeypatch.setattr(engine_module, "save_progress", ctrl_c_once_saved)
    work = tmp_path / "work.npz"
    result = run(["solve", "positions/spec_worked_example.json", "--progress-file", str(work)])
    assert result.exit_code == ExitStatus.INTERRUPTED and "value 2.70588" in result.stdout
    assert work.exists()


@pytest.mark.parametrize("options, said", [
    (["--seconds", "60"], "(stopped early: the answer so far)"),
    (["--bot", "mcts", "--seconds", "60", "--json"], '"interrupted": true'),
    (["--bot", "mcts", "--iterations", "100000000", "--json"], '"interrupted": true')])
def test_ctrl_c_in_a_search_of_hidden_hands_prints_the_answer_so_far(options, said):
    """A real SIGINT to `nimmt best` thinking about a hidden hand (`belief` with a time
    budget, the search player with one of seconds or iterations): the answer so far on
    stdout, status 130, one line on stderr."""
    process = subprocess.Popen(
        [sys.executable, "-m", "solver", "best", FOUR_PLAYERS, *options], cwd=ROOT,
        text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while cpu_seconds(process.pid) < 2.0 and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == ExitStatus.INTERRUPTED, err
    assert said in out and ("Player 1: play" in out or '"play": ' in out)
    assert err.strip() == "nimmt: error: interrupted (Ctrl-C)"


def test_ctrl_c_in_a_tournament_is_130(monkeypatch):
    monkeypatch.setattr(bots, "GamesProgress", type("P", (Interrupting, GamesProgress), {}))
    result = run(["tournament", "-n", "3", "--bots", "random", "--games", "3"])
    assert result.exit_code == ExitStatus.INTERRUPTED
    assert "interrupted" in error_line(result)


def test_a_stopped_solve_inside_another_command_is_a_plain_stop(monkeypatch):
    """A bot's or the training's exact solve stopped by Ctrl-C: the command was stopped, no
    'value NOT proven' of a value nobody asked for."""
    def stopped(*args, **kwargs):
        raise errors.SearchLimitError("stopped on request (Ctrl-C)", (0.0, 1.0),
                                      interrupted=True)
    monkeypatch.setattr(bots, "run_tournament", stopped)
    result = run(["tournament", "-n", "2", "--bots", "mcts", "--games", "1"])
    assert result.exit_code == ExitStatus.INTERRUPTED
    assert error_line(result) == "nimmt: error: interrupted (Ctrl-C)"


def test_ctrl_c_in_play_is_130(monkeypatch):
    def ask(self, *args):
        raise KeyboardInterrupt
    monkeypatch.setattr(play.TerminalPlayer, "_ask", ask)
    result = run(["play", "--players", "2", "--seed", "1"])
    assert result.exit_code == ExitStatus.INTERRUPTED
    assert "interrupted" in error_line(result)


@pytest.mark.parametrize("stop, status, said", [
    (signal.SIGINT, ExitStatus.INTERRUPTED, "Ctrl-C"),
    (signal.SIGTERM, ExitStatus.TERMINATED, "SIGTERM"),
    (signal.SIGHUP, ExitStatus.HUNG_UP, "SIGHUP")])
def test_a_real_stop_signal_stops_solve_with_its_status_and_its_bounds(stop, status, said):
    process = subprocess.Popen(
        [sys.executable, "-m", "solver", "solve", EIGHT_CARDS], cwd=ROOT, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    # wait for 1.5 s of CPU time (the imports take about 0.3 s; the solve about 10 s), so
    # that a busy machine, which slows the imports, cannot make the signal come too early
    deadline = time.monotonic() + 60
    while cpu_seconds(process.pid) < 1.5 and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(stop)
    out, err = process.communicate(timeout=60)
    assert process.returncode == status, err
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and "value NOT proven" in lines[0] and said in lines[0], err


def test_ctrl_c_at_the_prompt_of_play_ends_the_prompt_line(monkeypatch):
    class CtrlC:
        def readline(self, limit=-1):
            raise KeyboardInterrupt

    init = play.TerminalPlayer.__init__

    def with_ctrl_c(self, names):
        init(self, names)
        self.stdin = CtrlC()
    monkeypatch.setattr(play.TerminalPlayer, "__init__", with_ctrl_c)
    result = run(["play", "--players", "2", "--seed", "1"])
    assert result.exit_code == ExitStatus.INTERRUPTED
    assert result.stdout.endswith("your card? \n")
    assert "interrupted" in error_line(result)


def test_ctrl_c_while_the_arguments_are_read_is_130_in_one_line(monkeypatch):
    """Between the loading and the command: click's own handler would print an empty line
    on stderr before the error line."""
    def parse_args(self, ctx, args):
        raise KeyboardInterrupt
    monkeypatch.setattr(app.NimmtGroup, "parse_args", parse_args)
    result = run(["show", "positions/example.json"])
    assert result.exit_code == ExitStatus.INTERRUPTED
    assert result.stderr == "nimmt: error: interrupted (Ctrl-C)\n"


@pytest.mark.parametrize("stop, status, words", [
    (signal.SIGINT, ExitStatus.INTERRUPTED, "Ctrl-C)"),
    (signal.SIGTERM, ExitStatus.TERMINATED, "(SIGTERM)"),
    (signal.SIGHUP, ExitStatus.HUNG_UP, "(SIGHUP)")])
def test_a_stop_while_the_command_loads_is_its_status_in_one_line(stop, status, words):
    """Ctrl-C, SIGTERM or SIGHUP in the command's first moments (numpy and the extensions
    loading): one line, no traceback, not silence. Sent after 0.15 and 0.3 s of CPU time:
    the loading takes about 0.4 s (a stop in Python's own start, before any of the package
    runs, is Python's; on a fast machine the second may reach the search, which names the
    stop as well)."""
    for cpu in (0.15, 0.3):
        process = subprocess.Popen(
            [sys.executable, "-m", "solver", "solve", EIGHT_CARDS], cwd=ROOT, text=True,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        deadline = time.monotonic() + 60
        while cpu_seconds(process.pid) < cpu and time.monotonic() < deadline:
            time.sleep(0.01)
        process.send_signal(stop)
        out, err = process.communicate(timeout=60)
        assert process.returncode == status, err
        assert "Traceback" not in err and len(err.splitlines()) == 1 and words in err, err
