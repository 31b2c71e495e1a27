"""`nimmt batch report` and what it reads: every figure checked against an independent
computation on a hand-made results file, the row choices of `batch solve --row-choices`
against the reference solver, torn and bad files, --json, --plots."""
import json
import random
import statistics
import sys

import pytest
from scipy.stats import binomtest

from solver.batch.report import build_report, histogram, quantile
from solver.core.position import Position
from solver.core.rules import cheapest_row
from solver.stats import share_ci95
from tests import reference_solver as ref
from tests.support import assert_input_error, run

TWO = "24; 3 10, 7, 12 15 18, 21; 1 2, 5 6; 0 0"            # 2 cards a hand
THREE = "24; 3 10, 7, 12 15 18, 21; 1 2 4, 5 6 8; 0 0"      # 3 cards a hand


def strategy(*cards):
    return [{"card": c, "probability": 1 / len(cards)} for c in cards]


def choice(player, cards, probability, row, cheapest, costs):
    return {"player": player, "cards": cards, "probability": probability, "row": row,
            "cheapest_row": cheapest, "cheapest_row_costs_more": costs}


# six hand-made lines: four solved (one from before --row-choices), a limit, an error
LINES = [
    {"line": 1, "position": TWO, "status": "solved", "value": 1.5,
     "strategies": [strategy(1), strategy(5)], "row_choices": [], "seconds": 0.01},
    {"line": 2, "position": TWO, "status": "solved", "value": -2.0,
     "strategies": [strategy(1, 2), strategy(5, 6)], "seconds": 0.02,
     "row_choices": [choice(1, [1, 5], 0.25, 2, 0, 3.0), choice(1, [1, 6], 0.25, 0, 0, 0.0)]},
    {"line": 3, "position": THREE, "status": "solved", "value": 4.25,
     "strategies": [strategy(1, 2), strategy(5, 8)], "seconds": 0.5},
    {"line": 4, "position": THREE, "status": "solved", "value": 0.0,
     "strategies": [strategy(4), strategy(5, 6)], "seconds": 0.3,
     "row_choices": [choice(1, [4, 5], 1.0, 1, 1, 0.0)]},
    {"line": 5, "position": THREE, "status": "limit", "value": None,
     "bounds": {"lower": -1.0, "upper": None}, "seconds": 2.0, "error": "value NOT proven"},
    {"line": 6, "position": "not a position", "status": "error", "value": None,
     "error": "expected 'DECK; ROWS; HANDS'", "seconds": 0.0, "worker": None},
]
VALUES = [1.5, -2.0, 4.25, 0.0]


def write(tmp_path, lines, tail="", name="results.jsonl"):
    path = tmp_path / name
    path.write_text("".join(json.dumps(line) + "\n" for line in lines) + tail)
    return path


def report_json(path):
    result = run(["batch", "report", str(path), "--json"])
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def wilson(count, total):
    interval = binomtest(count, total).proportion_ci(0.95, method="wilson")
    return pytest.approx([interval.low, interval.high], abs=1e-5)


# the figures --------------------------------------------------------------------------------
def test_every_figure_against_an_independent_computation(tmp_path):
    data = report_json(write(tmp_path, LINES))
    assert (data["results"], data["solved"], data["limit"], data["error"]) == (6, 4, 1, 1)
    values = data["values"]
    assert values["count"] == 4 and values["mean"] == pytest.approx(statistics.mean(VALUES))
    half = 1.959964 * statistics.stdev(VALUES) / 2
    assert values["ci95"] == pytest.approx([statistics.mean(VALUES) - half,
                                            statistics.mean(VALUES) + half])
    deciles = statistics.quantiles(VALUES, n=20, method="inclusive")    # 5% steps
    assert values["quantiles"] == pytest.approx({
        "min": -2.0, "p10": deciles[1], "p25": deciles[4], "median": statistics.median(VALUES),
        "p75": deciles[14], "p90": deciles[17], "max": 4.25})
    bins = values["histogram"]                  # range 6.25: width 0.5 gives 13 bins
    assert {b["to"] - b["from"] for b in bins} == {0.5}
    assert (bins[0]["from"], bins[-1]["to"]) == (-2.0, 4.5)
    assert [b["count"] for b in bins] == [
        sum(b["from"] <= v < b["to"] for v in VALUES) for b in bins]
    assert sum(b["count"] for b in bins) == 4
    assert data["mixed"]["count"] == 3 and data["mixed"]["of"] == 4      # all but line 1
    assert data["mixed"]["ci95"] == wilson(3, 4)
    assert data["supports"] == [{"sizes": [1, 1], "count": 1}, {"sizes": [1, 2], "count": 1},
                                {"sizes": [2, 2], "count": 2}]
    choices = data["row_choices"]                # lines 1, 2 and 4; line 3 has none
    assert data["row_choices_not_recorded"] == 1 and choices["positions"] == 3
    assert (choices["with_choice"]["count"], choices["with_choice"]["of"]) == (2, 3)
    assert (choices["not_cheapest"]["count"], choices["not_cheapest"]["of"]) == (1, 2)
    assert choices["not_cheapest"]["ci95"] == wilson(1, 2)
    assert choices["probability"] == pytest.approx(0.25 / 3)
    assert (choices["joint_plays"], choices["joint_plays_not_cheapest"]) == (3, 1)
    assert choices["cheapest_costs_more"] == {"mean": 3.0, "max": 3.0}
    assert data["seconds_by_cards"] == [
        {"cards": 2, "solved": 2, "limit": 0, "median": pytest.approx(0.015),
         "p90": pytest.approx(0.019), "max": 0.02},
        {"cards": 3, "solved": 2, "limit": 1, "median": pytest.approx(0.4),
         "p90": pytest.approx(0.48), "max": 0.5}]


def test_quantiles_and_histogram_on_random_values():
    rng = random.Random(5)
    for n in (1, 2, 7, 200):
        values = sorted(rng.uniform(-20, 20) for _ in range(n))
        if n > 1:
            cuts = statistics.quantiles(values, n=100, method="inclusive")
            assert [quantile(values, k / 100) for k in range(1, 100)] == pytest.approx(cuts)
        assert (quantile(values, 0), quantile(values, 1)) == (values[0], values[-1])
        bins = histogram(values)
        assert len(bins) <= 24 and sum(b.count for b in bins) == n
        assert all(sum(b.low <= v < b.high for b in bins) == 1 for v in values)


@pytest.mark.parametrize("count, total", [(0, 10), (3, 4), (10, 10), (62, 200), (1, 1)])
def test_the_share_interval_is_wilsons(count, total):
    share, low, high = share_ci95(count, total)
    assert share == count / total and [low, high] == wilson(count, total)


def test_the_text_report(tmp_path):
    result = run(["batch", "report", str(write(tmp_path, LINES))])
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    assert "6 results: 4 solved, 1 stopped by a limit (not proven), 1 error" in text
    assert "mean 0.94, 95% interval" in text
    assert "min -2.00  p10 -1.40" in text          # -2 + 0.3 x (0 - -2)
    bar = "#" * 40                              # every bin holds 1 value or none
    assert f"  [-2, -1.5)    1 {bar}\n  [-1.5, -1)    0\n" in text
    assert f"  [4, 4.5)      1 {bar}\n" in text
    assert "mixed (a player plays 2+ cards)        3 of 4, 75.0%" in text
    assert "1x1 1 (25.0%)  1x2 1 (25.0%)  2x2 2 (50.0%)" in text
    assert "3 solved positions (1 more did not record them)" in text
    assert "of those, a best row not the cheapest  1 of 2, 50.0%" in text
    assert "3.00 more on average, 3.00 at most (1 of 3 joint plays)" in text
    assert "      2       2    0.01    0.02    0.02      0" in text


def test_a_file_without_row_choices_or_values_still_reports(tmp_path):
    old = [dict(line, row_choices=None) for line in LINES[:4]]
    text = run(["batch", "report", str(write(tmp_path, old))]).stdout
    assert "row choices: not recorded (solve with 'nimmt batch solve --row-choices')" in text
    only_errors = write(tmp_path, LINES[5:], name="errors.jsonl")
    result = run(["batch", "report", str(only_errors)])
    assert result.exit_code == 0 and "no position solved: no values" in result.stdout
    data = report_json(only_errors)
    assert data["values"] is None and data["error"] == 1 and data["seconds_by_cards"] == []


def test_a_torn_last_line_is_skipped_and_left_in_place(tmp_path):
    path = write(tmp_path, LINES, tail='{"line": 7, "position": "24; 3 1')
    before = path.read_bytes()
    result = run(["batch", "report", str(path)])
    assert result.exit_code == 0 and "a torn last line of 32 bytes skipped" in result.stdout
    assert report_json(path)["torn_bytes"] == 32 and path.read_bytes() == before


def test_the_json_has_its_keys_in_order(tmp_path):
    data = report_json(write(tmp_path, LINES))
    assert list(data) == ["results", "torn_bytes", "solved", "limit", "error", "values",
                          "mixed", "supports", "row_choices", "row_choices_not_recorded",
                          "seconds_by_cards"]
    assert list(data["mixed"]) == ["count", "of", "share", "ci95"]


# bad files ----------------------------------------------------------------------------------
@pytest.mark.parametrize("content, words", [
    (None, ["cannot read", "no such file"]),
    ("", ["holds no result"]),
    ('{"line": 1, "posi', ["holds no result (only a torn line)"]),
    ("hello\n", ["is not a batch results file", "its line 1"]),
    ('{"line": 1, "position": "x"}\n[1, 2]\n', ["is not a batch results file", "its line 2"]),
    ('{"line": 1, "position": "x"}\n' + "[" * 100_000 + "\n",
     ["is not a batch results file", "its line 2"]),
    ('{"line": 1, "position": "x", "status": "done"}\n', ["input line 1", "unknown status"]),
    (json.dumps(dict(LINES[0], line=0)) + "\n", ["is not a batch results file", "its line 1"]),
    (json.dumps(dict(LINES[0], value="1.5")) + "\n", ["value is not a number", "'1.5'"]),
    (json.dumps(dict(LINES[0], value=float("nan"))) + "\n", ["value is not a number"]),
    (json.dumps(dict(LINES[0], value=10 ** 400)) + "\n", ["value is not a number"]),
    (json.dumps(dict(LINES[0], seconds=10 ** 400)) + "\n", ["seconds is not a number"]),
    (json.dumps(dict(LINES[0], value=1e300)) + "\n" + json.dumps(dict(LINES[1], value=-1e300))
     + "\n", ["value 1e+300 is more bullheads than the deck holds"]),
    (json.dumps(dict(LINES[0], value=39.0)) + "\n", ["more bullheads than the deck holds (38)"]),
    (json.dumps(dict(LINES[0], position="24; 1")) + "\n", ["its position is not one"]),
    (json.dumps(dict(LINES[0], strategies=[[]])) + "\n", ["strategies are not two lists"]),
    (json.dumps(dict(LINES[0], strategies=[[{"card": 1, "probability": "x"}], strategy(5)]))
     + "\n", ["player 1's strategy", "probability is not a number"]),
    (json.dumps(dict(LINES[0], strategies=[strategy(1), [{"card": 5, "probability": 0.5}]]))
     + "\n", ["player 2's strategy", "adding up to 1"]),
    (json.dumps(dict(LINES[0], strategies=[strategy(5), strategy(5)])) + "\n",
     ["player 1's strategy", "cards of their hand"]),
    (json.dumps(dict(LINES[0], strategies=[[None], strategy(5)])) + "\n",
     ["player 1's strategy is not a list of objects"]),
    (json.dumps(dict(LINES[0], seconds=-1)) + "\n", ["seconds is negative"]),
    (json.dumps(dict(LINES[0], row_choices=[{"row": 1}])) + "\n", ["probability is not"]),
])
def test_bad_files_are_refused_in_one_line(tmp_path, content, words):
    path = tmp_path / "results.jsonl"
    if content is not None:
        path.write_text(content)
    assert_input_error(run(["batch", "report", str(path)]), *words)


def test_a_folder_is_refused(tmp_path):
    assert_input_error(run(["batch", "report", str(tmp_path)]), "cannot read")


# the row choices of batch solve ---------------------------------------------------------------
def test_row_choices_agree_with_the_reference_solver(tmp_path):
    positions = tmp_path / "four.jsonl"
    assert run(["deal", "--count", "16", "--seed", "3", "--cards", "4",
                "--out", str(positions)]).exit_code == 0
    out = tmp_path / "out.jsonl"
    result = run(["batch", "solve", str(positions), "--out", str(out), "--row-choices"])
    assert result.exit_code == 0, result.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    seen = {"choices": 0, "not_cheapest": 0}
    for record in records:
        position = Position.from_text(record["position"])
        x, y = ({s["card"]: s["probability"] for s in player} for player in record["strategies"])
        lowest_end = min(row[-1] for row in position.rows)
        expected = {(a, b): x[a] * y[b] for a in x for b in y if min(a, b) < lowest_end}
        assert {tuple(c["cards"]): c["probability"] for c in record["row_choices"]} \
            == pytest.approx(expected)
        for c in record["row_choices"]:
            a, b = c["cards"]
            owner = 0 if a < b else 1
            assert c["player"] == owner + 1
            hands = ([h for h in position.hands[0] if h != a],
                     [h for h in position.hands[1] if h != b])
            values = ref.row_choice_values(position.rows, min(a, b), owner, max(a, b), hands)
            for_owner = [v if owner == 0 else -v for v in values]
            cheapest = cheapest_row(position.rows)
            assert c["cheapest_row"] == cheapest
            assert c["cheapest_row_costs_more"] == pytest.approx(max(for_owner)
                                                                 - for_owner[cheapest], abs=1e-9)
            assert for_owner[c["row"]] == pytest.approx(max(for_owner), abs=1e-9)
            assert (c["row"] != cheapest) == (c["cheapest_row_costs_more"] > 1e-9)
            seen["choices"] += 1
            seen["not_cheapest"] += c["row"] != cheapest
    assert seen["choices"] >= 5 and seen["not_cheapest"] >= 1, seen   # both cases met


def test_without_the_option_the_results_have_no_row_choices(tmp_path):
    out = tmp_path / "out.jsonl"
    assert run(["batch", "solve", "-", "--out", str(out)], stdin=THREE + "\n").exit_code == 0
    assert "row_choices" not in json.loads(out.read_text())


# --plots -------------------------------------------------------------------------------------
def test_plots_are_written_as_png(tmp_path):
    pytest.importorskip("matplotlib")
    folder = tmp_path / "new" / "plots"
    result = run(["batch", "report", str(write(tmp_path, LINES)), "--plots", str(folder)])
    assert result.exit_code == 0, result.stderr
    names = ["values.png", "first-turn.png", "supports.png", "seconds.png"]
    assert result.stderr.splitlines() == [f"plot: {folder / name}" for name in names]
    assert sorted(p.name for p in folder.iterdir()) == sorted(names)     # no .part left
    first = {name: (folder / name).read_bytes() for name in names}
    assert all(data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) < 60_000
               for data in first.values())
    run(["batch", "report", str(write(tmp_path, LINES)), "--plots", str(folder)])
    assert {name: (folder / name).read_bytes() for name in names} == first   # no time stamp
    (folder / "values.png").write_text("my notes")          # someone's file: kept
    assert_input_error(run(["batch", "report", str(write(tmp_path, LINES)), "--plots",
                            str(folder)]), "values.png", "is not a PNG image", "not overwritten")
    assert (folder / "values.png").read_text() == "my notes"


def test_plots_without_matplotlib_say_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)    # its import fails
    result = run(["batch", "report", str(write(tmp_path, LINES)), "--plots",
                  str(tmp_path / "plots")])
    assert_input_error(result, "--plots needs matplotlib", 'pip install "nimmt[plots]"')
    assert not (tmp_path / "plots").exists()


def test_the_report_of_a_synthetic_file_is_the_library_one(tmp_path):
    assert report_json(write(tmp_path, LINES)) == json.loads(
        json.dumps(build_report(LINES).to_dict()))


def test_row_choices_stopped_by_the_limit_are_null(tmp_path):
    # a limit of exactly the solve's own nodes: the value is proven, the row choices (which
    # search the positions after each row) are stopped, and recorded as not known
    line = "24; 22, 3 11 15 17, 4 9, 7 12 20 21; 2 8 14 16 19, 1 5 10 18 23; 2 1\n"
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    assert run(["batch", "solve", "-", "--out", str(first), "--row-choices"],
               stdin=line).exit_code == 0
    record = json.loads(first.read_text())
    assert record["row_choices"]
    nodes = record["stats"]["nodes"]
    assert run(["batch", "solve", "-", "--out", str(second), "--row-choices", "--max-nodes",
                str(nodes)], stdin=line).exit_code == 0
    limited = json.loads(second.read_text())
    assert limited["status"] == "solved" and limited["value"] == record["value"]
    assert limited["row_choices"] is None
    data = report_json(second)
    assert data["row_choices"] is None and data["row_choices_not_recorded"] == 1
