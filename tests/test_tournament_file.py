"""`nimmt tournament --out FILE`: every game kept as it ends; a stopped tournament (a torn
last line, Ctrl-C, kill -9) resumed by the same command sums up as an uninterrupted run;
files of other tournaments, damaged lines and a second run are refused in one line."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tests.support import assert_input_error, run

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["tournament", "-n", "3", "--bots", "greedy,random,safe", "--games", "6", "--seed", "2",
        "--json"]


def summary(result):
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def lines(path):
    return path.read_text().splitlines()


@pytest.fixture(scope="module")
def fresh():
    return summary(run(ARGS))


def test_the_file_holds_the_tournament_and_every_game(tmp_path, fresh):
    out = tmp_path / "games.jsonl"
    assert summary(run(ARGS + ["--out", str(out)])) == fresh
    first, *games = [json.loads(line) for line in lines(out)]
    assert first == {"tournament": {"players": 3, "deck": 104, "threshold": 66, "seed": 2,
                                    "bots": ["greedy", "random", "safe"]}}
    assert sorted(g["game"] for g in games) == list(range(6))
    game = next(g for g in games if g["game"] == 1)
    assert game["seats"] == ["random", "safe", "greedy"]
    assert all(len(r) == 3 for r in game["rounds"]) and len(game["scores"]) == 3
    assert [sum(r[k] for r in game["rounds"]) for k in range(3)] == game["scores"]
    assert game["winners"] == [k + 1 for k in range(3)
                               if game["scores"][k] == min(game["scores"])]
    # each round's record replays, by the rules, to the bullheads the line gives it
    from solver.core.record import position_after, replay_steps
    for g in games:
        assert len(g["records"]) == len(g["rounds"])
        assert [(r["seats"], r["round"]) for r in g["records"]] == \
            [(g["seats"], i + 1) for i in range(len(g["rounds"]))]
        for record, bullheads in zip(g["records"], g["rounds"]):
            final = position_after(*replay_steps(record))
            assert list(final.penalties) == bullheads and final.hand_size == 0
    # run again: nothing to play, the same summary
    again = run(ARGS + ["--out", str(out)])
    assert summary(again) == fresh and "resuming: 6 of 6 games" in again.stderr
    assert len(lines(out)) == 7


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_stopped_file_resumes_to_the_uninterrupted_summary(tmp_path, fresh, jobs):
    out = tmp_path / "games.jsonl"
    run(ARGS + ["--out", str(out)])
    kept = lines(out)[:3]
    # two games and a torn line, as a kill during a write leaves it
    out.write_text("\n".join(kept) + "\n" + lines(out)[3][:25])
    resumed = run(ARGS + ["--out", str(out), "--jobs", jobs])
    assert summary(resumed) == fresh and "resuming: 2 of 6 games" in resumed.stderr
    assert "removed a torn last line (25 bytes)" in resumed.stderr
    assert lines(out)[:3] == kept and len(lines(out)) == 7
    assert all(line.endswith("}") for line in lines(out))


def test_more_games_extend_a_file_and_fewer_read_its_first(tmp_path):
    out = tmp_path / "games.jsonl"
    run(ARGS + ["--out", str(out)])
    more = ARGS[:ARGS.index("--games")] + ["--games", "9"] + ARGS[ARGS.index("--seed"):]
    assert summary(run(more + ["--out", str(out)])) == summary(run(more))
    fewer = ARGS[:ARGS.index("--games")] + ["--games", "4"] + ARGS[ARGS.index("--seed"):]
    assert summary(run(fewer + ["--out", str(out)])) == summary(run(fewer))
    assert len(lines(out)) == 10


@pytest.mark.parametrize("change, words", [
    (["--seed", "3"], ["another tournament", "seed 2", "this one's 3"]),
    (["--bots", "greedy,random"], ["another tournament", "bots"]),
    (["-n", "4"], ["another tournament", "players 3", "this one's 4"]),
    (["--threshold", "44"], ["another tournament", "threshold 66"]),
    (["--variant", "10n+4"], ["another tournament", "deck 104", "this one's 34"]),
])
def test_a_file_of_another_tournament_is_refused_and_kept(tmp_path, change, words):
    out = tmp_path / "games.jsonl"
    run(ARGS + ["--out", str(out)])
    before = out.read_bytes()
    args = list(ARGS)
    for option, value in zip(change[::2], change[1::2]):
        if option in args:
            args[args.index(option) + 1] = value
        else:
            args += [option, value]
    assert_input_error(run(args + ["--out", str(out)]), *words)
    assert out.read_bytes() == before


def edit_game(text, change):
    """The file with its first game's line changed by `change(game)`."""
    lines = text.splitlines(keepends=True)
    game = json.loads(lines[1])
    change(game)
    lines[1] = json.dumps(game) + "\n"
    return "".join(lines)


def take_one_more(game):
    """One bullhead more in the first round, the total and winners made to agree: only the
    round's record, replayed, says otherwise."""
    game["rounds"][0][0] += 1
    game["scores"][0] += 1
    low = min(game["scores"])
    game["winners"] = [k + 1 for k, s in enumerate(game["scores"]) if s == low]


@pytest.mark.parametrize("damage, words", [
    (lambda text: "garbage\n" + text, ["not a games file", "first line"]),
    (lambda text: text.replace('"game": 2', '"game": "2"'), ["line", "not a game", "number"]),
    (lambda text: text.replace('"seats": ["safe", "greedy", "random"]',
                               '"seats": ["greedy", "safe", "random"]'), ["not a game", "seats"]),
    (lambda text: text.replace('"winners": [', '"winners": [4, '), ["not a game", "winners"]),
    (lambda text: text.replace('"records": [{', '"records": [3, {'), ["not a game", "records"]),
    (lambda text: edit_game(text, lambda g: g["scores"].__setitem__(0, g["scores"][0] + 1)),
     ["line 2", "not a game", "not the sums of its rounds"]),
    (lambda text: edit_game(text, take_one_more), ["line 2", "not a game", "round 1's record"]),
    (lambda text: edit_game(text, lambda g: g.__setitem__("winners", [1, 2, 3])),
     ["line 2", "not a game", "lowest total"]),
    (lambda text: edit_game(text, lambda g: g.update(rounds=g["rounds"] * 2,
                                                   records=g["records"] * 2,
                                                   scores=[2 * s for s in g["scores"]])),
     ["line 2", "not a game", "before its last round"]),     # goes on past the threshold
    (lambda text: text + text.splitlines(keepends=True)[1], ["not a game", "there twice"]),
])
def test_a_damaged_file_is_refused_and_kept(tmp_path, damage, words):
    out = tmp_path / "games.jsonl"
    run(ARGS + ["--out", str(out)])
    out.write_text(damage(out.read_text()))
    before = out.read_bytes()
    assert_input_error(run(ARGS + ["--out", str(out)]), *words)
    assert out.read_bytes() == before


@pytest.mark.parametrize("content", ['{"rows": [[1]]}', "notes", '{"tournament": {"seed": 2}}'])
def test_a_one_line_file_of_something_else_is_refused_and_kept(tmp_path, content):
    out = tmp_path / "games.jsonl"
    out.write_text(content)                       # no newline: no whole line
    assert_input_error(run(ARGS + ["--out", str(out)]), "not a file of 'nimmt tournament'")
    assert out.read_text() == content


def test_a_torn_first_line_is_replaced(tmp_path, fresh):
    out = tmp_path / "games.jsonl"
    run(ARGS + ["--out", str(out)])
    out.write_text(lines(out)[0][:30])            # killed while the first line was written
    again = run(ARGS + ["--out", str(out)])
    assert summary(again) == fresh
    assert "removed a torn last line (30 bytes)" in again.stderr


def test_a_last_game_without_its_newline_is_kept(tmp_path, fresh):
    out = tmp_path / "games.jsonl"
    run(ARGS + ["--out", str(out)])
    full = out.read_bytes()
    out.write_bytes(full[:-1])                    # killed between the line and its newline
    assert summary(run(ARGS + ["--out", str(out)])) == fresh
    assert out.read_bytes() == full               # its newline added, nothing played again


def test_standard_output_is_no_games_file():
    assert_input_error(run(ARGS + ["--out", "-"]), "'-' cannot be the file", "needs a name")


def test_a_second_run_on_the_same_file_is_refused(tmp_path):
    from solver.play.gamesfile import GamesFile
    out = tmp_path / "games.jsonl"
    holder = GamesFile(str(out))
    holder.lock()
    try:
        assert_input_error(run(ARGS + ["--out", str(out)]), "another run", "nimmt tournament")
    finally:
        holder.unlock()
    assert not out.exists()                         # made by the lock, left empty: removed


def tournament_process(out, games=40):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen(
        [sys.executable, "-m", "solver", "tournament", "-n", "4", "--bots",
         "mcts:iterations=3000,greedy", "--games", str(games), "--seed", "5", "--json",
         "--out", str(out)], cwd=str(ROOT), env=env, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
        # Ctrl-C as in a terminal: a test run started in the background (`cmd &`) hands its
        # children SIGINT ignored
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def wait_for_lines(path, count, process, seconds=120.0):
    deadline = time.monotonic() + seconds
    while ((not path.exists() or path.read_bytes().count(b"\n") < count)
           and process.poll() is None and time.monotonic() < deadline):
        time.sleep(0.005)


@pytest.mark.parametrize("stop, status", [(signal.SIGINT, 130), (signal.SIGKILL, -9)])
def test_ctrl_c_or_a_kill_mid_tournament_then_the_same_command(tmp_path, stop, status):
    out = tmp_path / "games.jsonl"
    process = tournament_process(out)
    wait_for_lines(out, 4, process)                 # three games done, more to play
    process.send_signal(stop)
    assert process.wait(30) == status
    stderr = process.stderr.read()
    process.stdout.close()
    process.stderr.close()
    games = len(lines(out)) - 1
    assert 3 <= games < 40
    if stop == signal.SIGINT:
        assert "Traceback" not in stderr
        assert f"tournament: interrupted: {games} of 40 games in" in stderr
    final = tournament_process(out)
    stdout, stderr = final.communicate(timeout=300)
    assert final.returncode == 0, stderr
    reference = tournament_process(tmp_path / "reference.jsonl")
    expected, _ = reference.communicate(timeout=300)
    assert json.loads(stdout) == json.loads(expected)


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="finds the workers in /proc")
def test_a_killed_worker_s_game_is_played_by_a_new_worker(tmp_path):
    """kill -9 of a worker (not of the command): its game goes to a fresh worker, and the
    summary and the file are those of an uninterrupted run."""
    out = tmp_path / "games.jsonl"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    args = [sys.executable, "-m", "solver", "tournament", "-n", "4", "--bots",
            "mcts:iterations=2000,greedy", "--games", "12", "--seed", "1", "--json"]
    process = subprocess.Popen(args + ["-j", "2", "--out", str(out)], cwd=str(ROOT), env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    workers = []
    deadline = time.monotonic() + 60
    while len(workers) < 2 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
        try:
            with open(f"/proc/{process.pid}/task/{process.pid}/children") as handle:
                workers = handle.read().split()
        except OSError:
            workers = []
    assert len(workers) == 2
    os.kill(int(workers[0]), signal.SIGKILL)
    stdout, stderr = process.communicate(timeout=300)
    assert process.returncode == 0, stderr
    expected = subprocess.run(args, cwd=str(ROOT), env=env, capture_output=True, text=True)
    assert json.loads(stdout) == json.loads(expected.stdout)
    assert sorted(json.loads(line)["game"] for line in lines(out)[1:]) == list(range(12))


def test_a_file_without_records_is_read_as_before(tmp_path, fresh):
    out = tmp_path / "games.jsonl"
    run(ARGS + ["--out", str(out)])
    bare = [json.loads(line) for line in lines(out)]
    for game in bare[1:]:
        del game["records"]
    out.write_text("".join(json.dumps(g) + "\n" for g in bare))
    assert summary(run(ARGS + ["--out", str(out)])) == fresh


def test_a_round_of_the_file_is_replayed_and_reviewed(tmp_path):
    out = tmp_path / "games.jsonl"
    run(ARGS + ["--out", str(out)])
    records = [r for line in lines(out)[1:] for r in json.loads(line)["records"]]
    replayed = run(["replay", str(out), "--round", "2", "--json"])
    assert replayed.exit_code == 0, replayed.output
    alone = tmp_path / "round.json"
    alone.write_text(json.dumps(records[1]))
    assert replayed.stdout == run(["replay", str(alone), "--json"]).stdout
    reviewed = run(["review", str(out), "--round", str(len(records)), "--iterations", "200",
                    "--json"])
    assert reviewed.exit_code == 0, reviewed.output
    assert len(json.loads(reviewed.stdout)["turns"]) == 10
