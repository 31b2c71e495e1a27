"""Batch solving: `nimmt deal --count` and `nimmt batch solve` (its results, errors, resume,
a torn last line, kills at random moments, a changed input, Ctrl-C), and the tables chosen for
the workers. Positions of 5 cards a hand: each solves in milliseconds."""
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from solver import Position, solve
from solver.batch.deals import deal_positions
from solver.batch.memory import TablePlan, plan_tables
from solver.errors import NimmtError
from tests.support import assert_input_error, run

ROOT = Path(__file__).resolve().parent.parent


def deal_lines(count, seed, cards=5):
    result = run(["deal", "--count", str(count), "--seed", str(seed), "--cards", str(cards)])
    assert result.exit_code == 0, result.stderr
    return result.stdout.splitlines()


def write_input(tmp_path, lines, name="in.jsonl"):
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines))
    return path


def read_results(path):
    text = Path(path).read_text()
    assert text == "" or text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def essentials(records):
    """What does not depend on timing or on the worker: line, position, status, value,
    strategies, error."""
    keep = ("line", "position", "status", "value", "strategies", "error")
    return sorted((json.dumps({k: r.get(k) for k in keep}) for r in records))


# nimmt deal --count -------------------------------------------------------------------------
@pytest.mark.parametrize("cards", [10, 6, 1])
def test_deal_count_is_seeded_and_valid(cards):
    lines = deal_lines(12, 7, cards)
    assert lines == deal_lines(12, 7, cards)
    assert lines != deal_lines(12, 8, cards)
    assert len(lines) == 12 and len(set(lines)) == 12
    for line in lines:
        position = Position.from_json(line)
        assert position.deck == 24 and position.players == 2
        assert position.complete_information and position.hand_size == cards
        in_rows = sum(len(r) for r in position.rows)
        if cards == 10:
            assert in_rows == 4 and position.penalties == (0, 0)
        # every card is in a hand, in a row or was taken
        assert 2 * cards + in_rows <= 24


def test_deal_count_to_a_file_and_the_library_agree(tmp_path):
    out = tmp_path / "deals.jsonl"
    result = run(["deal", "--count", "5", "--seed", "3", "--cards", "6", "--out", str(out)])
    assert result.exit_code == 0 and result.stdout == ""
    lines = out.read_text().splitlines()
    assert lines == deal_lines(5, 3, 6)
    assert lines == [p.to_json() for p in deal_positions(5, 3, 6)]
    assert run(["deal", "--count", "5", "--seed", "3", "--cards", "6", "--out", "-"]).stdout \
        == out.read_text()


@pytest.mark.parametrize("args, words", [
    (["--count", "0"], ["0"]),
    (["--count", "2", "--cards", "11"], ["11"]),
    (["--count", "2", "--cards", "0"], ["0"]),
    (["--count", "2", "-n", "3"], ["2-player"]),
    (["--count", "2", "--variant", "standard"], ["10n+4"]),
    (["--count", "2", "--as", "table"], ["json"]),
    (["-n", "2", "--cards", "5"], ["--count"]),
    (["-n", "2", "--out", "x.jsonl"], ["--count"]),
    (["--count", "2", "--out", "/no/such/dir/x.jsonl"], ["/no/such/dir"]),
])
def test_deal_count_refuses(args, words):
    assert_input_error(run(["deal"] + args), *words)


# nimmt batch solve ---------------------------------------------------------------------------
def test_batch_gives_the_values_of_solve(tmp_path):
    lines = deal_lines(10, 11)
    source = write_input(tmp_path, lines)
    out = tmp_path / "out.jsonl"
    result = run(["batch", "solve", str(source), "--out", str(out), "--jobs", "2",
                  "--card-values"])
    assert result.exit_code == 0, result.stderr
    assert "10 of 10 positions" in result.stderr and "2 workers" in result.stderr
    records = read_results(out)
    assert sorted(r["line"] for r in records) == list(range(1, 11))
    assert {r["worker"] for r in records} <= {1, 2}
    for record in records:
        position = Position.from_json(lines[record["line"] - 1])
        expected = solve(position).to_dict()
        assert record["status"] == "solved" and record["position"] == position.to_text()
        assert record["value"] == pytest.approx(expected["value"], abs=1e-9)
        assert record["strategies"] == expected["strategies"]
        assert record["card_values"] == expected["card_values"]
        assert record["stats"]["nodes"] == expected["stats"]["nodes"]
        assert record["seconds"] >= 0


def test_bad_lines_are_recorded_and_the_batch_goes_on(tmp_path):
    good = deal_lines(3, 5)
    lines = [good[0], "{not json", "", good[1],
             '{"rows": [[1], [2], [3], [4]], "hands": [[5], [6]]}',       # deck 104
             "24; 1, 2, 3, 4; 5 6, ?",                                     # a hidden hand
             "24; 1, 2, 3, 4; 5, 6, 7",                                    # 3 players
             good[2]]
    source = write_input(tmp_path, lines)
    out = tmp_path / "out.jsonl"
    result = run(["batch", "solve", str(source), "--out", str(out)])
    assert result.exit_code == 5, result.stderr       # finished, not every position solved
    assert "3 solved" in result.stderr and "4 errors" in result.stderr
    assert "4 not solved in all (exit status 5)" in result.stderr
    records = {r["line"]: r for r in read_results(out)}
    assert sorted(records) == [1, 2, 4, 5, 6, 7, 8]          # the blank line 3 is no position
    assert [records[k]["status"] for k in (1, 4, 8)] == ["solved"] * 3
    for k, word in ((2, "JSON"), (5, "deck 104"), (6, "hand"), (7, "2 players")):
        assert records[k]["status"] == "error" and records[k]["value"] is None
        assert word in records[k]["error"] and "\n" not in records[k]["error"]
    # the same message the command line gives for that position
    single = run(["solve", lines[1]])
    assert single.stderr.strip() == "nimmt: error: " + records[2]["error"]
    # resumed, nothing left to do: the file still holds errors, so the status is still 5
    again = run(["batch", "solve", str(source), "--out", str(out)])
    assert again.exit_code == 5 and "(7 done before); 4 not solved in all" in again.stderr
    # the good lines alone: every position solved, status 0
    good_source = tmp_path / "good.jsonl"
    good_source.write_text("".join(line + "\n" for line in good))
    done = run(["batch", "solve", str(good_source), "--out", str(tmp_path / "good-out.jsonl")])
    assert done.exit_code == 0 and "not solved" not in done.stderr


def test_a_limit_is_recorded_with_its_bounds(tmp_path):
    source = write_input(tmp_path, deal_lines(2, 4, cards=8))
    out = tmp_path / "out.jsonl"
    result = run(["batch", "solve", str(source), "--out", str(out), "--max-nodes", "50"])
    assert result.exit_code == 5, result.stderr
    assert "2 stopped by a limit" in result.stderr
    for record in read_results(out):
        assert record["status"] == "limit" and record["value"] is None
        assert set(record["bounds"]) == {"lower", "upper"}
        assert record["stats"]["nodes"] >= 50 and "50 nodes" in record["error"]


def test_resume_skips_the_lines_done(tmp_path):
    source = write_input(tmp_path, deal_lines(8, 12))
    out = tmp_path / "out.jsonl"
    assert run(["batch", "solve", str(source), "--out", str(out)]).exit_code == 0
    full = read_results(out)
    out.write_text("".join(json.dumps(r) + "\n" for r in full[:5]))
    result = run(["batch", "solve", str(source), "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    assert "5 of 8 positions already" in result.stderr and "3 solved" in result.stderr
    assert essentials(read_results(out)) == essentials(full)
    again = run(["batch", "solve", str(source), "--out", str(out)])
    assert "0 solved" in again.stderr and essentials(read_results(out)) == essentials(full)


def test_an_error_of_the_machine_is_solved_again_on_resuming(tmp_path):
    """Out of memory or lost workers: the position is not at fault, so a resumed run solves
    it again, and the report reads the new result in place of the error."""
    source = write_input(tmp_path, deal_lines(4, 15))
    out = tmp_path / "out.jsonl"
    assert run(["batch", "solve", str(source), "--out", str(out)]).exit_code == 0
    full = read_results(out)
    failed = dict(full[1], status="error", value=None, error="out of memory", retry=True)
    for key in ("strategies", "stats"):
        failed.pop(key, None)
    out.write_text("".join(json.dumps(r) + "\n" for r in [full[0], failed, full[2]]))
    result = run(["batch", "solve", str(source), "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    assert "2 of 4 positions already" in result.stderr and "2 solved" in result.stderr
    assert len(read_results(out)) == 5
    report = run(["batch", "report", str(out), "--json"])
    assert report.exit_code == 0, report.stderr
    counts = json.loads(report.stdout)
    assert (counts["results"], counts["solved"], counts["error"]) == (4, 4, 0)


def test_two_runs_on_one_results_file_are_refused(tmp_path):
    from solver.batch.results import ResultsFile
    source = write_input(tmp_path, deal_lines(2, 16))
    out = tmp_path / "out.jsonl"
    holder = ResultsFile(str(out))
    holder.lock()
    try:
        assert_input_error(run(["batch", "solve", str(source), "--out", str(out)]),
                           "another run", "--out")
        assert out.read_bytes() == b""
    finally:
        holder.unlock()
    assert run(["batch", "solve", str(source), "--out", str(out)]).exit_code == 0
    assert run(["batch", "solve", str(source), "--out", str(out)]).exit_code == 0


def test_a_torn_last_line_is_repaired(tmp_path):
    source = write_input(tmp_path, deal_lines(6, 13))
    out = tmp_path / "out.jsonl"
    assert run(["batch", "solve", str(source), "--out", str(out)]).exit_code == 0
    full = read_results(out)
    text = "".join(json.dumps(r) + "\n" for r in full[:3])
    torn = json.dumps(full[3])[:40]
    out.write_text(text + torn)
    result = run(["batch", "solve", str(source), "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    assert f"torn last line ({len(torn)} bytes)" in result.stderr
    assert essentials(read_results(out)) == essentials(full)


def test_a_last_result_without_its_newline_is_kept(tmp_path):
    """A kill between a line and its newline leaves a whole result: kept (its newline
    written), read by a report, not solved again; a tail of zero bytes (what a crash can
    leave of a line not yet written) is cut."""
    source = write_input(tmp_path, deal_lines(4, 13))
    out = tmp_path / "out.jsonl"
    assert run(["batch", "solve", str(source), "--out", str(out)]).exit_code == 0
    full = out.read_bytes()
    out.write_bytes(full[:-1])
    report = run(["batch", "report", str(out)])
    assert report.exit_code == 0 and "4 results" in report.stdout and "torn" not in report.output
    result = run(["batch", "solve", str(source), "--out", str(out)])
    assert result.exit_code == 0 and "torn" not in result.stderr
    assert "this run 0 solved" in result.stderr and out.read_bytes() == full
    out.write_bytes(full + bytes(300))
    result = run(["batch", "solve", str(source), "--out", str(out)])
    assert result.exit_code == 0 and "torn last line (300 bytes)" in result.stderr
    assert out.read_bytes() == full


def test_a_changed_input_is_refused(tmp_path):
    lines = deal_lines(4, 14)
    source = write_input(tmp_path, lines)
    out = tmp_path / "out.jsonl"
    assert run(["batch", "solve", str(source), "--out", str(out)]).exit_code == 0
    before = out.read_bytes()
    changed = write_input(tmp_path, [lines[1], lines[0]] + lines[2:], "changed.jsonl")
    assert_input_error(run(["batch", "solve", str(changed), "--out", str(out)]),
                       "another input", "--out")
    shorter = write_input(tmp_path, lines[:2], "shorter.jsonl")
    assert_input_error(run(["batch", "solve", str(shorter), "--out", str(out)]),
                       "does not have")
    not_results = tmp_path / "notes.txt"
    not_results.write_text("my notes\n")
    assert_input_error(run(["batch", "solve", str(source), "--out", str(not_results)]),
                       "not a batch results file")
    assert out.read_bytes() == before and not_results.read_text() == "my notes\n"
    for text in ("my notes\nno newline at the end", "no newline at all",
                 before.decode() + "a last line"):     # no torn result: left as it was
        not_results.write_text(text)
        assert_input_error(run(["batch", "solve", str(source), "--out", str(not_results)]),
                           "not a batch results file")
        assert not_results.read_text() == text
    nested = tmp_path / "nested.jsonl"          # JSON nested too deep for Python's parser
    nested.write_text("[" * 100_000 + "\n")
    assert_input_error(run(["batch", "solve", str(source), "--out", str(nested)]),
                       "not a batch results file", "its line 1")
    assert nested.read_text() == "[" * 100_000 + "\n"


def test_an_edited_input_line_s_result_is_named_for_removal(tmp_path):
    lines = deal_lines(6, 14)
    source = write_input(tmp_path, lines)
    out = tmp_path / "out.jsonl"
    assert run(["batch", "solve", str(source), "--out", str(out)]).exit_code == 0
    edited = write_input(tmp_path, lines[:2] + ["not a position"] + lines[3:], "edited.jsonl")
    assert_input_error(run(["batch", "solve", str(edited), "--out", str(out)]),
                       "its line 3 is the result of another position", "remove")
    kept = [line for line in out.read_text().splitlines() if '"line": 3,' not in line]
    out.write_text("\n".join(kept) + "\n")            # as the message says
    result = run(["batch", "solve", str(edited), "--out", str(out)])
    assert result.exit_code == 5 and len(read_results(out)) == 6


def test_a_resume_with_other_result_options_is_refused(tmp_path):
    source = write_input(tmp_path, deal_lines(3, 14))
    out = tmp_path / "out.jsonl"
    assert run(["batch", "solve", str(source), "--out", str(out)]).exit_code == 0
    before = out.read_bytes()
    assert_input_error(run(["batch", "solve", str(source), "--out", str(out), "--card-values"]),
                       "written without --card-values")
    out.write_bytes(before.splitlines(keepends=True)[0])
    assert_input_error(run(["batch", "solve", str(source), "--out", str(out), "--row-choices"]),
                       "written without --row-choices")
    assert out.read_bytes() == before.splitlines(keepends=True)[0]


def test_a_byte_order_mark_before_the_results_is_read_past(tmp_path):
    source = write_input(tmp_path, deal_lines(2, 14))
    out = tmp_path / "out.jsonl"
    assert run(["batch", "solve", str(source), "--out", str(out)]).exit_code == 0
    out.write_bytes(b"\xef\xbb\xbf" + out.read_bytes())
    again = run(["batch", "solve", str(source), "--out", str(out)])
    assert again.exit_code == 0 and "this run 0 solved" in again.stderr


@pytest.mark.parametrize("damage", ["no value", "NaN"])
def test_a_solved_line_without_its_value_is_not_a_result(tmp_path, damage):
    source = write_input(tmp_path, deal_lines(3, 14))
    out = tmp_path / "out.jsonl"
    assert run(["batch", "solve", str(source), "--out", str(out)]).exit_code == 0
    first = json.loads(out.read_text().splitlines()[0])
    if damage == "NaN":
        first["value"] = float("nan")            # written NaN: JSON for Python, no number
    else:
        del first["value"]
    out.write_text(json.dumps(first) + "\n")
    assert_input_error(run(["batch", "solve", str(source), "--out", str(out)]),
                       "its line 1 is not a whole result", "remove that line")


def test_a_line_not_utf8_a_known_hidden_hand_and_an_ended_round(tmp_path):
    """A line of bytes that are not UTF-8 is one line that is no position, not a refused
    input; a hidden hand the cards seen make known is filled in, as solve does; a round
    already over is solved (value 0) and reported."""
    known = ('{"deck": 24, "rows": [[3, 10], [7], [12, 15, 18], [21]], "hands": [[1, 2, 4],'
             ' null], "played": [9, 11, 13, 14, 16, 17, 19, 20, 22, 23, 24]}')
    source = tmp_path / "in.txt"
    source.write_bytes(known.encode() + b"\n\xff\xfe\n24; 1, 8, 5 7, 10; -, -\n")
    out = tmp_path / "out.jsonl"
    result = run(["batch", "solve", str(source), "--out", str(out)])
    assert result.exit_code == 5, result.stderr
    records = {r["line"]: r for r in read_results(out)}
    assert records[1]["status"] == "solved"
    assert records[1]["position"] == "24; 3 10, 7, 12 15 18, 21; 1 2 4, 5 6 8; 0 0"
    assert records[1]["value"] == json.loads(run(["solve", known, "--json"]).stdout)["value"]
    assert records[2]["status"] == "error" and "not UTF-8" in records[2]["error"]
    assert (records[3]["status"], records[3]["value"], records[3]["strategies"]) == \
        ("solved", 0.0, [[], []])
    again = run(["batch", "solve", str(source), "--out", str(out)])
    assert again.exit_code == 5 and "(3 done before)" in again.stderr
    report = run(["batch", "report", str(out)])
    assert report.exit_code == 0, report.stderr
    assert "3 results: 2 solved" in report.stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="a named pipe")
def test_an_out_that_is_no_regular_file_is_refused_at_once(tmp_path):
    source = write_input(tmp_path, deal_lines(2, 14))
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)            # opening it to write would wait for a reader forever
    assert_input_error(run(["batch", "solve", str(source), "--out", str(pipe)]),
                       "not a regular file")


def test_a_run_that_fails_before_its_first_result_leaves_no_file(tmp_path):
    source = write_input(tmp_path, deal_lines(2, 14))
    out = tmp_path / "out.jsonl"
    assert_input_error(run(["batch", "solve", str(source), "--out", str(out),
                            "--tt-size", "65536", "--jobs", "64"]), "--tt-size")
    assert not out.exists()


def test_one_damaged_line_names_itself_and_the_way_out(tmp_path):
    source = write_input(tmp_path, deal_lines(4, 17))
    out = tmp_path / "out.jsonl"
    assert run(["batch", "solve", str(source), "--out", str(out)]).exit_code == 0
    full = read_results(out)
    text = [json.dumps(r) + "\n" for r in full]
    out.write_text("".join(text[:2]) + "{garbled\n" + "".join(text[3:]))
    assert_input_error(run(["batch", "solve", str(source), "--out", str(out)]),
                       "its line 3 is not a result", "2 results before it", "remove that line")
    out.write_text("".join(text[:2] + text[3:]))          # as the message says
    result = run(["batch", "solve", str(source), "--out", str(out)])
    assert result.exit_code == 0 and "1 solved" in result.stderr, result.stderr
    assert essentials(sorted(read_results(out), key=lambda r: r["line"])) == essentials(
        sorted(full, key=lambda r: r["line"]))


@pytest.mark.parametrize("args, words", [
    (["batch", "solve", "/no/such/file.jsonl", "--out", "x.jsonl"], ["/no/such/file.jsonl"]),
    (["batch", "solve", "-"], ["--out"]),
    (["batch", "solve", "-", "--out", "x.jsonl", "--jobs", "0"], ["0"]),
    (["batch", "solve", "-", "--out", "x.jsonl", "--time-limit", "nan"], ["nan"]),
    (["batch", "solve", "-", "--out", "/no/such/dir/x.jsonl"], ["/no/such/dir"]),
    (["batch", "solve", "-", "--out", "-"], ["--out -", "not to stdout"]),   # no file '-'
])
def test_batch_refuses_a_bad_command_line(args, words):
    assert_input_error(run(args, stdin="24; 3 10, 7, 12 15 18, 21; 1 2 4, 5 6 8\n"), *words)


def test_tables_fit_the_memory_available():
    assert plan_tables(2, [10], None, None).cap_mb is None
    plan = plan_tables(4, [10, 5], None, available=8000.0)
    assert plan.capped and plan.table_mb(10) == plan.cap_mb and plan.table_mb(5) == 8
    assert 4 * (plan.cap_mb + 100 + 256) <= 8000
    assert not plan_tables(1, [6], None, available=8000.0).capped
    assert plan_tables(4, [10], 64.0, available=1000.0).table_mb(10) == 64.0
    with pytest.raises(NimmtError, match="more than the 10 MB of memory available"):
        plan_tables(4, [10], 64.0, available=10.0)
    with pytest.raises(NimmtError, match="not enough memory"):
        plan_tables(8, [10], None, available=1000.0)
    assert TablePlan(1, fixed_mb=2.0).table_mb(3) == 2.0


# kills and Ctrl-C, on the real command in a subprocess ---------------------------------------
def batch_process(source, out, jobs=2):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-m", "solver", "batch", "solve", str(source),
                             "--out", str(out), "--jobs", str(jobs), "--card-values"],
                            cwd=str(ROOT), env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            # Ctrl-C as in a terminal: a test run started in the background
                            # (`cmd &`) hands its children SIGINT ignored
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def count_lines(path):
    return path.read_bytes().count(b"\n") if path.exists() else 0


def wait_for_lines(path, lines, process, seconds=120.0):
    """Until `path` holds `lines` lines, or `process` ended, or `seconds` passed."""
    deadline = time.monotonic() + seconds
    while count_lines(path) < lines and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)


def no_process_left(argument, seconds=10.0):
    """No process runs with `argument` on its command line (False if some still do after
    `seconds`); True where /proc is missing."""
    if not os.path.isdir("/proc"):
        return True
    deadline = time.monotonic() + seconds
    while True:
        alive = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as handle:
                    if argument.encode() in handle.read():
                        alive.append(pid)
            except OSError:
                pass
        if not alive or time.monotonic() > deadline:
            return not alive
        time.sleep(0.2)


def test_kill_9_three_times_then_resume_gives_the_uninterrupted_results(tmp_path):
    source = write_input(tmp_path, deal_lines(60, 15, cards=6))
    reference = tmp_path / "reference.jsonl"
    done = batch_process(source, reference)
    assert done.wait(120) == 0, done.stderr.read()
    out = tmp_path / "out.jsonl"
    rng = random.Random(2026)
    lines_after_kills = []
    for _ in range(3):
        process = batch_process(source, out)
        # a random moment of the run, whatever the machine's load: after a random number of
        # new lines, and a random part of a position's solve
        wait_for_lines(out, count_lines(out) + rng.randint(1, 12), process)
        time.sleep(rng.uniform(0, 0.05))
        process.send_signal(signal.SIGKILL)
        process.wait(30)
        process.stdout.close()
        process.stderr.close()
        lines_after_kills.append(count_lines(out))
    assert any(0 < n < 60 for n in lines_after_kills), lines_after_kills   # mid-run kills
    final = batch_process(source, out)
    assert final.wait(120) == 0, final.stderr.read()
    assert no_process_left(str(out))                 # the killed batches' workers ended too
    records = read_results(out)
    assert len(records) == 60 and len({r["line"] for r in records}) == 60
    assert essentials(records) == essentials(read_results(reference))


def children(pid):
    """The process ids of `pid`'s children (Linux /proc), [] where unknown."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return [int(c) for c in handle.read().split()]
    except OSError:
        return []


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="finds the workers in /proc")
def test_a_killed_worker_s_position_is_solved_by_a_new_worker(tmp_path):
    """kill -9 of a worker (not of the command): its position goes to a fresh worker, and
    the file ends with the results of an uninterrupted run, each line once."""
    source = write_input(tmp_path, deal_lines(40, 17, cards=6))
    reference = tmp_path / "reference.jsonl"
    done = batch_process(source, reference)
    assert done.wait(120) == 0, done.stderr.read()
    out = tmp_path / "out.jsonl"
    process = batch_process(source, out)
    killed = 0
    for lines in (3, 15):
        wait_for_lines(out, lines, process)
        workers = children(process.pid)
        if workers and process.poll() is None:
            os.kill(workers[0], signal.SIGKILL)
            killed += 1
    assert process.wait(120) == 0, process.stderr.read()
    stderr = process.stderr.read()
    process.stdout.close()
    process.stderr.close()
    assert killed == 2, stderr
    # said, unless the kill fell between two positions of the worker
    notes = [line for line in stderr.splitlines() if "ended (killed by signal 9) on input" in line]
    assert 1 <= len(notes) <= 2 and "a new worker solves it again" in notes[0], stderr
    records = read_results(out)
    assert len(records) == 40 and len({r["line"] for r in records}) == 40, stderr
    assert all(r["status"] == "solved" for r in records), [r for r in records
                                                            if r["status"] != "solved"]
    assert essentials(records) == essentials(read_results(reference))


@pytest.mark.parametrize("stop, status, said", [
    (signal.SIGINT, 130, "interrupted (Ctrl-C)"),
    (signal.SIGTERM, 143, "terminated (SIGTERM)")])
def test_ctrl_c_or_sigterm_stops_cleanly_with_an_intact_file(tmp_path, stop, status, said):
    # 7 cards: the batch lasts a few seconds, so the stop comes well before its end
    source = write_input(tmp_path, deal_lines(40, 16, cards=7))
    out = tmp_path / "out.jsonl"
    process = batch_process(source, out)
    wait_for_lines(out, 3, process)                 # in the middle of the batch
    process.send_signal(stop)
    assert process.wait(30) == status
    stderr = process.stderr.read()
    assert "Traceback" not in stderr and said in stderr
    records = read_results(out)                     # whole lines only
    assert len(records) == len({r["line"] for r in records}) < 40
    # the summary counts what the file holds, even when the stop came during a write
    assert f"interrupted: {len(records)} of 40 positions" in stderr
    assert no_process_left(str(out))
    final = batch_process(source, out)
    assert final.wait(120) == 0, final.stderr.read()
    assert len(read_results(out)) == 40


class Terminal:
    def __init__(self):
        self.text = ""

    def isatty(self):
        return True

    def write(self, text):
        self.text += text

    def flush(self):
        pass


def test_progress_shows_done_total_and_time_left_on_a_terminal_only():
    from solver.text.progress import BatchProgress
    terminal = Terminal()
    progress = BatchProgress(10, done_before=4, stream=terminal)
    progress(4)
    assert " 4/10 positions" in terminal.text and "ETA ?" in terminal.text
    progress(6, errors=1)
    assert " 6/10 positions" in terminal.text and "ETA" in terminal.text
    assert "1 error" in terminal.text
    progress.close()
    assert terminal.text.endswith("\r\033[K")
    log = Terminal()
    log.isatty = lambda: False
    BatchProgress(3, stream=log)(1)
    assert log.text == ""


# on a Dask cluster ---------------------------------------------------------------------------
def test_a_dask_cluster_gives_the_results_of_local_workers(tmp_path):
    distributed = pytest.importorskip("distributed")
    source = write_input(tmp_path, deal_lines(10, 17) + ["not a position"])
    local = tmp_path / "local.jsonl"
    assert run(["batch", "solve", str(source), "--out", str(local)]).exit_code == 5
    out = tmp_path / "out.jsonl"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        result = run(["batch", "solve", str(source), "--out", str(out), "--scheduler", address])
        assert result.exit_code == 5, result.stderr      # the line that is no position
        assert "2 worker threads on the cluster" in result.stderr
        assert "10 solved" in result.stderr and "1 error" in result.stderr
        records = read_results(out)
        assert essentials(records) == essentials(read_results(local))
        assert len({r["worker"] for r in records if r["worker"] is not None}) <= 2
        # resumed on the cluster like a local batch
        out.write_text("".join(json.dumps(r) + "\n" for r in records[:4]))
        again = run(["batch", "solve", str(source), "--out", str(out), "--scheduler", address])
        assert again.exit_code == 5 and "4 of 11 positions already" in again.stderr
        assert essentials(read_results(out)) == essentials(records)


def test_the_scheduler_option_refuses_clearly(tmp_path, monkeypatch):
    source = write_input(tmp_path, deal_lines(1, 18))
    out = str(tmp_path / "out.jsonl")
    assert_input_error(run(["batch", "solve", str(source), "--out", out, "--jobs", "2",
                            "--scheduler", "tcp://127.0.0.1:9"]), "--jobs", "--scheduler")
    monkeypatch.setitem(sys.modules, "distributed", None)        # Dask not installed
    assert_input_error(run(["batch", "solve", str(source), "--out", out,
                            "--scheduler", "tcp://127.0.0.1:9"]), "nimmt[batch]")
    monkeypatch.undo()
    pytest.importorskip("distributed")
    from solver.batch import cluster
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1)
    assert_input_error(run(["batch", "solve", str(source), "--out", out,
                            "--scheduler", "tcp://127.0.0.1:9"]), "cannot reach", "127.0.0.1:9")


def test_a_stopped_worker_does_not_hold_up_the_end():
    """A worker stopped (kill -STOP, Ctrl-Z) when its parent ends the work: continued to
    take its SIGTERM, not waited for without end."""
    from solver.workers import Unwatched, Worker, fork_or_spawn
    worker = Worker(fork_or_spawn(), 1, Unwatched(time.sleep), "test-worker")
    worker.conn.send(60)                          # busy for a minute
    os.kill(worker.process.pid, signal.SIGSTOP)
    start = time.monotonic()
    worker.stop()
    assert time.monotonic() - start < 10 and not worker.process.is_alive()


def test_a_batch_stopped_before_its_first_result_says_it_starts_afresh():
    from solver.batch.runner import BatchSummary
    from solver.text.batch import format_interrupted
    assert format_interrupted(BatchSummary(2), "out.jsonl") == \
        "batch: interrupted before the first result; the same command starts afresh"
    assert format_interrupted(BatchSummary(2, skipped=1), "out.jsonl") == \
        "batch: interrupted: 1 of 2 positions in out.jsonl; the same command resumes"


def test_an_input_without_positions_says_so_and_writes_nothing(tmp_path):
    source = write_input(tmp_path, ["", "  "])
    out = tmp_path / "out.jsonl"
    result = run(["batch", "solve", str(source), "--out", str(out)])
    assert result.exit_code == 0 and not out.exists()
    assert "the input holds no position (blank lines only)" in result.stderr
