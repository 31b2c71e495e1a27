"""What several test files share, in one place: the example positions of positions/, the
command-line runner and its one-line error check, the record example, and the
equilibrium check of a strategy pair.

Import it as `from tests.support import ...` (tests/ is a package; `python -m pytest` from the
repository root puts the root on sys.path). The same examples are pytest fixtures in
tests/conftest.py, for test functions that want them as arguments.
"""
import json
import os
from pathlib import Path
from typing import Mapping, Sequence, Union

import numpy as np
from click.testing import CliRunner, Result

from solver.cli import main

POSITIONS_DIR = Path(__file__).resolve().parent.parent / "positions"
POSITION_KEYS = ("deck", "rows", "hands", "penalties")

# A game record (docs/formats.md, "Game records"): two turns, player 1's 3 too low takes row 1.
RECORD_EXAMPLE = {
    "deck": 24,
    "rows": [[5], [11], [17], [20]],
    "hands": [[1, 2, 3, 4, 6, 7, 8, 9, 10, 12], [13, 14, 15, 16, 18, 19, 21, 22, 23, 24]],
    "turns": [
        {"cards": [3, 14], "row_choices": [1, None]},
        {"cards": [12, 13]},
    ],
}


# the example positions --------------------------------------------------------------------
def position_files() -> list:
    """Every curated position file of positions/, sorted by name."""
    return sorted(POSITIONS_DIR.glob("*.json"))


def load_position_file(name: Union[str, Path]) -> dict:
    """A file of positions/ (a name such as "spec_worked_example.json", or a path): the
    position plus "description", "value", optionally "value_fraction" and "strategies".
    A fresh dict on every call, so a test may change it."""
    path = Path(name) if Path(name).is_absolute() else POSITIONS_DIR / name
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def spec_position(data: Mapping) -> dict:
    """Only the position keys of a positions/ file (deck, rows, hands, penalties)."""
    return {key: json.loads(json.dumps(data[key])) for key in POSITION_KEYS if key in data}


def spec_solution(data: Mapping) -> dict:
    """The solution of a positions/ file in the solution format (value, strategies)."""
    return {"value": data["value"], "strategies": json.loads(json.dumps(data["strategies"]))}


# the command line -------------------------------------------------------------------------
def run(args: Sequence[str], stdin=None) -> Result:
    """`nimmt ARGS` in-process with `stdin` as its input; stdout and stderr kept apart."""
    return CliRunner().invoke(main, list(args), input=stdin)


def error_line(result: Result, status: int = 2) -> str:
    """The one line a refused command prints: exit `status`, nothing on stdout, one short
    "nimmt: error: ..." line on stderr, no traceback. Returns the line."""
    assert result.exit_code == status, (result.output, result.stderr)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("nimmt: error: "), result.stderr
    assert len(lines[0]) <= 300, lines[0][:500]       # a quoted value is shortened
    assert "Traceback" not in result.stderr
    return lines[0]


def assert_input_error(result: Result, *words: str) -> None:
    """Bad input: exit status 2, one line on stderr holding every one of `words`."""
    line = error_line(result, 2)
    for word in words:
        assert word in line


# equilibria -------------------------------------------------------------------------------
def strategy_vector(strategy, hand: Sequence[int]) -> np.ndarray:
    """A mixed strategy as probabilities over `hand` (in the hand's order). `strategy` is a
    {card: probability} mapping (solver.exact.Solution) or a list of {"card", "probability"}
    entries (the solution format). Every card it names must be in the hand."""
    if not isinstance(strategy, Mapping):
        strategy = {entry["card"]: entry["probability"] for entry in strategy}
    assert set(strategy) <= set(hand), (strategy, hand)
    return np.array([strategy.get(card, 0.0) for card in hand], dtype=float)


def assert_equilibrium(matrix, x, y, value: float, tol: float = 1e-6, what: str = "") -> None:
    """(x, y) is an equilibrium of value `value` of the zero-sum game `matrix` (player 1, the
    rows, gets x @ matrix @ y): both are probability vectors and no pure reply beats the value
    by more than `tol`: x guarantees at least value - tol against every column, y concedes at
    most value + tol against every row."""
    matrix = np.asarray(matrix, dtype=float)
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    where = f"{what}: " if what else ""
    assert x.shape == (matrix.shape[0],) and y.shape == (matrix.shape[1],), where
    for who, s in (("player 1", x), ("player 2", y)):
        assert s.min() >= -tol and abs(s.sum() - 1) <= tol, f"{where}{who}'s strategy {s}"
    guaranteed, conceded = (x @ matrix).min(), (matrix @ y).max()
    assert guaranteed >= value - tol, \
        f"{where}player 1's strategy guarantees only {guaranteed} < {value}"
    assert conceded <= value + tol, f"{where}player 2's strategy concedes {conceded} > {value}"


def cpu_seconds(pid: int) -> float:
    """CPU time a process has used (Linux); large where /proc is missing (no wait then)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return float("inf")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
