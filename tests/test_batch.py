"""Batch solving: `nimmt deal --count`."""
from pathlib import Path

import pytest

from solver import Position
from solver.batch.deals import deal_positions
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

