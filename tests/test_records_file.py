"""Files of several rounds: `nimmt play --record FILE` keeps each round's game record as
the round ends, and `replay` and `review` take one round of such a file (or of a
tournament's games file) with `--round N`; files that are not records are refused in one
line and left as they were."""
import json
import re
from pathlib import Path

import pytest
from tests.support import assert_input_error, run

from solver.core.record import position_after, replay_steps

ROOT = Path(__file__).resolve().parent.parent
SIX_TURNS = ROOT / "positions" / "records" / "six_turns.json"
# every prompt answered with each number in turn: the invalid ones are asked again
ANSWERS = "\n".join(str(n) for _ in range(60) for n in range(105)) + "\n"
PLAY = ["play", "-n", "3", "--bots", "greedy,safe", "--seed", "3"]


def played(path, answers=ANSWERS):
    result = run(PLAY + ["--record", str(path)], answers)
    return result


def records(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_game_s_rounds_are_kept_and_replay_to_what_it_printed(tmp_path):
    out = tmp_path / "games.jsonl"
    result = played(out)
    assert result.exit_code == 0, result.output
    rounds = records(out)
    assert len(rounds) == result.stdout.count(" over: you +") >= 1
    for number, record in enumerate(rounds, 1):
        assert record["seats"] == ["you", "greedy-2", "safe-3"] and record["round"] == number
        final = position_after(*replay_steps(record))
        assert final.hand_size == 0
        gains = " ".join(f"+{p}" for p in final.penalties)
        printed = result.stdout.split(f"round {number} over: ")[1].splitlines()[0]
        assert " ".join(part.split(" = ")[0].split()[-1]
                        for part in printed.split(", ")) == gains
    assert result.stdout.splitlines()[-1] == (f"this game's rounds 1 to {len(rounds)} of"
                                              f" '{out}': nimmt review {out} --round 1")
    # a second game adds its rounds to the file's end
    again = played(out)
    assert again.exit_code == 0 and f"--round {len(rounds) + 1}" in again.stdout
    assert records(out) == rounds + rounds           # the same seed: the same game


def test_a_round_of_the_file_is_replayed_and_reviewed(tmp_path):
    out = tmp_path / "games.jsonl"
    played(out)
    count = len(records(out))
    first = run(["replay", str(out), "--round", "1", "--json"])
    assert first.exit_code == 0, first.output
    assert json.loads(first.stdout)["hands"] == [[], [], []]
    text = run(["review", str(out), "--round", "1", "--iterations", "200"])
    assert text.stdout.splitlines()[1] == "players: 1 you, 2 greedy-2, 3 safe-3"
    review = run(["review", str(out), "--round", str(count), "--iterations", "200", "--json"])
    assert review.exit_code == 0, review.output
    assert [p["player"] for p in json.loads(review.stdout)["turns"][0]["players"]] == [1, 2, 3]


def round_answers(record):
    """Player 1's answers that play a recorded round again: its cards, and its rows where
    it was asked for one."""
    answers = []
    for turn in record["turns"]:
        answers.append(str(turn["cards"][0]))
        if (turn.get("row_choices") or [None])[0] is not None:
            answers.append(str(turn["row_choices"][0]))
    return answers


def test_an_abandoned_game_keeps_the_rounds_it_finished(tmp_path):
    out = tmp_path / "games.jsonl"
    played(out)
    first = records(out)[0]
    out.unlink()
    # the first round played again as it was, then quit
    result = played(out, "\n".join(round_answers(first)) + "\nquit\n")
    assert "game abandoned" in result.stdout and "round 1 over" in result.stdout
    assert result.stdout.splitlines()[-1].startswith("this game's round 1 of")
    assert records(out) == [first]


def test_input_that_ends_mid_game_keeps_the_rounds_finished(tmp_path):
    out = tmp_path / "games.jsonl"
    played(out)
    first = records(out)[0]
    out.unlink()
    result = played(out, "\n".join(round_answers(first)) + "\n")    # the first round only
    assert result.exit_code == 4
    assert result.stderr.strip() == "nimmt: error: end of input: game abandoned"
    assert result.stdout.splitlines()[-1].startswith("this game's round")
    assert records(out)[0] == first


def test_a_torn_last_line_is_removed(tmp_path):
    out = tmp_path / "games.jsonl"
    played(out)
    rounds = records(out)
    text = out.read_text()
    out.write_text(text + text[:40])             # a kill while a round was written
    assert played(out).exit_code == 0
    assert records(out) == rounds + rounds


@pytest.mark.parametrize("content", [
    '{"rows": [[1]]}\n', "not json\n", "\udcff", "notes", '{"rows": [[1]]}',
    '{"deck": 24, "rows": [[1]]}',
    # a record of one's own with a mistake in it, not one cut short: not taken for torn
    '{"deck": 24, "rows": [[1], [2], [3], [9]], "turns": [{"cards": [4, 22]},]}',
    # a tournament's games file: a record added to it would stop it resuming
    '{"tournament": {"players": 3}}\n{"game": 0, "records": []}\n'])
def test_a_file_of_something_else_is_refused_and_kept(tmp_path, content):
    out = tmp_path / "notes.txt"
    out.write_bytes(content.encode("utf-8", "surrogateescape"))
    before = out.read_bytes()
    assert_input_error(played(out), "not a records file")
    assert out.read_bytes() == before


def test_a_last_record_without_its_newline_is_kept(tmp_path):
    out = tmp_path / "games.jsonl"
    played(out)
    rounds = records(out)
    out.write_text(out.read_text().rstrip("\n"))       # an editor dropped the last newline
    assert played(out).exit_code == 0
    assert records(out) == rounds + rounds


def test_standard_output_is_no_records_file():
    assert_input_error(run(PLAY + ["--record", "-"]), "--record needs a file name")


def test_a_file_of_one_record_needs_no_round(tmp_path):
    whole = run(["replay", str(SIX_TURNS), "--json"]).stdout
    assert run(["replay", str(SIX_TURNS), "--round", "1", "--json"]).stdout == whole
    assert_input_error(run(["replay", str(SIX_TURNS), "--round", "2"]), "--round 2",
                       "holds 1 round")
    line = tmp_path / "one.jsonl"                # the same record as one line
    line.write_text(json.dumps(json.loads(SIX_TURNS.read_text())) + "\n")
    assert run(["replay", str(line), "--json"]).stdout == whole


def test_a_file_of_several_rounds_needs_one_picked(tmp_path):
    out = tmp_path / "games.jsonl"
    played(out)
    count = len(records(out))
    assert_input_error(run(["replay", str(out)]), f"holds {count} rounds",
                       "pick one with --round N")
    assert_input_error(run(["review", str(out)]), "pick one with --round N")
    assert_input_error(run(["replay", str(out), "--round", str(count + 1)]),
                       f"--round {count + 1}", f"holds {count} rounds")
    assert_input_error(run(["replay", str(out), "--round", "0"]), "--round 0")
    assert_input_error(run(["replay", str(out), "--round", str(-count - 1)]),
                       f"or -1..-{count} counted from the last")
    last = run(["replay", str(out), "--round", "-1", "--json"])
    assert last.exit_code == 0 and last.stdout == run(["replay", str(out), "--round", str(count),
                                                       "--json"]).stdout


def test_a_bad_line_is_named_and_a_torn_last_line_is_not_read(tmp_path):
    """A line of a rounds file that is no round is refused by its number (it read as the
    whole file's JSON error, "line 2 column 1: Extra data"); a last line cut short by a
    stopped writer leaves the rounds before it readable, as play and tournament cut it."""
    out = tmp_path / "games.jsonl"
    played(out)
    lines = out.read_text().splitlines(keepends=True)
    first = run(["replay", str(out), "--round", "1", "--json"]).stdout
    torn = tmp_path / "torn.jsonl"
    torn.write_text("".join(lines[:2]) + lines[2][:100])
    assert run(["replay", str(torn), "--round", "1", "--json"]).stdout == first
    assert_input_error(run(["replay", str(torn), "--round", "3"]), "holds 2 rounds")
    for bad, why in (("garbage\n", "not JSON"), ('{"x": 1}\n', "neither a game record")):
        broken = tmp_path / "broken.jsonl"
        broken.write_text(lines[0] + bad + "".join(lines[1:]))
        assert_input_error(run(["replay", str(broken), "--round", "1"]),
                           "its line 2 is not a round", why)
    assert_input_error(run(["solve", str(out)]), f"holds {len(lines)} lines of JSON",
                       "not one position", "batch solve")


@pytest.mark.parametrize("text, words", [
    ('{"a": 1}\n{"b": 2}\n', ["invalid JSON", "line 2"]),       # not rounds: the JSON error
    ('{"tournament": {"players": 3}}\n', ["holds no round"]),
])
def test_files_without_rounds_are_refused(tmp_path, text, words):
    path = tmp_path / "x.jsonl"
    path.write_text(text)
    assert_input_error(run(["replay", str(path), "--round", "1"]), *words)


def test_a_position_is_no_round_to_pick():
    assert_input_error(run(["replay", str(ROOT / "positions" / "example.json"), "--round", "1"]),
                       "holds no round")


def test_a_record_written_on_the_command_line_is_read(tmp_path):
    """replay, review and best --turns take a record as JSON on the command line, as they
    take a file; the text notation is no record."""
    record = json.dumps(json.loads(open("positions/records/five_cards.json").read()))
    path = tmp_path / "game.json"
    path.write_text(record)
    for command in (["replay", "--turns", "2", "--json"], ["review", "--json"],
                    ["best", "--turns", "3"]):
        inline, saved = (run([command[0], source] + command[1:]) for source in (record, str(path)))
        assert inline.exit_code == 0, inline.output
        timeless = [re.sub(r'"seconds": [0-9.e-]+', "", out.stdout) for out in (inline, saved)]
        assert timeless[0] == timeless[1]
    line = run(["replay", "24; 3, 7, 12, 21; 1, 2"])
    assert line.exit_code == 2 and "is no game record: a record is JSON" in line.stderr
