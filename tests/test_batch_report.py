"""`nimmt batch solve --row-choices`: the first turn's row choices against the reference
solver."""
import json

import pytest

from solver.core.position import Position
from solver.core.rules import cheapest_row
from tests import reference_solver as ref
from tests.support import run

THREE = "24; 3 10, 7, 12 15 18, 21; 1 2 4, 5 6 8; 0 0"      # 3 cards a hand


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
            hands = ([h for h in position.hands[0] if h != a], [h for h in position.hands[1] if h != b])
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
