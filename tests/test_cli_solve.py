"""`nimmt solve` and `nimmt best`: the documented outputs, limits (exit 3), bad input (exit 2),
the strategy graph files."""
import json
import re

import networkx as nx
import pytest

from solver.exact import Engine, solve
from solver.exact.graph import strategy_graph, to_dot
from solver.core.position import Position
from tests.support import (POSITIONS_DIR, assert_equilibrium, assert_input_error, error_line,
                           load_position_file, run, spec_position, spec_solution, strategy_vector)

WORKED_EXAMPLE = spec_position(load_position_file("spec_worked_example.json"))
WORKED_SOLUTION = spec_solution(load_position_file("spec_worked_example.json"))
EXCHANGE_EXAMPLE = spec_position(load_position_file("spec_exchange_example.json"))
SEVEN_CARDS = "24; 5, 19, 3, 9; 4 13 15 16 17 20 23, 1 2 6 7 8 10 11; 0 0"


# solve ------------------------------------------------------------------------------------
def test_spec_worked_example_json():
    result = run(["solve", "-", "--json"], json.dumps(WORKED_EXAMPLE))
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["value"] == WORKED_SOLUTION["value"]
    assert data["strategies"] == WORKED_SOLUTION["strategies"]
    # byte for byte, as docs/formats.md prints them
    assert json.dumps(data["value"]) == "2.7058823529411766"
    assert json.dumps(data["strategies"]) == json.dumps(WORKED_SOLUTION["strategies"])
    for key in ("card_values", "principal_line", "stats"):
        assert key in data
    assert data["principal_line"][0]["cards"] == [22, 5]
    assert data["principal_line"][0]["row_choice"] == {"player": 2, "row": 2}


def assert_json_equilibrium(position: Position, data: dict):
    """The JSON strategies are an equilibrium of the full root matrix (which is returned):
    no pure reply does better than the value."""
    matrix = Engine(position).full_matrix(position)
    x = strategy_vector(data["strategies"][0], position.hands[0])
    y = strategy_vector(data["strategies"][1], position.hands[1])
    assert_equilibrium(matrix, x, y, data["value"], tol=1e-9)
    return matrix


def test_spec_second_example_value():
    result = run(["solve", "-", "--json"], json.dumps(EXCHANGE_EXAMPLE))
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["value"] == pytest.approx(-4, abs=1e-9)
    assert_json_equilibrium(Position.from_dict(EXCHANGE_EXAMPLE), data)


def test_card_values_are_each_card_against_the_opponents_strategy():
    position = Position.from_text(SEVEN_CARDS)
    result = run(["solve", SEVEN_CARDS, "--json"])          # a position given inline
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert_card_values(position, data)


def assert_card_values(position: Position, data: dict) -> None:
    """Every card's value is its row (column) of the full matrix against the opponent's
    strategy."""
    matrix = assert_json_equilibrium(position, data)
    x = strategy_vector(data["strategies"][0], position.hands[0])
    y = strategy_vector(data["strategies"][1], position.hands[1])
    assert [e["value"] for e in data["card_values"][0]] == pytest.approx(matrix @ y, abs=1e-9)
    assert [e["value"] for e in data["card_values"][1]] == pytest.approx(x @ matrix, abs=1e-9)


def test_no_card_values_gives_the_same_solution_and_only_the_support_values():
    full = json.loads(run(["solve", SEVEN_CARDS, "--json"]).stdout)
    result = run(["solve", SEVEN_CARDS, "--json", "--no-card-values"])
    assert result.exit_code == 0, result.stderr
    quick = json.loads(result.stdout)
    assert quick["value"] == full["value"] and quick["strategies"] == full["strategies"]
    for k in range(2):
        played = {e["card"] for e in quick["strategies"][k]}
        for entry, exact in zip(quick["card_values"][k], full["card_values"][k]):
            if entry["card"] in played:
                assert entry["value"] == pytest.approx(quick["value"], abs=1e-9)
            assert entry["value"] is None or entry["value"] == pytest.approx(exact["value"])
    assert quick["stats"]["card_values_complete"] is False


def test_text_notation_and_human_output():
    result = run(["solve", "-", "--stats"], Position.from_dict(WORKED_EXAMPLE).to_text())
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "value 2.70588" in out
    assert "player 1: 19 (41.2%), 22 (58.8%)" in out
    assert "player 2: 5 (52.9%), 17 (47.1%)" in out
    assert "turn 1: P1 22, P2  5" in out and "P2 chooses row 2" in out
    for word in ("nodes", "transposition table hits", "matrix games", "seconds",
                 "children never evaluated"):
        assert word in out
    assert result.stderr == ""


def test_card_losses_shown():
    text = "24; 23, 8, 19, 22; 1 4 5 10, 3 6 12 16; 0 0"
    result = run(["solve", text])
    assert result.exit_code == 0, result.stderr
    solution = solve(Position.from_text(text))
    value = solution.card_values[0][4]
    pattern = rf"\b4  value +{value:.4f}  loses +{solution.value - value:.4f}"
    assert re.search(pattern.replace(".", r"\."), result.stdout), result.stdout


BAD = [
    ("{not json", "invalid JSON"),
    ("[1, 2]", "JSON object"),
]
NOT_FOR_THE_EXACT_SOLVER = [      # `best` answers these with the search (test_cli_best_search)
    (json.dumps({"deck": 24, "rows": [[1], [2], [3], [4]],
                 "hands": [[5, 6], [7, 8], [9, 10]]}), "3"),
    (json.dumps({"deck": 24, "rows": [[1], [2], [3], [4]], "hands": [[5, 6], None]}), "unseen"),
]


@pytest.mark.parametrize("command", ["solve", "best"])
@pytest.mark.parametrize("text,word", BAD)
def test_bad_input_one_line_exit_2(command, text, word):
    line = error_line(run([command, "-"], text), 2)
    assert word in line


@pytest.mark.parametrize("text,word", NOT_FOR_THE_EXACT_SOLVER)
def test_solve_refuses_hidden_or_3_players(text, word):
    line = error_line(run(["solve", "-"], text), 2)
    assert word in line


@pytest.mark.parametrize("command", ["solve", "best"])
@pytest.mark.parametrize("option, value, shown", [
    ("--max-nodes", "9223372036854775808", "9223372036854775808"),    # beyond a C long long
    ("--max-nodes", "1" + "0" * 30, "1" + "0" * 30),
    ("--max-nodes", "1000000000000001", "1000000000000001"),
    ("--time-limit", "nan", "'nan'"),                                 # was taken as no limit
    ("--time-limit", "-1", "-1"),
    ("--tt-size", "inf", "inf"),
    ("--tt-size", "nan", "'nan'"),
    ("--tt-size", "1e300", "1e+300"),
    ("--tt-size", "100000", "100000"),
    ("--tt-size", "1e9", "1000000000"),
])
def test_solver_options_out_of_range(command, option, value, shown):
    line = error_line(run([command, "-", option, value], json.dumps(WORKED_EXAMPLE)), 2)
    assert option in line and shown in line


class NoMemory:
    """An exact search whose table cannot be allocated (as on a machine too small for it)."""

    @staticmethod
    def entry_size():
        return 48

    def __init__(self, bulls, entries, endgame_log2):
        raise MemoryError(f"cannot allocate a table of {entries} entries")


def test_a_table_that_cannot_be_allocated_is_one_line(monkeypatch):
    monkeypatch.setattr("solver.exact.engine.ExactSearch", NoMemory)
    line = error_line(run(["solve", "-", "--tt-size", "60000"], json.dumps(WORKED_EXAMPLE)), 2)
    assert "out of memory: cannot allocate a table of" in line


@pytest.mark.parametrize("command", ["solve", "best"])
def test_missing_file(command, tmp_path):
    line = error_line(run([command, str(tmp_path / "nope.json")]), 2)
    assert "nope.json" in line


def test_bad_graph_extension_refused_before_solving(tmp_path):
    line = error_line(run(["solve", "-", "--graph", str(tmp_path / "g.png")],
                          json.dumps(WORKED_EXAMPLE)), 2)
    assert ".graphml or .dot" in line


def test_depth_needs_graph():
    error_line(run(["solve", "-", "--depth", "3"], json.dumps(WORKED_EXAMPLE)), 2)


def test_node_limit_exit_3_not_proven(tmp_path):
    graph = tmp_path / "g.graphml"
    result = run(["solve", "-", "--max-nodes", "200", "--graph", str(graph)], SEVEN_CARDS)
    line = error_line(result, 3)
    assert "NOT proven" in line and "200 nodes" in line
    assert "bounds" in line
    assert not graph.exists() and list(tmp_path.iterdir()) == []


def test_time_limit_exit_3():
    line = error_line(run(["best", "-", "--time-limit", "0.000001"], SEVEN_CARDS), 3)
    assert "NOT proven" in line


def test_a_long_solve_stopped_by_its_limit_still_says_one_line():
    nine = "24; 5, 19, 3, 9; 1 2 4 8 13 15 16 17 20, 6 7 10 11 12 14 18 21 22"
    # progress: on a terminal only; the provisional answer of a long solve: not with --exact-only
    line = error_line(run(["solve", nine, "--time-limit", "1.3", "--exact-only"]), 3)
    assert "NOT proven" in line and "1.3 s" in line


# graph ------------------------------------------------------------------------------------
def test_graphml_written_and_read_back(tmp_path):
    path = tmp_path / "tree.graphml"
    result = run(["solve", "-", "--graph", str(path), "--depth", "3"], SEVEN_CARDS)
    assert result.exit_code == 0, result.stderr
    graph = nx.read_graphml(path)
    assert SEVEN_CARDS in graph
    root = graph.nodes[SEVEN_CARDS]
    assert root["cards"] == 7 and root["turn"] == 0
    assert root["value"] == pytest.approx(solve(Position.from_text(SEVEN_CARDS)).value, abs=1e-6)
    assert max(d["turn"] for _, d in graph.nodes(data=True)) == 3
    for node, data in graph.nodes(data=True):
        out = [d["probability"] for _, _, d in graph.out_edges(node, data=True)]
        if out:
            assert sum(out) == pytest.approx(1.0, abs=1e-9)
    assert list(tmp_path.iterdir()) == [path]      # no temporary file left


def graph_of(position, depth):
    with Engine(position) as engine:
        return strategy_graph(engine, engine.solve(position), depth)


def test_graph_transpositions_merged_and_values_consistent():
    graph = graph_of(Position.from_text(SEVEN_CARDS), 3)
    # some position of turn 2 or 3 is reached by two different orders of play
    assert any(graph.in_degree(n) > 1 for n in graph)
    for node, data in graph.nodes(data=True):
        edges = list(graph.out_edges(node, data=True))
        if not edges:
            continue
        # the value is the expectation over the equilibrium of this turn's penalties + child
        expected = sum(d["probability"] * (d["penalty2"] - d["penalty1"] + graph.nodes[v]["value"])
                       for _, v, d in edges)
        assert expected == pytest.approx(data["value"], abs=1e-6)
        assert all(graph.nodes[v]["cards"] == data["cards"] - 1 for _, v, _ in edges)
    reach = sum(d["reach"] for _, d in graph.nodes(data=True) if d["turn"] == 3)
    assert reach == pytest.approx(1.0, abs=1e-9)


def test_row_choice_on_graph_edges():
    graph = graph_of(Position.from_dict(WORKED_EXAMPLE), 1)
    choices = [(d["card1"], d["card2"], d["row_player"], d["row"]) for _, _, d in graph.edges(data=True)]
    assert (22, 5, 2, 2) in choices
    assert all(row == -1 for a, b, player, row in choices if player == 0)


def test_dot_written(tmp_path):
    path = tmp_path / "tree.dot"
    result = run(["solve", "-", "--graph", str(path)], SEVEN_CARDS)
    assert result.exit_code == 0, result.stderr
    text = path.read_text()
    graph = graph_of(Position.from_text(SEVEN_CARDS), 2)
    assert text == to_dot(graph)
    assert text.startswith("digraph") and text.rstrip().endswith("}")
    assert text.count(" -> ") == graph.number_of_edges()
    pydot = pytest.importorskip("pydot")
    assert len(pydot.graph_from_dot_data(text)[0].get_edges()) == graph.number_of_edges()


# best -------------------------------------------------------------------------------------
def test_best_spec_example_in_words():
    result = run(["best", "-"], json.dumps(WORKED_EXAMPLE))
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "Player 1: play 19 (41%) or 22 (59%)" in out
    assert "Player 2: play 5 (53%) or 17 (47%)" in out
    # a row for each card of player 1's strategy above the 5: not the same row
    assert ("5 is too low: if player 1 plays 22 (59%), take row 2 (4 bullheads), not the"
            " cheapest row 3 (1 bullhead)") in out
    assert ("5 is too low: if player 1 plays 19 (41%), take row 0 (7 bullheads), not the"
            " cheapest row 3 (1 bullhead), which costs 5.00 bullheads more in the end") in out


def test_best_alternatives_cost():
    result = run(["best", "-"], "24; 23, 8, 19, 22; 1 4 5 10, 3 6 12 16; 0 0")
    assert result.exit_code == 0, result.stderr
    assert "Player 1: play 1 (17%) or 10 (83%)" in result.stdout
    assert "4 loses 0.50 bullheads on average" in result.stdout
    assert "6 loses 1.10 bullheads on average" in result.stdout


def test_solve_on_two_threads_prints_the_same_solution():
    """All but the search's counters, to the digit (the matrix entries to 12 decimals)."""
    path = str(POSITIONS_DIR / "07_seven_cards_midround_mixed.json")
    one, two = (json.loads(run(["solve", path, "--json", "--threads", n]).stdout)
                for n in ("1", "2"))
    del one["stats"], two["stats"]
    assert one == two


def test_best_on_two_threads_gives_the_same_advice():
    text = "24; 3 10, 7, 12 15 18, 21; 1 2 4 9 13, 5 6 8 11 14"
    one = json.loads(run(["best", text, "--json"]).stdout)
    result = run(["best", text, "--json", "--threads", "2"])
    assert result.exit_code == 0, result.stderr
    two = json.loads(result.stdout)
    assert two["value"] == pytest.approx(one["value"], abs=1e-9)
    for mine, theirs in zip(two["players"], one["players"]):
        assert [c["card"] for c in mine["cards"]] == [c["card"] for c in theirs["cards"]]
        assert [c["value"] for c in mine["cards"]] == pytest.approx(
            [c["value"] for c in theirs["cards"]], abs=1e-9)


def test_best_json():
    result = run(["best", "-", "--json"], json.dumps(WORKED_EXAMPLE))
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["value"] == WORKED_SOLUTION["value"]
    assert [p["play"] for p in data["players"]] == WORKED_SOLUTION["strategies"]
    choice = data["players"][1]["row_choices"][0]
    assert (choice["card"], choice["row"], choice["cheapest_row"]) == (5, 2, 3)
    assert choice["cheapest_row_costs_more"] == pytest.approx(2.0)


def test_best_hidden_hand_goes_to_the_search():      # more in test_cli_best_search.py
    text = "104; 9 24 29, 11 12 13 14 15, 60, 81; 3 47 70, ?, ?; 0 5 2"
    result = run(["best", "-", "--iterations", "300"], text)
    assert result.exit_code == 0 and result.stdout.startswith("Player 1: play ")
    lines = result.stdout.splitlines()
    assert int(lines[0].split()[3]) in (3, 47, 70)             # a card of player 1's hand
    assert lines[1].startswith("search: 300 iterations in ")
    assert sorted(int(line.split()[0]) for line in lines[4:]) == [3, 47, 70]     # the table


SPEC_SEEN_BY_1 = {"deck": 24, "rows": [[3, 10], [7], [12, 15, 18], [21]],
                  "hands": [[1, 2, 4], None],
                  "played": [9, 11, 13, 14, 16, 17, 19, 20, 22, 23, 24]}


@pytest.mark.parametrize("seat", [0, 1])
def test_best_knows_a_hidden_hand_of_the_24_card_game(seat):
    """Every card of the 2-player 24-card game is dealt: once the cards seen leave exactly
    a hand's worth, the hidden hand is known and `best` answers exactly."""
    data = json.loads(json.dumps(SPEC_SEEN_BY_1))
    data["hands"] = [[1, 2, 4], None] if seat == 0 else [None, [5, 6, 8]]
    result = run(["best", "-", "--json"], json.dumps(data))
    assert result.exit_code == 0, result.stderr
    advice = json.loads(result.stdout)
    assert advice["value"] == -4.0 and advice["deduced"] == 2 - seat
    assert advice["position"] == "24; 3 10, 7, 12 15 18, 21; 1 2 4, 5 6 8; 0 0"
    text = run(["best", "-"], json.dumps(data)).stdout
    hidden = "player 2's hand" if seat == 0 else "player 1's hand"
    assert text.startswith(f"{hidden}, hidden, is known") and "value -4 for player 1" in text


def test_solve_knows_a_hidden_hand_of_the_24_card_game_too():
    data = json.loads(json.dumps(SPEC_SEEN_BY_1))
    data["hands"] = [[1, 2, 4], None]
    result = run(["solve", "-", "--json"], json.dumps(data))
    assert result.exit_code == 0, result.stderr
    solution = json.loads(result.stdout)
    assert solution["value"] == -4.0 and solution["deduced"] == 2
    assert run(["solve", "-"], json.dumps(data)).stdout.startswith(
        "player 2's hand, hidden, is known: every card of the 2-player 24-card game is dealt"
        " (5 6 8)")
    del data["played"]
    assert_input_error(run(["solve", "-"], json.dumps(data)),
                       "hand of player 2 is unseen (nimmt best advises on a hidden hand")


def test_a_known_hidden_hand_refuses_search_options_saying_why():
    result = run(["best", "-", "--seconds", "2"], json.dumps(SPEC_SEEN_BY_1))
    assert result.exit_code == 2
    assert "the hidden hand known from the cards seen" in result.stderr


def test_a_hidden_hand_not_known_is_searched():
    """Without `played`, the cards out of play are unknown: the hand is not deduced, and a
    note says where they belong (in the 10n+4 deck every card is dealt)."""
    data = {k: v for k, v in SPEC_SEEN_BY_1.items() if k != "played"}
    result = run(["best", "-", "--json"], json.dumps(data))
    advice = json.loads(result.stdout)
    assert advice["method"] == "network" and "deduced" not in advice
    assert result.stderr.startswith("note: the 24-card deck deals every card, but the unseen"
                                    " cards are 11 more than the hidden hands hold")
    assert run(["best", "-"], json.dumps(SPEC_SEEN_BY_1)).stderr == ""
    assert Position.from_dict(data).deduced() == (Position.from_dict(data), None)
    four = Position.from_text("104; 9, 11, 60, 81; 3 47 70, ?; 0 0")
    assert four.deduced()[1] is None


def test_round_over():
    text = "24; 1, 2, 3, 4; -, -"
    solved = run(["solve", "-"], text)
    assert solved.exit_code == 0 and "the round is over" in solved.stdout
    assert json.loads(run(["solve", "-", "--json"], text).stdout)["strategies"] == [[], []]
    assert "Player 1: nothing to play" in run(["best", "-"], text).stdout


@pytest.mark.parametrize("text", [SEVEN_CARDS, Position.from_dict(WORKED_EXAMPLE).to_text(),
                                  "24; 3 10, 7, 12 15 18, 21; 1 2 4 9 13, 5 6 8 11 14"])
def test_two_threads_prove_the_same_value(text):
    one = json.loads(run(["solve", text, "--json"]).stdout)
    result = run(["solve", text, "--json", "--threads", "2"])
    assert result.exit_code == 0, result.stderr
    two = json.loads(result.stdout)
    assert two["value"] == pytest.approx(one["value"], abs=1e-9)
    assert_card_values(Position.from_text(text), two)


@pytest.mark.parametrize("command", ["solve", "best"])
def test_more_threads_than_cores_are_refused_in_one_line(command):
    from solver.limits import max_threads
    text = "24; 3 10, 7, 12 15 18, 21; 1 2 4 9 13, 5 6 8 11 14"
    line = error_line(run([command, text, "--threads", str(max_threads() + 1)]), 2)
    assert "--threads" in line


@pytest.mark.parametrize("name", ["02_two_cards_mixed.json", "03_three_cards_mixed.json",
                                  "04_four_cards_cheapest_row_not_best.json"])
def test_card_values_prove_the_printed_strategies(name):
    """What formats.md tells a user to check: no card of player 1 above the value, none of
    player 2 below it, and the strategies' own cards at it."""
    import os
    folder = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          "positions")
    result = run(["solve", os.path.join(folder, name), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    value, (ones, twos) = data["value"], data["card_values"]
    assert max(c["value"] for c in ones) <= value + 1e-9
    assert min(c["value"] for c in twos) >= value - 1e-9
    for side, strategy in zip((ones, twos), data["strategies"]):
        played = {e["card"] for e in strategy}
        assert all(abs(c["value"] - value) <= 1e-9 for c in side if c["card"] in played)
