"""`nimmt best` on hidden-information positions (the search player): JSON shape, text,
determinism for a seed and an iteration budget, a time budget kept (marked `timing`), bad
input exit 2."""
import json
import time

import pytest

from tests.support import assert_input_error, run

FOUR_PLAYERS = "104; 20, 92, 65, 103; 5 10 11 21 24 37 40 53 85 101, ?, ?, ?; 0 0 0 0"
TEN_PLAYERS = ("104; 20, 92, 65, 103; 5 10 11 21 24 37 40 53 85 101, "
               + ", ".join(["?"] * 9) + "; " + " ".join(["0"] * 10))
TWO_PLAYERS_HIDDEN = "24; 20, 22, 15, 23; 1 2 9, ?; 0 0"


def best_json(position, *options):
    result = run(["best", "-", "--json", *options], position)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_json_shape_cards_ranked_by_expected_bullheads():
    data = best_json(FOUR_PLAYERS, "--iterations", "3000", "--seed", "1")
    assert data["method"] == "search" and data["viewer"] == 1
    assert data["iterations"] == 3000 and data["seconds"] > 0
    assert (data["seed"], data["jobs"], data["opponents"]) == (1, 1, "careful")
    cards = data["cards"]
    assert sorted(c["card"] for c in cards) == [5, 10, 11, 21, 24, 37, 40, 53, 85, 101]
    assert sum(c["visits"] for c in cards) == 3000
    means = [c["expected_bullheads"] for c in cards]
    assert means == sorted(means)
    for c in cards:
        lo, hi = c["ci95"]
        assert lo <= c["expected_bullheads"] <= hi
    most_tried = max(cards, key=lambda c: c["visits"])
    assert data["play"] == most_tried["card"]


def test_deterministic_for_a_seed_and_iterations():
    def cards(*options):
        return best_json(FOUR_PLAYERS, "--iterations", "2000", *options)["cards"]

    assert cards("--seed", "7") == cards("--seed", "7")
    assert cards("--seed", "7", "--jobs", "2") == cards("--seed", "7", "--jobs", "2")
    assert cards("--seed", "7") != cards("--seed", "8")


def test_ten_players_on_two_jobs_share_an_iteration_budget():
    data = best_json(TEN_PLAYERS, "--iterations", "400", "--jobs", "2", "--seed", "3")
    assert (data["iterations"], data["jobs"]) == (400, 2)
    cards = data["cards"]
    assert sorted(c["card"] for c in cards) == [5, 10, 11, 21, 24, 37, 40, 53, 85, 101]
    assert sum(c["visits"] for c in cards) == 400
    assert data["play"] == max(cards, key=lambda c: c["visits"])["card"]


def test_a_time_budget_gives_a_complete_answer():       # how long it takes: the timing test
    data = best_json(TEN_PLAYERS, "--bot", "mcts", "--seconds", "0.2")
    assert data["iterations"] > 0 and data["seconds"] > 0
    assert sum(c["visits"] for c in data["cards"]) == data["iterations"]
    assert len(data["cards"]) == 10


@pytest.mark.timing
def test_ten_players_stay_within_a_time_budget():
    start = time.perf_counter()
    data = best_json(TEN_PLAYERS, "--seconds", "0.5", "--jobs", "2")
    assert time.perf_counter() - start < 2.0
    assert 0.3 < data["seconds"] < 0.6
    assert data["iterations"] > 0 and len(data["cards"]) == 10


def test_text_output_and_viewer_key():
    result = run(["best", "-", "--iterations", "500"], TWO_PLAYERS_HIDDEN)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Player 1: play ")
    assert lines[1].startswith("search: 500 iterations in ")
    assert len(lines) == 4 + 3
    # no progress bar off a terminal; only the note that the 24-card deck's cards out of
    # play belong in "played"
    assert [line[:5] for line in result.stderr.splitlines()] == ["note:"]
    position = {"deck": 104, "rows": [[20], [92], [65], [103]], "viewer": 2,
                "hands": [None, [5, 10, 11], None]}
    assert best_json(json.dumps(position), "--iterations", "300")["viewer"] == 2


def test_a_budget_too_small_for_one_iteration_says_so():
    result = run(["best", "-", "--bot", "mcts", "--seconds", "1e-300"], FOUR_PLAYERS)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "no card tried: the budget is too small" in lines[0] and "tried most" not in lines[0]
    assert lines[1].startswith("search: 0 iterations")


def test_round_over():
    result = run(["best", "-"], "104; 20, 92, 65, 103; -, ?, ?; 0 0 0")
    assert result.exit_code == 0 and "nothing to play (the round is over)" in result.stdout


@pytest.mark.parametrize("position, options, words", [
    (FOUR_PLAYERS, ["--iterations", "10", "--seconds", "1"], ["not both"]),
    (FOUR_PLAYERS, ["--iterations", "0"], ["--iterations"]),
    (FOUR_PLAYERS, ["--seconds", "0"], ["--seconds"]),
    (FOUR_PLAYERS, ["--jobs", "0"], ["--jobs"]),
    (FOUR_PLAYERS, ["--jobs", "65"], ["--jobs", "65"]),
    (FOUR_PLAYERS, ["--iterations", "1000000000000000000000000000000"],
     ["--iterations", "1000000000000000000000000000000"]),
    (FOUR_PLAYERS, ["--seconds", "inf"], ["--seconds", "inf"]),
    (FOUR_PLAYERS, ["--seconds", "1e300"], ["--seconds", "1e+300"]),
    (FOUR_PLAYERS, ["--seconds", "nan"], ["--seconds", "nan"]),
    (FOUR_PLAYERS, ["--max-nodes", "100"], ["--max-nodes", "search"]),
    (FOUR_PLAYERS, ["--threads", "2"], ["--threads", "search"]),
    ("24; 20, 22, 15, 23; 1 2, 3 4; 0 0", ["--seconds", "1"], ["--seconds", "exact solver"]),
    ("104; 20, 92, 65, 103; ?, ?, ?; 0 0 0", [], ["no hand is visible"]),
    (json.dumps({"deck": 24, "rows": [[20], [22], [15], [23]], "played": [11],
                 "hands": [list(range(1, 11)), None]}), [], ["unseen cards"]),
    (json.dumps({"deck": 104, "rows": [[20], [92], [65], [103]], "viewer": 2,
                 "hands": [[5, 10, 11], None, None]}), [], ["viewer", "visible"]),
    (json.dumps({"deck": 104, "rows": [[20], [92], [65], [103]], "viewer": True,
                 "hands": [[5, 10, 11], None, None]}), [], ["viewer", "got true"]),
    (json.dumps({"deck": 104, "rows": [[20], [92], [65], [103]], "to_move": True,
                 "hands": [[5, 10, 11], None, None]}), [], ["viewer", "got true"]),
    (json.dumps({"deck": 104, "rows": [[20], [92], [65], [103]], "viewer": "x" * 1000,
                 "hands": [[5, 10, 11], None, None]}), [], ["viewer", 'got "xxxx']),
    (json.dumps({"deck": 104, "rows": [[20], [92], [65], [103]], "played": [200],
                 "hands": [[5, 10, 11], None, None]}), [], ["played", "200"]),
])
def test_bad_input_is_one_line_exit_2(position, options, words):
    assert_input_error(run(["best", "-", *options], position), *words)


def test_the_largest_penalty_goes_through_the_search():      # the C core adds to an int
    result = run(["best", "-", "--iterations", "200"], "24; 20, 22, 15, 23; 1 2 9, ?; 1000000 0")
    assert result.exit_code == 0, result.stderr
    # the bullheads expected count from now: the same analysis as with no penalty so far
    big = best_json("24; 20, 22, 15, 23; 1 2 9, ?; 1000000 0", "--iterations", "200")
    none = best_json("24; 20, 22, 15, 23; 1 2 9, ?; 0 0", "--iterations", "200")
    assert big["cards"] == none["cards"] and big["play"] == none["play"]
    assert sorted(c["card"] for c in big["cards"]) == [1, 2, 9]
    assert all(0 <= c["expected_bullheads"] < 100 for c in big["cards"])
