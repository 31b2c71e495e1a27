"""A solve's saved work (solver/exact/progress.py): a stopped solve started again from its
progress file gives the same answer with less work, and a wrong file is refused."""
import hashlib
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from solver import Position, Turn, apply_turn
from solver.errors import ConfigError, NimmtError, SearchLimitError
from solver.exact import engine as engine_module
from solver.exact.engine import Engine
from solver.exact.progress import MIN_CARDS, RECORD
from solver.limits import Limit
from solver.stopping import TICK
from solver.cli import ExitStatus
from tests.support import cpu_seconds, error_line, run

SEVEN = "positions/07_seven_cards_deal_mixed.json"


def seven() -> Position:
    return Position.from_json(open(SEVEN).read())


def fresh_solve(position):
    with Engine(position) as engine:
        solution = engine.solve(position, card_values=False)
    return solution.value, solution.stats.to_dict()["nodes"]


def test_a_stopped_solve_starts_again_from_its_file(tmp_path):
    position = seven()
    value, nodes = fresh_solve(position)
    path = str(tmp_path / "work.npz")
    with Engine(position, progress_file=path) as engine:
        assert engine.loaded == 0                          # no file yet: a fresh start
        with pytest.raises(SearchLimitError):
            engine.solve(position, Limit(nodes=nodes // 2), card_values=False)
    saved = np.load(path)["records"].tobytes()
    records = np.frombuffer(saved, dtype=RECORD)
    assert len(records) > 0 and records["cards"].min() >= MIN_CARDS
    with Engine(position, progress_file=path) as engine:
        assert engine.loaded == len(records)
        resumed = engine.solve(position, card_values=False)
    assert abs(resumed.value - value) < 1e-9
    assert resumed.stats.to_dict()["nodes"] < 0.8 * nodes      # the work kept is not redone
    with Engine(position, progress_file=path) as engine:       # the finished solve's file
        again = engine.solve(position, card_values=False)
        assert engine.loaded == engine.in_file
    assert abs(again.value - value) < 1e-9
    assert again.stats.to_dict()["nodes"] < 0.05 * nodes
    # a table too small for the file keeps what it can, and says so
    result = run(["solve", SEVEN, "--progress-file", path, "--tt-size", "0.01"])
    assert result.exit_code == 0, result.output
    assert "the table (--tt-size) holds no more" in result.stderr


def test_a_later_position_of_the_round_starts_from_its_file(tmp_path):
    """The file of a deal serves the position a turn later (its states' keys are the same),
    and stays the deal's file."""
    position = seven()
    path = str(tmp_path / "round.npz")
    with Engine(position, progress_file=path) as engine:
        solution = engine.solve(position, card_values=False)
    cards = [max(s, key=s.get) for s in solution.strategies]
    later = apply_turn(position, Turn.of(cards)).position
    value, nodes = fresh_solve(later)
    with Engine(later, progress_file=path) as engine:
        assert engine.loaded > 0
        resumed = engine.solve(later, card_values=False)
    assert abs(resumed.value - value) < 1e-9
    assert resumed.stats.to_dict()["nodes"] < 0.1 * nodes
    assert str(np.load(path)["position"]) == position.to_text()
    with Engine(position, progress_file=path) as engine:      # the deal again: still its file
        assert engine.loaded > 0


def test_a_running_search_saves_its_work(tmp_path, monkeypatch):
    """Every SAVE_EVERY seconds of a run, not only when it ends."""
    saves = []
    original = Engine.save_progress

    def counted(self):
        saves.append(1)
        return original(self)
    monkeypatch.setattr(engine_module, "SAVE_EVERY", 0.0)
    monkeypatch.setattr(Engine, "save_progress", counted)
    position = Position.from_json(open("positions/08_eight_cards_deal.json").read())
    with Engine(position, progress_file=str(tmp_path / "work.npz")) as engine:
        engine.solve(position, card_values=False)
        seconds = engine.seconds
    # polled every TICK seconds: each poll of the run saved, then its end (on a loaded
    # machine a poll may come late, so half the polls are asked for, not all)
    assert len(saves) >= 2 and len(saves) >= seconds / TICK / 2, (len(saves), seconds)


def test_wrong_progress_files_are_refused(tmp_path):
    position = seven()
    other = Position.from_json(open("positions/spec_worked_example.json").read())
    path = str(tmp_path / "work.npz")
    with Engine(other, progress_file=path) as engine:
        engine.solve(other, card_values=False)
    with pytest.raises(ConfigError, match="another round"):
        Engine(position, progress_file=path)
    garbage = tmp_path / "garbage.npz"
    garbage.write_text("not a file of ours")
    with pytest.raises(ConfigError, match="not a progress file.*damaged.*remove it"):
        Engine(position, progress_file=str(garbage))
    with Engine(position, progress_file=path.replace("work", "seven")) as engine:
        with pytest.raises(SearchLimitError):
            engine.solve(position, Limit(nodes=20000), card_values=False)
    fields = dict(np.load(path.replace("work", "seven")))
    records = fields["records"].copy()
    records[20] ^= 1                                        # one bit of a bound flipped
    damaged = str(tmp_path / "damaged.npz")
    np.savez(damaged, **dict(fields, records=records))
    with pytest.raises(ConfigError, match="damaged"):
        Engine(position, progress_file=damaged)
    with pytest.raises(NimmtError, match="canonical"):
        Engine(position, progress_file=path, no_canonical=True)
    # a record written twice (an edited file) is one entry, not one the table had no room for
    twice = str(tmp_path / "twice.npz")
    doubled = np.concatenate([fields["records"], fields["records"][:RECORD.itemsize]])
    np.savez(twice, **dict(fields, records=doubled, digest=np.array(
        hashlib.sha256(doubled.tobytes()).hexdigest())))
    with Engine(position, progress_file=twice) as engine:
        assert engine.loaded == engine.in_file == len(fields["records"]) // RECORD.itemsize


def test_an_empty_file_is_no_progress_and_a_killed_save_s_temporary_goes(tmp_path):
    """An empty file (`touch`) is a file without progress yet; a save killed mid-write left
    `FILE.tmp-PID-XXXXXXXX` beside it, which the next solve of the file removes (not the
    temporaries of a running writer, nor anyone else's files)."""
    position = seven()
    path = tmp_path / "work.npz"
    path.touch()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    left = tmp_path / f"work.npz.tmp-{dead.pid}-abcdefgh"
    mine = tmp_path / f"work.npz.tmp-{os.getpid()}-abcdefgh"
    theirs = tmp_path / f"tmp-{dead.pid}-abcdefgh"
    for f in (left, mine, theirs):
        f.write_bytes(b"half")
    with Engine(position, progress_file=str(path)) as engine:
        assert engine.loaded == 0
    assert not left.exists() and mine.exists() and theirs.exists()


def test_progress_file_commands(tmp_path):
    path = str(tmp_path / "work.npz")
    stopped = run(["solve", SEVEN, "--max-nodes", "30000", "--progress-file", path])
    assert stopped.exit_code == 3
    done = run(["solve", SEVEN, "--json", "--progress-file", path])
    assert done.exit_code == 0
    fresh = run(["solve", SEVEN, "--json"])
    # a fresh solve's answer (the root reads nothing the file changes: exact_search.md),
    # numbers to rounding
    resumed, alone = json.loads(done.stdout), json.loads(fresh.stdout)
    assert abs(resumed["value"] - alone["value"]) < 1e-9
    assert resumed["strategies"] == alone["strategies"]
    assert resumed["principal_line"] == alone["principal_line"]
    for ours, theirs in zip(resumed["card_values"], alone["card_values"]):
        assert [c["card"] for c in ours] == [c["card"] for c in theirs]
        assert np.allclose([c["value"] for c in ours], [c["value"] for c in theirs],
                           rtol=0, atol=1e-9)
    for a, b in zip(resumed["matrix"], alone["matrix"]):
        assert [x is None for x in a] == [x is None for x in b]
        assert np.allclose([x for x in a if x is not None], [x for x in b if x is not None],
                           rtol=0, atol=1e-9)
    advice = run(["best", SEVEN, "--progress-file", path])
    assert advice.exit_code == 0
    assert "nimmt: starting from" in advice.stderr and "proven entries" in advice.stderr
    line = error_line(run(["solve", "positions/spec_worked_example.json",
                           "--progress-file", path]))
    assert "another round" in line
    assert "cannot be used here" in error_line(run(
        ["best", "positions/records/four_players_seen_by_1.json", "--progress-file", path]))
    assert "no writable directory" in error_line(run(
        ["solve", SEVEN, "--progress-file", str(tmp_path / "none" / "work.npz")]))


def test_an_empty_progress_file_name_is_refused(tmp_path):
    # an empty name was taken as no progress file: the work was silently not kept
    for command in ("solve", "best"):
        assert "needs a name" in error_line(run(
            [command, "positions/03_three_cards_mixed.json", "--progress-file", ""]))


def test_resume_benchmark(capsys):
    from benchmarks.bench_resume import main
    main(["--sizes", "7", "--count", "1", "--stops", "0.5"])
    line = capsys.readouterr().out.strip()
    assert line.startswith("7 cards, position 0:") and "stopped at 50%" in line
    share = float(line.split("needs ")[1].split(" of")[0])
    assert 0 < share < 0.9


def test_a_real_sigint_leaves_the_work_in_the_file(tmp_path):
    """Ctrl-C (a real SIGINT): exit status 130, and the file holds what was proven."""
    eight = "positions/08_eight_cards_deal.json"
    path = str(tmp_path / "work.npz")
    process = subprocess.Popen(
        [sys.executable, "-m", "solver", "solve", eight, "--progress-file", path],
        text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60        # 1.5 s of CPU: the search is under way
    while cpu_seconds(process.pid) < 1.5 and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == ExitStatus.INTERRUPTED, err
    position = Position.from_json(open(eight).read())
    with Engine(position, progress_file=path) as engine:
        assert engine.loaded > 0
        resumed = engine.solve(position, card_values=False)
    assert abs(resumed.value - fresh_solve(position)[0]) < 1e-9


def test_a_file_in_use_by_another_solve_is_refused(tmp_path):
    """Two solves saving to one file would each overwrite the other's work: the second is
    refused while the first holds FILE.lock, which goes with it."""
    position = seven()
    path = str(tmp_path / "work.npz")
    with Engine(position, progress_file=path):
        assert os.path.exists(path + ".lock")
        with pytest.raises(NimmtError, match="in use by another solve"):
            Engine(position, progress_file=path)
        other = subprocess.run([sys.executable, "-m", "solver", "solve", SEVEN,
                                "--progress-file", path], capture_output=True, text=True,
                               timeout=120)
        assert other.returncode == 2 and "in use by another solve" in other.stderr
    assert not os.path.exists(path + ".lock")
    with Engine(position, progress_file=path) as engine:      # free again
        engine.solve(position, card_values=False)
