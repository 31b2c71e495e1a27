"""`program:path=FILE`: a bot that is another program, asked over pipes (solver/play/program.py).
A program that plays as a Python bot plays the same games; what it is told is the seat's
view; a program that answers badly, ends or hangs stops the game with one line."""
import json
import os
import subprocess
import sys

import pytest
from tests.support import assert_input_error, run

from solver import GameConfig, Player
from solver.core.record import position_after, replay_steps
from solver.play.bots import make_bot
from solver.errors import IllegalMoveError
from solver.play.tournament import run_tournament

# the lowest card; a too-low card takes the row of the fewest bullheads (the lowest among
# equals): the default row of a Python Player. Every message is kept in LOG, if set.
LOWEST = """\
import json, os, sys
def bulls(c):
    return 7 if c == 55 else 5 if c % 11 == 0 else 3 if c % 10 == 0 else 2 if c % 5 == 0 else 1
log = os.environ.get("LOG")
for line in sys.stdin:
    message = json.loads(line)
    if log:
        with open(log, "a") as f:
            f.write(json.dumps(dict(message, seed=os.environ["NIMMT_SEED"])) + "\\n")
    if message.get("ask") == "card":
        print(min(message["view"]["hand"]), flush=True)
    elif message.get("ask") == "row":
        rows = message["view"]["rows"]
        print(min(range(4), key=lambda r: (sum(map(bulls, rows[r])), r)), flush=True)
"""
# plays the lowest card for two turns, then misbehaves as MODE says
BAD = """\
import json, os, sys, time
mode = os.environ["MODE"]
for line in sys.stdin:
    message = json.loads(line)
    if "ask" not in message:
        continue
    if message["view"]["turn"] <= 2:
        print(min(message["view"]["hand"]) if message["ask"] == "card" else 0, flush=True)
    elif mode == "words":
        print("the lowest", flush=True)
    elif mode == "exit":
        sys.exit(3)
    elif mode == "hang":
        time.sleep(60)
    elif mode == "card":
        print(105, flush=True)
    elif mode == "two":                 # both lines at once (one write)
        sys.stdout.write(f"{min(message['view']['hand'])}\\n{max(message['view']['hand'])}\\n")
        sys.stdout.flush()
    elif mode == "close":
        os.close(0)                     # then answers, and runs on
        print(min(message["view"]["hand"]), flush=True)
        time.sleep(60)
    elif mode == "string":
        print(json.dumps(str(min(message["view"]["hand"]))), flush=True)
    elif mode == "unended":             # no newline
        sys.stdout.write(str(min(message["view"]["hand"])))
        sys.stdout.flush()
    elif mode == "digits":              # more digits than Python reads as a number
        print("7" * 5000, flush=True)
    elif mode == "stdout":              # closes its output, and runs on
        os.close(1)
        time.sleep(60)
    elif mode == "stray":               # a line of its own, then the answer
        print("ready", flush=True)
        print(min(message["view"]["hand"]), flush=True)
"""


def program(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(f"#!{sys.executable}\n" + text)
    path.chmod(0o755)
    return str(path)


class Lowest(Player):
    def choose_card(self, view):
        return min(view.hand)


@pytest.mark.parametrize("end", ["", "\\n"])
def test_a_program_plays_the_games_its_python_twin_plays(tmp_path, end):
    """(A blank line after an answer is let pass: it asks nothing.)"""
    path = program(tmp_path, "lowest.py", LOWEST.replace("flush=True)", f"end='\\n{end}',"
                                                                        " flush=True)"))
    config = GameConfig(players=4)
    ours = run_tournament(config, [f"program:path={path}", "greedy"], games=4, seed=1)
    twin = run_tournament(config, [(f"program:path={path}", lambda seed: Lowest()), "greedy"],
                          games=4, seed=1)
    assert ours == twin


def test_the_program_is_told_its_view_and_each_round(tmp_path, monkeypatch):
    log = tmp_path / "log.jsonl"
    monkeypatch.setenv("LOG", str(log))
    path = program(tmp_path, "lowest.py", LOWEST)
    result = run(["tournament", "-n", "3", "--bots", f"program:path={path},safe,greedy",
                  "--games", "1", "--seed", "2"])
    assert result.exit_code == 0, result.output
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    first = messages[0]
    assert first["ask"] == "card" and first["seed"].isdigit()
    view = first["view"]
    assert (view["players"], view["deck"], view["threshold"], view["seat"], view["turn"]) == \
        (3, 104, 66, 1, 1)
    assert len(view["hand"]) == 10 and view["rows"] == view["start_rows"] and len(view["rows"]) == 4
    assert view["played"] == [] and view["penalties"] == [0, 0, 0] and view["revealed"] is None
    asks = [m for m in messages if "ask" in m]
    assert [m["view"]["turn"] for m in asks if m["ask"] == "card"][:10] == list(range(1, 11))
    for m in asks:
        if m["ask"] == "row":               # asked during the resolution, the turn's cards seen
            assert m["card"] == min(m["view"]["revealed"]) and m["card"] not in m["view"]["hand"]
    rounds = [m for m in messages if m.get("tell") == "round_over"]
    assert rounds
    for m in rounds:
        final = position_after(*replay_steps(m["record"]))
        assert list(final.penalties) == m["penalties"] and final.hand_size == 0


@pytest.mark.parametrize("mode, words", [
    ("words", ["answered 'the lowest' for a card", "not an integer"]),
    ("exit", ["ended without answering a card", "exit status 3"]),
    ("hang", ["did not answer a card within 0.5 s"]),
    ("card", ["played 105, not in its hand"]),
    ("two", ["wrote a line that no question asked for"]),
    ("close", ["closed its input before it was asked"]),
    ("stdout", ["closed its output without answering a card"]),
    ("string", ["answered '\"", "\"' for a card: not an integer"]),
    ("unended", ["did not answer a card within 0.5 s (it wrote '", "without the newline"]),
    ("stray", ["answered 'ready' for a card: not an integer"]),
    ("digits", ["answered '777", "for a card: not in its hand"]),
])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_program_that_answers_badly_stops_the_game_in_one_line(tmp_path, monkeypatch, mode,
                                                                  words, jobs):
    monkeypatch.setenv("MODE", mode)
    path = program(tmp_path, "bad.py", BAD)
    result = run(["tournament", "-n", "3", "--bots", f"program:path={path}:seconds=0.5,greedy",
                  "--games", "2", "--jobs", jobs])
    assert result.exit_code == 2, result.output
    line = [l for l in result.stderr.splitlines() if l.startswith("nimmt: error:")]
    assert len(line) == 1 and all(w in line[0] for w in words), result.stderr
    assert "Traceback (most recent call last):\n  File \"/" not in result.stderr.split(
        "nimmt: error:")[-1]


def test_a_spec_without_a_runnable_program_is_refused_before_any_game(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("not a program")
    for spec, words in [("program", ["needs the program", "program:path=FILE"]),
                        (f"program:path={tmp_path / 'missing'}", ["no program file"]),
                        (f"program:path={tmp_path}", ["is a directory, not a program file"]),
                        (f"program:path={text}", ["not executable", "chmod +x"]),
                        ("program:path=x:seconds=0", ["seconds must be in"]),
                        ("program:path=", ["bad value"])]:
        assert_input_error(run(["tournament", "-n", "3", "--bots", f"{spec},greedy",
                                "--games", "2"]), *words)


def test_a_program_that_does_not_answer_is_ended_with_what_it_started(tmp_path):
    path = tmp_path / "slow.sh"
    path.write_text("#!/bin/sh\nsleep 97.531\n")
    path.chmod(0o755)
    result = run(["tournament", "-n", "3", "--bots", f"program:path={path}:seconds=0.5,greedy",
                  "--games", "1"])
    assert result.exit_code == 2 and "did not answer" in result.stderr
    assert not [p for p in os.popen("ps -eo args").read().splitlines() if "97.531" in p]


def test_a_script_whose_interpreter_is_missing_is_named_so(tmp_path):
    path = tmp_path / "bot.py"
    path.write_text("#!/no/such/python3 -u\nprint(1)\n")
    path.chmod(0o755)
    assert_input_error(run(["tournament", "-n", "3", "--bots", f"program:path={path},greedy",
                            "--games", "1"]), "its #! interpreter '/no/such/python3' is missing")


def test_an_answer_with_a_leading_zero_is_the_card(tmp_path):
    """C's printf("%02d") writes 08 for card 8: plain digits are read as the integer."""
    path = program(tmp_path, "zero.py", LOWEST.replace(
        'print(min(message["view"]["hand"]), flush=True)',
        'print("%03d" % min(message["view"]["hand"]), flush=True)'))
    plain_path = program(tmp_path, "lowest.py", LOWEST)
    zero, plain = (run(["tournament", "-n", "3", "--bots", f"program:path={p},greedy",
                        "--games", "1", "--seed", "4", "--json"]) for p in (path, plain_path))
    assert zero.exit_code == 0, zero.output
    assert json.loads(zero.stdout)["bots"][0]["mean_penalty_per_round"] == \
        json.loads(plain.stdout)["bots"][0]["mean_penalty_per_round"]


def test_the_engine_answers_a_view_of_a_position_without_its_history():
    """What `position_view` makes of a position given mid-round (as `nimmt exploit` sends
    it): its rows as start_rows, no played turns, the turn by the cards in hand."""
    from solver.advice import position_view
    from solver.core.position import Position
    from solver.play.program import view_dict
    position = Position.from_text("104; 20 21, 92, 65 66 67, 103; 5 10 11, ?, ?")
    view = view_dict(position_view(position, 0))
    assert view["turn"] == 8 and view["played"] == [] and view["start_rows"] == view["rows"]
    result = run(["engine", "--bot", "greedy"], json.dumps({"ask": "card", "view": view}) + "\n")
    assert result.exit_code == 0, result.output
    assert int(result.stdout) in (5, 10, 11)


def test_a_program_plays_against_you(tmp_path):
    path = program(tmp_path, "lowest.py", LOWEST)
    answers = "\n".join(str(n) for _ in range(60) for n in range(105)) + "\n"
    out = run(["play", "-n", "2", "--bots", f"program:path={path}", "--seed", "3"], answers)
    assert out.exit_code == 0, out.output
    assert "game over after" in out.stdout
    assert not [p for p in os.popen("ps -eo args").read().splitlines() if path in p]


# nimmt engine: the other end ----------------------------------------------------------------
def test_a_program_running_nimmt_engine_plays_as_the_bot_itself(tmp_path):
    path = tmp_path / "engine.sh"
    path.write_text(f"#!/bin/sh\nexec '{sys.executable}' -m solver engine --bot sampler\n")
    path.chmod(0o755)
    config = GameConfig(players=3)
    through = run_tournament(config, [f"program:path={path}", "greedy"], games=2, seed=4)
    native = run_tournament(config, ["sampler", "greedy"], games=2, seed=4)
    through["bots"][0]["name"] = "sampler"          # the seeds passed on: the same games
    assert through == native


def view_line(**changes):
    view = {"players": 3, "deck": 104, "threshold": 66, "seat": 2, "turn": 4,
            "hand": [5, 9, 61, 77, 80, 90, 100],
            "rows": [[6, 13], [20], [30, 33, 34, 35], [40]],     # where the turns lead
            "start_rows": [[10], [20], [30], [40]], "played": [[11, 3, 33], [12, 4, 34],
                                                              [13, 6, 35]],
            "row_choices": [[None, None, None], [None, 0, None], [None, None, None]],
            "penalties": [0, 11, 0], "scores": [10, 0, 3], "out_of_play": [],
            "revealed": None}
    view.update(changes)
    return view


def test_the_engine_answers_as_its_bot_would():
    from solver.play.program import view_from_dict
    card = {"ask": "card", "view": view_line()}
    row = {"ask": "row", "card": 5, "view": view_line(hand=[9, 61, 77, 80, 90, 100],
                                                      revealed=[50, 5, 60])}
    lines = json.dumps(card) + "\n\n" + json.dumps({"tell": "round_over", "record": {},
                                                    "penalties": [1, 2, 3]}) + "\n" \
        + json.dumps(row) + "\n"
    result = run(["engine", "--bot", "greedy"], lines)
    assert result.exit_code == 0, result.output
    bot = make_bot("greedy", 0)
    assert result.stdout.split() == [str(bot.choose_card(view_from_dict(card["view"]))),
                                     str(bot.choose_row(view_from_dict(row["view"]), 5))]


@pytest.mark.parametrize("line, words", [
    ("nope", ["line 1", "invalid JSON"]),
    ("[1]", ["a message is a JSON object"]),
    ('{"ask": "move"}', ['asks a "card" or a "row"']),
    ('{"ask": "card", "view": {"players": 3}}', ["the view lacks", "'deck'"]),
    (json.dumps({"ask": "card", "view": view_line(hand=[5, "x"])}), ["hand", "integers"]),
    (json.dumps({"ask": "card", "view": view_line(seat=4)}), ["seat must be 1..3, got 4"]),
    (json.dumps({"ask": "card", "view": view_line(seat=0)}), ["seat must be 1..3, got 0"]),
    (json.dumps({"ask": "card", "view": view_line(rows=[[10], [20], [30]])}),
     ["4 rows of 1..5 cards, got [[10], [20], [30]]"]),
    (json.dumps({"ask": "card", "view": view_line(out_of_play=[
        c for c in range(14, 105) if c not in (20, 30, 33, 34, 35, 40, 61, 77, 80, 90, 100)])}),
     ["2 other hands of 7 cards need 14 unseen cards, only 4 are left"]),
    (json.dumps({"ask": "row", "card": 61, "view": view_line(hand=[5, 9, 77, 80, 90, 100],
                                                             revealed=[50, 61, 60])}),
     ["card 61 is not lower than every row end"]),
    (json.dumps({"ask": "card", "view": view_line(hand=[])}), ["does not fit"]),
    (json.dumps({"ask": "row", "card": 7, "view": view_line(hand=[9, 61, 77, 80, 90, 100],
                                                            revealed=[50, 5, 60])}),
     ['"card"', '"revealed"']),
    (json.dumps({"ask": "row", "card": 50, "view": view_line(hand=[9, 61, 77, 80, 90, 100],
                                                             revealed=[50, 5, 60])}),
     ['"card"', "seat's own"]),
    (json.dumps({"ask": "row", "card": 5, "view": view_line(hand=[9, 61, 77, 80, 90, 100],
                                                            revealed=[40, 5, 60])}),
     ["revealed", "on the rows"]),
    (json.dumps({"ask": "row", "card": 5, "view": view_line(hand=[], revealed=[50, 5, 60])}),
     ["does not fit"]),
    (json.dumps({"ask": "card", "view": view_line(revealed=[50, 5, 60])}),
     ['"revealed" is null at a card question']),
    (json.dumps({"ask": "card", "view": view_line(hand=[5, 9])}), ["does not fit"]),
    (json.dumps({"ask": "card", "view": view_line(played=[[11, 3, 33], [12, 4, 34],
                                                           [13, 3, 35]])}),
     ["played twice"]),
    (json.dumps({"ask": "card", "view": view_line(hand=[5, 9, 12, 77, 80, 90, 100])}),
     ["twice in it, or also on the"]),
    (json.dumps({"ask": "card", "view": view_line(out_of_play=[61])}), ["out of play"]),
    (json.dumps({"ask": "card", "view": view_line(rows=[[10, 12], [12], [30], [40]])}),
     ["no card twice"]),
    (json.dumps({"ask": "card", "view": view_line(turn=9)}), ["turn 9 does not fit"]),
    (json.dumps({"ask": "card", "view": view_line(start_rows=[10, 20, 30, 40])}),
     ["start_rows must be a list of lists, got [10, 20, 30, 40]"]),
    (json.dumps({"ask": "card", "view": view_line(played=[[11, 3, 33]], row_choices=[
        [None, None, None]])}), ["turn 4 does not fit its 1 turns played", "or none"]),
    (json.dumps({"ask": "card", "view": view_line(row_choices=[[None]])}),
     ["one list of 3 a turn"]),
    (json.dumps({"ask": "card", "view": view_line(row_choices=[[4, None, None]] * 3)}),
     ["rows 0..3 or null"]),
    (json.dumps({"ask": "card", "view": view_line(penalties=[0, -1, 0])}),
     ["penalties and scores must be 0..1,000,000"]),
    (json.dumps({"ask": "card", "view": view_line(rows=[[6, 13], [20], [30, 33, 34], [40]])}),
     ["rows [[6, 13], [20], [30, 33, 34], [40]] are not where its start_rows and played"]),
    (json.dumps({"ask": "card", "view": view_line(penalties=[0, 10, 0])}),
     ["seat 2 10 bullheads, fewer than the 11 its played turns took"]),
    (json.dumps({"ask": "row", "card": 5, "view": view_line(hand=[9, 61, 77, 80, 90, 100],
                                                            revealed=[2, 5, 60])}),
     ["card 5 is not the lowest of the turn's cards [2, 5, 60]"]),
    (json.dumps({"ask": "card", "view": view_line(penalties=[0, 10 ** 30, 0])}),
     ["penalties and scores must be 0..1,000,000"]),
    (json.dumps({"ask": "card", "view": view_line(scores=[1_000_001, 0, 0])}),
     ["penalties and scores must be 0..1,000,000"]),
    (json.dumps({"ask": "card", "view": view_line(out_of_play=[1, 1])}),
     ["out_of_play must hold each card once"]),
    (json.dumps({"ask": "card", "view": view_line(out_of_play=[20])}),
     ["out_of_play", "none of them on the rows or played"]),
    (json.dumps({"ask": "card", "view": view_line(out_of_play=[12])}),
     ["out_of_play", "none of them on the rows or played"]),
    (json.dumps({"ask": "card", "view": view_line(row_choices=[[2, None, None], [None, 0, None],
                                                               [None, None, None]])}),
     ["turn 1 gives a row choice to seat 1, whose card 11 was not lower"]),
    (json.dumps({"ask": "card", "tell": "round_over", "view": view_line()}),
     ['asks ("ask") or tells ("tell"), not both']),
])
def test_a_malformed_message_ends_the_engine_in_one_line(line, words):
    assert_input_error(run(["engine", "--bot", "greedy"], line + "\n"), *words)


def test_the_engine_reads_utf_8_lines_a_byte_order_mark_aside():
    line = json.dumps({"ask": "card", "view": view_line()}).encode()
    for data, status, words in [(b"\xef\xbb\xbf" + line + b"\n", 0, ""),
                                (line[:-2] + b'"\xff"}\n', 2, "line 1 is not UTF-8 text")]:
        done = subprocess.run([sys.executable, "-m", "solver", "engine", "--bot", "greedy"],
                              input=data, capture_output=True, timeout=60)
        assert done.returncode == status, done.stderr
        assert words in done.stderr.decode() and len(done.stderr.splitlines()) == status // 2


def test_the_engine_s_seed_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("NIMMT_SEED", "seven")
    assert_input_error(run(["engine"], ""), "NIMMT_SEED must be an integer")


class Recorder(Player):
    """Plays its lowest card and keeps every view it is asked with."""

    def __init__(self, views):
        self.views = views

    def choose_card(self, view):
        self.views.append(view)
        return min(view.hand)

    def choose_row(self, view, card):
        self.views.append(view)
        return 3


@pytest.mark.parametrize("players, deck", [(2, 24), (3, 104), (5, 104), (10, 104)])
def test_a_view_read_back_is_the_view_written(players, deck):
    from solver.play.program import view_dict, view_from_dict
    from solver.play.runner import play_game
    views = []
    config = GameConfig(players=players, deck=deck, threshold=30)
    play_game(config, [Recorder(views)] + [make_bot("random", k) for k in range(players - 1)],
              seed=players)
    assert any(v.revealed is not None for v in views) and any(v.row_choices for v in views)
    for view in views:
        text = json.dumps(view_dict(view))
        assert view_from_dict(json.loads(text)) == view


def test_a_bot_of_one_s_own_that_raises_stops_the_tournament_with_its_error():
    """On worker processes too: the bot's own exception, not a worker taken for dead."""
    class Raiser(Player):
        def choose_card(self, view):
            if view.turn == 3:
                raise ValueError("broken on purpose")
            return min(view.hand)

    for jobs in (1, 2):
        with pytest.raises(ValueError, match="broken on purpose"):
            run_tournament(GameConfig(players=3), [("raiser", lambda seed: Raiser()), "random"],
                           games=2, seed=1, jobs=jobs)


def test_an_illegal_move_of_a_bot_of_one_s_own_names_it():
    class Zero(Player):
        def choose_card(self, view):
            return 0

    with pytest.raises(IllegalMoveError, match=r"^zero \(player 1\) played 0"):
        run_tournament(GameConfig(players=3), [("zero", lambda seed: Zero()), "random"],
                       games=2, seed=1)


def test_an_endless_line_ends_the_engine_in_one_line(monkeypatch):
    import solver.reading
    monkeypatch.setattr(solver.reading, "MAX_LINE", 100)
    assert_input_error(run(["engine", "--bot", "greedy"], "x" * 500), "longer than 100")


def test_a_table_s_programs_start_together_and_end_together(tmp_path, monkeypatch):
    """All programs of a table start before the first question, and all their inputs are
    closed before any is waited for, so that their start-ups and last seconds overlap."""
    from solver.play import program as module
    from solver.play.runner import close_all
    path = program(tmp_path, "lowest.py", LOWEST)
    bots = [module.ProgramBot(seed=k, path=path) for k in range(3)]
    module.launch_all(bots)
    assert all(bot._process is not None for bot in bots)
    stops, stop = [], module._stop

    def recorded(process, ended=None):
        stops.append([bot._input_ended for bot in bots])
        stop(process, ended)
    monkeypatch.setattr(module, "_stop", recorded)
    close_all(bots)
    assert len(stops) == 3 and all(None not in ended for ended in stops)
    assert all(bot._process is None for bot in bots)
