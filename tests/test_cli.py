"""The command line: real outputs, and bad input always one line on stderr with exit status 2."""
import json
import re

import pytest

from solver.core.position import Position
from solver.core.record import replay
from solver.core.rules import row_bullheads
from tests.support import (POSITIONS_DIR, RECORD_EXAMPLE, assert_input_error, load_position_file,
                           run, spec_position)

GOOD = spec_position(load_position_file("spec_exchange_example.json"))
RECORD = RECORD_EXAMPLE


def with_key(**changes):
    data = json.loads(json.dumps(GOOD))
    data.update(changes)
    return json.dumps(data)


BAD_POSITIONS = [
    ("{not json", "invalid JSON"),
    ("[1, 2]", "JSON object"),
    (json.dumps({"hands": GOOD["hands"]}), "rows"),
    (json.dumps({"rows": GOOD["rows"]}), "hands"),
    (with_key(rows=[[3, 10], [7], [12, 15, 18], [21], [22]]), "5"),
    (with_key(rows=[[3, 10], [7], [12, 15, 18]]), "3"),
    (with_key(rows=[[3, 10], [7], [9, 12, 14, 15, 16, 18], [21]]), "6"),
    (with_key(rows=[[3, 10], [7], [], [21]]), "0"),
    (with_key(rows=[[10, 3], [7], [12, 15, 18], [21]]), "[10, 3]"),
    (with_key(hands=[[0, 2, 4], [5, 6, 8]]), "0"),
    (with_key(hands=[[1, 2, 4], [5, 6, 25]]), "25"),
    (with_key(deck=104, hands=[[1, 2, 105], [5, 6, 8]]), "105"),
    (with_key(hands=[[1, 2, "x"], [5, 6, 8]]), '"x"'),
    (with_key(hands=[[1, 2, 1.5], [5, 6, 8]]), "1.5"),
    (with_key(hands=[[1, 2, True], [5, 6, 8]]), "true"),
    (with_key(hands=[[1, 2, 4], [5, 6, 7]], rows=[[3, 7], [9], [12, 15, 18], [21]]), "7"),
    (with_key(hands=[[1, 2, 4], [5, 6]]), "sizes"),
    (with_key(deck=104, hands=[list(range(30, 41)), list(range(41, 52))]), "11"),
    (with_key(hands=[[1, 2, 4]], penalties=[0]), "got 1 hand"),
    (with_key(deck=104, hands=[[30 + k] for k in range(11)], penalties=[0] * 11), "11 hands"),
    (with_key(penalties=[0, -1]), "-1"),
    (with_key(penalties=[2147483648, 0]), "penalty 2147483648 is more than 1,000,000"),
    (with_key(penalties=[0, 1000001], hands=[[1, 2, 4], None]), "penalty 1000001"),
    ("24; 3 10, 7, 12 15 18; 1 2 4, 5 6 8", "3"),
    ("24; 3 10, 7, 12 15 x, 21; 1 2 4, 5 6 8", "'x'"),
    ("", "invalid JSON"),
]


@pytest.mark.parametrize("text, word", BAD_POSITIONS)
def test_show_refuses_bad_positions_in_one_line(text, word):
    assert_input_error(run(["show", "-"], text), word)


def test_a_json_array_given_inline_is_read_as_one():
    """Not taken for the name of a missing file ("cannot read '[1,2]'")."""
    assert_input_error(run(["show", "[1,2]"]), "a position must be a JSON object, got [1, 2]")


LONG_KEY = "k" * 100_000
HUGE_INPUTS = [       # any size or depth of input: one short line quoting its start
    ("24; 3 10, 7, 12 15 18, 21; 1 2 4, 5 6 8 " + "x" * 200_000, "card 'xxxx"),
    ("x" * 100_000, "'xxxx"),
    (f'{{"{LONG_KEY}": 1, "{LONG_KEY}": 2}}', "key 'kkkk"),
    (with_key(hands=[[1, 2, 10 ** 4000], [5, 6, 8]]), "card 1000"),
    (with_key(penalties=[0, -10 ** 4000]), "penalty -1000"),
    (bytes(range(128, 256)) * 4, "stdin is not UTF-8 text"),
]


@pytest.mark.parametrize("text, word", HUGE_INPUTS)
def test_huge_input_is_refused_in_one_short_line(text, word):
    assert_input_error(run(["show", "-"], text), word)


def test_replay_quotes_a_huge_card_short():
    record = dict(RECORD, turns=[{"cards": [10 ** 4000, 13]}])
    assert_input_error(run(["replay", "-"], json.dumps(record)), "plays 1000")


def test_a_huge_bot_name_is_quoted_short():
    assert_input_error(run(["tournament", "-n", "2", "--bots", "x" * 10_000]), "bot 'xxxx")
    from solver.errors import quote
    assert quote("x" * 100, 20) == "'" + "x" * 15 + "...'" and quote("xy") == "'xy'"


def test_a_huge_option_value_is_quoted_short():
    # the usage errors quote the value given: cut, not 10,000 characters on one line
    assert_input_error(run(["deal", "-n", "x" * 10_000]), "'--players'", "'xxxx")
    assert_input_error(run(["deal", "-n", "2", "--seed", "9" * 5000]), "'--seed'", "'9999")


NUMBER_5000 = "9" * 5000        # more digits than Python reads (4300)


@pytest.mark.parametrize("text, word", [
    (with_key()[:-1] + ', "note": NaN}', "NaN"),                 # not JSON, even unchecked
    (with_key()[:-1] + ', "note": [Infinity]}', "Infinity"),
    (with_key()[:-1] + ', "note": {"x": -Infinity}}', "-Infinity"),
    (with_key()[:-1].replace("[0, 0]", "[0, NaN]") + "}", "NaN"),
    (with_key()[:-1].replace("[[1, 2, 4]", f"[[1, 2, {NUMBER_5000}]") + "}",
     "card 99999999"),
    (with_key()[:-1].replace("[0, 0]", f"[0, -{NUMBER_5000}]") + "}", "penalty -9999"),
    (with_key()[:-1].replace('"deck": 24', f'"deck": {NUMBER_5000}') + "}", "got 9999"),
    ('{"deck": 24,\n "rows": [[3, 10], [7]\n "hands": []}', "line 3 column 2"),
    ("\ufeff  {'deck': 24}", "invalid JSON at line 1 column 4"),
    ("// my deal\n" + with_key(), "line 1 column 1: comments are not JSON"),
    (with_key()[:-1] + ' /* note */}', "comments are not JSON"),
], ids=["NaN", "Infinity", "-Infinity", "NaN penalty", "5000-digit card", "5000-digit penalty",
        "5000-digit deck", "line and column", "BOM then not JSON", "// comment",
        "/* comment */"])
def test_json_numbers_and_errors(text, word):
    assert_input_error(run(["show", "-"], text), word)


@pytest.mark.parametrize("card, word", [("1_0", "'1_0'"), ("\u0667", "'\u0667'"),
                                        ("\uff17", "'\uff17'"), ("+-7", "'+-7'"),
                                        ("+7", "'+7'")],
                         ids=["underscore", "Arabic-Indic", "full-width", "two signs", "plus"])
def test_notation_cards_are_ascii_digits(card, word):
    assert_input_error(run(["show", "-"], f"24; 3 10, {card}, 12 15 18, 21; 1 2 4, 5 6 8"),
                       f"card {word} is not an integer")


def test_a_huge_card_in_the_notation_is_out_of_range():
    text = f"24; 3 10, {NUMBER_5000}, 12 15 18, 21; 1 2 4, 5 6 8"
    assert_input_error(run(["show", "-"], text), "card 9999", "outside 1..24")


@pytest.mark.parametrize("number", ["1e400", NUMBER_5000, f"[-{NUMBER_5000}]"],
                         ids=["1e400", "5000 digits", "minus 5000 digits"])
def test_a_huge_number_in_an_optional_key_is_read_but_not_written_back(number):
    text = with_key()[:-1] + f', "description": {number}}}'
    shown = run(["show", "-"], text)
    assert shown.exit_code == 0 and shown.stderr == "" and "row 0" in shown.stdout
    assert_input_error(run(["show", "-", "--as", "json"], text), "an optional key holds")


def test_a_byte_order_mark_is_skipped(tmp_path):
    path = tmp_path / "bom.json"
    path.write_text("\ufeff" + json.dumps(GOOD), encoding="utf-8")
    out = run(["show", str(path), "--as", "json"])
    assert out.exit_code == 0 and json.loads(out.stdout) == GOOD
    record = tmp_path / "record.json"
    record.write_text("\ufeff" + json.dumps(RECORD), encoding="utf-8")
    replayed = run(["replay", str(record)])
    assert replayed.exit_code == 0
    assert replayed.stdout == run(["replay", "-"], json.dumps(RECORD)).stdout


def test_show_refuses_a_missing_file(tmp_path):
    assert_input_error(run(["show", str(tmp_path / "nope.json")]), "nope.json")


def test_show_refuses_a_directory(tmp_path):
    assert_input_error(run(["show", str(tmp_path)]))


def test_show_renders_a_file_in_json_or_text(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(GOOD))
    out = run(["show", str(path)])
    assert out.exit_code == 0
    assert "row 2 | 12 15 18" in out.stdout and "4 bullheads" in out.stdout
    text = run(["show", "-"], "24; 3 10, 7, 12 15 18, 21; 1 2 4, ?; 0 3")
    assert text.exit_code == 0 and " ?  ?  ?" in text.stdout and "P2 3" in text.stdout
    as_json = run(["show", "-", "--as", "json"], "24; 3 10, 7, 12 15 18, 21; 1 2 4, 5 6 8")
    assert json.loads(as_json.stdout) == GOOD


def test_show_prints_the_position_row_by_row(readme_example):
    out = run(["show", "-"], json.dumps(readme_example))
    assert out.exit_code == 0 and out.stderr == ""
    lines = out.stdout.splitlines()
    assert lines[0] == "deck 1..24, 2 players, 4 cards in hand"
    for r, row in enumerate(readme_example["rows"]):
        shown = re.fullmatch(rf"row {r} \|([\d ]+)\| (\d) cards? +(\d+) bullheads?( +FULL.*)?",
                             lines[2 + r])
        cards, length, bulls = shown.groups()[:3]
        assert [int(c) for c in cards.split()] == row
        assert (int(length), int(bulls)) == (len(row), row_bullheads(row))
    for k, hand in enumerate(readme_example["hands"]):
        shown = next(line for line in lines if line.startswith(f"  player {k + 1} "))
        assert [int(c) for c in shown.split()[2:]] == hand
    assert "penalties P1 8, P2 7" in lines


@pytest.mark.parametrize("args, word", [
    (["show"], "POSITION"),
    (["deal"], "--players"),
    (["deal", "--players", "1"], "1"),
    (["deal", "--players", "11"], "11"),
    (["deal", "--players", "2", "--variant", "5n"], "5n"),
    (["deal", "--players", "x"], "x"),
    (["tournament", "--players", "2", "--bots", "random,nobody"], "nobody"),
    (["tournament", "--players", "2", "--bots", "random", "--games", "0"], "0"),
    (["tournament", "-n", "2", "--bots", "random", "--games", "10000000000"], "10000000000"),
    (["tournament", "-n", "2", "--bots", "random", "--jobs", "65"], "65"),
    (["tournament", "-n", "2", "--bots", "random", "--threshold", "1000000000000"],
     "1000000000000"),
    (["play", "--threshold", "10001"], "10001"),
    (["play", "--bots", "nobody"], "nobody"),
    (["play", "-n", "2", "--bots", "greedy,safe"], "2 bots for the 1 other seat"),
    (["frobnicate"], "frobnicate"),
])
def test_usage_errors_are_one_line_and_status_2(args, word):
    assert_input_error(run(args), word)


@pytest.mark.parametrize("spec, words", [
    ("mcts:iterations=1000000000000000000000000000000", ["iterations", "got 1000000000000"]),
    ("mcts:iterations=1000000001", ["iterations", "1..1,000,000,000"]),
    ("mcts:seconds=inf", ["seconds", "got inf"]),
    ("mcts:seconds=1e300", ["seconds", "got 1e+300"]),
    ("mcts:seconds=nan", ["seconds", "got nan"]),
    ("mcts:seconds=-1", ["seconds must be more than 0", "got -1.0"]),
    ("mcts:iterations", ["option 'iterations' of bot 'mcts' needs a value",
                         "mcts:iterations=VALUE"]),
    ("mcts:iterations=50:seconds=1", ["not both"]),
    ("mcts:jobs=0", ["jobs", "got 0"]),
    ("mcts:jobs=-3", ["jobs", "got -3"]),
    ("mcts:jobs=100000", ["jobs", "1..64", "got 100000"]),
    ("mcts:c=nan", ["c must", "got nan"]),
    ("mcts:c=-1", ["c must", "got -1.0"]),
    ("mcts:c=inf", ["c must", "got inf"]),
    ("mcts:exact_max_cards=-1", ["exact_max_cards", "got -1"]),
    ("mcts:exact_max_cards=11", ["exact_max_cards", "got 11"]),
    ("mcts:exact=2", ["bad value '2' for option 'exact'"]),
    ("mcts:exact=abc", ["bad value 'abc' for option 'exact'"]),
    ("mcts:policy=", ["bad value '' for option 'policy'"]),
    ("net:weights=", ["bad value '' for option 'weights'"]),
    ("belief:others=", ["bad value '' for option 'others'"]),
    ("belief:others=net-v1.npz+", ["bad value 'net-v1.npz+' for option 'others'"]),
    ("nsearch:others=+sampler", ["bad value '+sampler' for option 'others'"]),
])
def test_bad_search_player_options_are_refused_in_one_line(spec, words):
    args = ["tournament", "-n", "2", "--bots", f"{spec},random", "--games", "1"]
    assert_input_error(run(args), *words)
    assert_input_error(run(["play", "-n", "2", "--bots", spec], "quit\n"), *words)


def test_help_works():
    for command in ([], ["show"], ["deal"], ["replay"], ["play"], ["tournament"]):
        result = run(command + ["--help"])
        assert result.exit_code == 0 and "Usage" in result.stdout


def test_deal_is_deterministic_and_valid():
    first = run(["deal", "--players", "3", "--seed", "5"])
    assert first.exit_code == 0
    assert first.stdout == run(["deal", "--players", "3", "--seed", "5"]).stdout
    position = Position.from_json(first.stdout)
    assert position.players == 3 and position.deck == 104 and position.hand_size == 10
    assert [len(r) for r in position.rows] == [1, 1, 1, 1] and position.penalties == (0, 0, 0)
    cards = [c for r in position.rows for c in r] + [c for h in position.hands for c in h]
    assert len(set(cards)) == 4 + 30 and all(1 <= c <= 104 for c in cards)


def test_deal_variant_deals_every_card():
    out = run(["deal", "--players", "2", "--variant", "10n+4", "--seed", "1"])
    position = Position.from_json(out.stdout)
    cards = [c for r in position.rows for c in r] + [c for h in position.hands for c in h]
    assert position.deck == 24 and sorted(cards) == list(range(1, 25))


def test_replay_json_prints_the_final_position():
    out = run(["replay", "-", "--json"], json.dumps(RECORD))
    assert out.exit_code == 0
    assert json.loads(out.stdout) == {
        "deck": 24, "rows": [[5, 14], [3, 12, 13], [17], [20]],
        "hands": [[1, 2, 4, 6, 7, 8, 9, 10], [15, 16, 18, 19, 21, 22, 23, 24]],
        "penalties": [5, 0]}


def test_replay_text_describes_each_turn():
    out = run(["replay", "-"], json.dumps(RECORD))
    assert out.exit_code == 0
    assert "turn 1: P1 3, P2 14 | P1 took row 1 [11] (5 bullheads)" in out.stdout
    assert "penalties P1 5, P2 0" in out.stdout
    final = replay(RECORD)                  # the table printed last is the rules' replay
    for r, row in enumerate(final.rows):
        assert re.search(rf"^row {r} \| *{' +'.join(map(str, row))} +\|", out.stdout, re.M)
    assert f"penalties P1 {final.penalties[0]}, P2 {final.penalties[1]}" in out.stdout


@pytest.mark.parametrize("turns, word", [
    ([{"cards": [4, 14]}, {"cards": [4, 13]}], "4"),
    ([{"cards": [12, 14], "row_choices": [2, None]}], "12"),
    ([{"cards": [3]}], "[3]"),
    ("nope", "list"),
])
def test_replay_refuses_bad_records(turns, word):
    record = dict(RECORD, turns=turns)
    assert_input_error(run(["replay", "-", "--json"], json.dumps(record)), word)


def test_replay_refuses_a_record_without_turns():
    record = {k: v for k, v in RECORD.items() if k != "turns"}
    assert_input_error(run(["replay", "-"], json.dumps(record)), "turns")


def test_tournament_json_is_deterministic():
    args = ["tournament", "--players", "3", "--bots", "random,greedy", "--games", "4",
            "--seed", "9", "--json"]
    first = run(args)
    assert first.exit_code == 0
    summary = json.loads(first.stdout)
    assert [b["name"] for b in summary["bots"]] == ["random", "greedy"]
    for bot in summary["bots"]:
        lo, hi = bot["ci95"]
        assert lo <= bot["mean_penalty_per_round"] <= hi and 0 <= bot["win_rate"] <= 1
    assert run(args).stdout == first.stdout


def test_tournament_table():
    args = ["tournament", "--players", "2", "--bots", "random,greedy", "--games", "2",
            "--seed", "4"]
    out = run(args)
    assert out.exit_code == 0 and "| greedy |" in out.stdout
    summary = json.loads(run(args + ["--json"]).stdout)        # the same games
    assert f"{summary['games']} games, {summary['rounds']} rounds, 2 players" in out.stdout
    for bot in summary["bots"]:
        lo, hi = bot["ci95"]
        row = (f"| {bot['name']} | {bot['seat_games']} | {bot['mean_penalty_per_round']:.2f} |"
               f" [{lo:.2f}, {hi:.2f}] | {bot['mean_score']:.1f} | {100 * bot['win_rate']:.1f}% |")
        assert row in out.stdout.splitlines()


def _cards_prompted(stdout):
    return stdout.count("your card?")


def test_play_against_bots_to_the_end():
    # answer every prompt with each possible number in turn: invalid answers are re-asked
    answers = "\n".join(str(n) for _ in range(40) for n in range(105)) + "\n"
    out = run(["play", "--players", "2", "--bots", "greedy", "--seed", "3"], answers)
    assert out.exit_code == 0, out.output
    assert "game over after" in out.stdout and "not possible" in out.stdout
    rounds = re.findall(r"round (\d+) over: you \+(\d+) = (\d+), greedy-2 \+(\d+) = (\d+)",
                        out.stdout)
    assert [int(r[0]) for r in rounds] == list(range(1, len(rounds) + 1))
    totals = (0, 0)
    for _, gain1, total1, gain2, total2 in rounds:     # each round adds its penalties
        assert (int(total1), int(total2)) == (totals[0] + int(gain1), totals[1] + int(gain2))
        assert max(totals) < 66                         # the game went on: no one had 66
        totals = (int(total1), int(total2))
    assert max(totals) >= 66                            # the default threshold ends it
    winner = "you" if totals[0] < totals[1] else "greedy-2"
    assert f"game over after {len(rounds)} rounds: {winner} wins" in out.stdout
    # a round's penalties are the bullheads of the cards each player took in its turns
    played = re.split(r"^round \d+ over: .*$", out.stdout, flags=re.M)[:len(rounds)]
    for turns, (_, gain1, _, gain2, _) in zip(played, rounds):
        taken = {"you": 0, "greedy-2": 0}
        for who, cards, bulls in re.findall(
                r"\| (you|greedy-2) took (?:row \d )?\[([\d, ]+)\] \((\d+) bullheads?\)", turns):
            assert int(bulls) == row_bullheads([int(c) for c in cards.split(", ")])
            taken[who] += int(bulls)
        assert (taken["you"], taken["greedy-2"]) == (int(gain1), int(gain2))


def test_play_end_of_input_is_a_clean_error():
    out = run(["play", "--players", "3", "--seed", "1"], "x\n")
    assert out.exit_code == 4
    assert out.stderr.strip() == "nimmt: error: end of input: game abandoned"
    assert "Traceback" not in out.output


def test_play_asks_again_after_answers_int_cannot_read():
    # '²' is a digit to str.isdigit but not to int(), nor are 5,000 digits
    # (nor are other scripts' digits such as '٥' cards, though int() reads them as 5)
    out = run(["play", "--players", "2", "--seed", "1"],
              "²\n" + "5" * 5000 + "\n\u0665\nquit\n")
    assert out.exit_code == 0, out.stderr
    assert out.stdout.count("is not possible") == 3 and "game abandoned" in out.stdout


def test_play_echoes_a_bad_answer_as_typed_and_short():
    out = run(["play", "--players", "2", "--seed", "1"], "Seven\n" + "9" * 100_000 + "\nquit\n")
    assert out.exit_code == 0, out.stderr
    assert "'Seven' is not possible" in out.stdout
    assert "'9999" in out.stdout and len(max(out.stdout.splitlines(), key=len)) < 200


def test_play_hints_are_the_belief_bot_s_choices():
    """`hint` at the card prompt: the card `belief` plays from your view and its first
    choices; at the row prompt: its row and each row's estimate. The same seed and answers,
    the same hints."""
    answers = "hint\n3\nhint\nquit\n"
    out = run(["play", "--players", "3", "--bots", "sampler", "--seed", "1"], answers)
    assert out.exit_code == 0, out.stderr
    card, first, row = re.findall(r"hint: belief would play (\d+), the least score \(the"
                                  r" bullheads a card is expected to cost you to the end of the"
                                  r" round, plus the policy's prior\); its first choices (\d+)"
                                  r" \(bullheads [\d.]+, policy \d+%\), .*\n.*"
                                  r"hint: belief would take row (\d), expecting you to take to"
                                  r" the end of the round [\d.]+ \(row 0\), [\d.]+ \(row 1\),"
                                  r" [\d.]+ \(row 2\), [\d.]+ \(row 3\)\n", out.stdout, re.S)[0]
    assert card == first and int(card) in (3, 7, 13, 48, 66, 76, 78, 87, 89, 90)
    assert "your 3 is lower than every row end" in out.stdout and 0 <= int(row) <= 3
    assert out.stdout == run(["play", "--players", "3", "--bots", "sampler", "--seed", "1"],
                             answers).stdout


def test_a_row_hint_in_the_exact_range_is_the_exact_row():
    """In the 24-card game from 7 cards the row hint is the exact solver's, said so: player
    2's 2 against 17 takes row 3 (6 bullheads), not the cheapest row 1 (README's example)."""
    import dataclasses
    from solver.advice import position_view
    from solver.cli.play import TerminalPlayer
    data = json.loads((POSITIONS_DIR / "example.json").read_text())
    seen = {c for row in data["rows"] for c in row} | {c for h in data["hands"] for c in h}
    data["played"] = sorted(set(range(1, 25)) - seen)
    view = position_view(Position.from_dict(data), 1)
    asked = dataclasses.replace(view, hand=(5, 7, 18), revealed=(17, 2))
    assert TerminalPlayer._row_hint(asked, 2) == "hint: the exact solver takes row 3"


def test_play_the_2_player_24_card_game_against_the_search_player():
    """In the 24-card game every card is dealt: the other hand is shown, the default bot is
    the search player (exact from 7 cards) and a hint from 7 cards is the exact equilibrium."""
    answers = "20\n0\n18\n0\n17\n0\nhint\nquit\n"
    out = run(["play", "-n", "2", "--variant", "10n+4", "--seed", "3"], answers)
    assert out.exit_code == 0, out.stderr
    assert "mcts-2              2  3  4  8 13 14 16 19 21 24" in out.stdout
    hint = re.findall(r"turn 4, your card\?   hint: the exact equilibrium plays (.*)", out.stdout)
    assert hint and all(re.fullmatch(r"\d+ \(\d+%\)", part) for part in hint[0].split(", "))


def test_play_quit():
    out = run(["play", "--players", "2", "--seed", "1"], "quit\n")
    assert out.exit_code == 0 and "game abandoned" in out.stdout


def test_render_marks_full_rows_and_hidden_hands():
    from solver.text.render import render_position
    position = Position.from_text("104; 3 10 55 60 61, 7, 12 15 18, 21; 1 2 4, ?; 0 7")
    text = render_position(position, you=0, scores=[10, 20])
    row0 = text.splitlines()[2]
    assert row0.startswith("row 0 |  3 10 55 60 61") and "15 bullheads" in row0 and "FULL" in row0
    assert "FULL" not in text.splitlines()[3]
    assert "player 1 (you)" in text and " ?  ?  ?" in text
    assert "penalties P1 0, P2 7" in text and "scores    P1 10, P2 20" in text


@pytest.mark.parametrize("args", [["deal", "-n", "2", "--seed", "-1"],
                                  ["tournament", "-n", "2", "--bots", "random", "--seed", "-3"]])
def test_a_negative_seed_is_refused(args):
    """Python's generators take -S as S: a negative seed would silently repeat a positive one."""
    assert_input_error(run(args), "--seed", "-")


def test_an_output_file_of_another_kind_is_kept(tmp_path):
    mine = tmp_path / "mine.jsonl"
    mine.write_text("important\n")
    assert_input_error(run(["deal", "--count", "2", "--cards", "3", "--out", str(mine)]),
                       "is not a file of positions", "not overwritten")
    assert mine.read_text() == "important\n"
    records = tmp_path / "rounds.jsonl"              # a position with its turns: no deal
    records.write_text('{"deck": 24, "rows": [[3], [7], [12], [21]], "hands": [[1], [5]],'
                       ' "turns": []}\n')
    assert_input_error(run(["deal", "--count", "2", "--cards", "3", "--out", str(records)]),
                       "not overwritten")
    deals = tmp_path / "deals.jsonl"
    for count in ("2", "3"):                      # a deal file is replaced by a new one
        assert run(["deal", "--count", count, "--cards", "3", "--out", str(deals)]).exit_code == 0
    assert len(deals.read_text().splitlines()) == 3
    graph = tmp_path / "tree.graphml"
    graph.write_text("<graphml>my own</graphml>")
    position = "24; 3 10, 7, 12 15 18, 21; 1 2 4, 5 6 8"
    assert_input_error(run(["solve", position, "--graph", str(graph)]), "not a graph of")
    assert graph.read_text() == "<graphml>my own</graphml>"
    for name in ("tree2.graphml", "tree.dot"):    # a graph of its own is replaced
        for _ in range(2):
            assert run(["solve", position, "--graph", str(tmp_path / name)]).exit_code == 0


def test_an_output_name_ending_with_a_slash_is_refused(tmp_path):
    assert_input_error(run(["deal", "--count", "2", "--out", str(tmp_path / "new") + "/"]),
                       "ends with a slash")
    assert not (tmp_path / "new").exists()


def test_words_a_player_reads():
    """A hidden hand quoted in JSON is told how to write it; a mistyped bot or bot option
    gets a suggestion; counts of one are singular."""
    assert_input_error(run(["show", "-"], '{"deck": 24, "rows": [[3], [7], [12], [21]],'
                                          ' "hands": [[1, 2], "?"]}'),
                       'hand of player 2 is "?": a hidden hand is written null')
    assert_input_error(run(["tournament", "-n", "3", "--bots", "belif", "--games", "1"]),
                       "unknown bot 'belif' (did you mean 'belief'?")
    assert_input_error(run(["tournament", "-n", "3", "--bots", "mcts:iteration=5"]),
                       "(did you mean 'iterations'?")
    out = run(["tournament", "-n", "3", "--bots", "greedy", "--games", "1", "--seed", "1"])
    assert out.stdout.startswith("1 game, 5 rounds,")


def test_show_displays_what_the_position_holds_and_says_what_text_leaves_out():
    data = json.dumps({"deck": 24, "rows": [[3, 10], [7], [12, 15, 18], [21]],
                       "hands": [[1, 2, 4], None], "played": [9, 11, 13], "scores": [12, 40]})
    table = run(["show", "-", "--as", "table"], data).stdout
    assert "out of play 9 11 13" in table and "scores    P1 12, P2 40" in table
    text = run(["show", "-", "--as", "text"], data)
    assert text.stdout.strip() == "24; 3 10, 7, 12 15 18, 21; 1 2 4, ?; 0 0"
    assert "the text notation has no played, scores: left out" in text.stderr


def test_replay_stops_after_the_turns_asked():
    record = str(POSITIONS_DIR / "records" / "six_turns.json")
    two = run(["replay", record, "--turns", "2"]).stdout
    assert "turn 2:" in two and "turn 3:" not in two
    after = json.loads(run(["replay", record, "--turns", "2", "--json"]).stdout)
    assert len(after["hands"][0]) == 8
    assert run(["replay", record, "--turns", "0", "--json"]).stdout.startswith('{"deck": 24')
    assert_input_error(run(["replay", record, "--turns", "9"]),
                       "--turns 9: the record has 6 turns")


def test_deal_as_one_player_sees_it():
    seen = json.loads(run(["deal", "-n", "4", "--seed", "7", "--viewer", "2"]).stdout)
    whole = json.loads(run(["deal", "-n", "4", "--seed", "7"]).stdout)
    assert seen["viewer"] == 2 and seen["hands"][1] == whole["hands"][1]
    assert [h is None for h in seen["hands"]] == [True, False, True, True]
    assert_input_error(run(["deal", "-n", "2", "--viewer", "3"]), "the deal has 2 players")
    assert_input_error(run(["deal", "--count", "2", "--viewer", "1"]), "not with --count")
