"""Players are numbered 1..N and rows 0..3 everywhere a person reads them, said once in
`nimmt --help` and in solver/text/render.py."""
import json
import re

from solver.text import render
from tests.support import run as run_command

STATEMENT = "Players are numbered 1..N and rows 0..3"
RECORD = {
    "deck": 24,
    "rows": [[5], [11], [17], [20]],
    "hands": [[1, 2, 3, 4, 6, 7, 8, 9, 10, 12], [13, 14, 15, 16, 18, 19, 21, 22, 23, 24]],
    "turns": [{"cards": [3, 14], "row_choices": [3, None]}, {"cards": [12, 13]}],
}


def run(args, stdin=None):
    """The output of a command that must succeed."""
    result = run_command(args, stdin)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_the_numbering_is_stated_in_the_help_and_in_render():
    assert STATEMENT in " ".join(run(["--help"]).split())
    assert STATEMENT in " ".join(render.__doc__.split())
    assert "1..N" in render.player_name.__doc__ and render.player_name(0) == "player 1"


def check(text):
    assert not re.search(r"\b(P0|player 0|seat 0)\b", text), text
    assert not re.search(r"\brows? [4-9]\b", text), text


def test_outputs_number_players_from_1_and_rows_from_0():
    replayed = run(["replay", "-"], json.dumps(RECORD))
    check(replayed)
    assert "P1 took row 3" in replayed and "row 0 |" in replayed and "P2 " in replayed
    final = json.loads(run(["replay", "-", "--json"], json.dumps(RECORD)))
    position = json.dumps(final)
    for args in (["solve", "-"], ["best", "-"], ["show", "-"]):
        check(run(args, position))
    assert json.loads(run(["best", "-", "--json"], position))["players"][0]["player"] == 1
    check(run(["play", "--players", "3", "--seed", "2"], "quit\n"))
