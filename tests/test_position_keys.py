"""The keys of a position: a misspelt key refused (naming the key it misspells), other keys
kept as notes, the optional
keys validated when the position is read, and a game record refused where a position is
expected (solve, show; best takes one), with the command that gives the position after its
turns."""
import json

import pytest
from solver import errors
from solver.core.position import Position
from solver.reading import load_position
from tests.support import RECORD_EXAMPLE as RECORD, error_line as one_line_error, run

GOOD = {"deck": 24, "rows": [[3, 10], [7], [12, 15, 18], [21]],
        "hands": [[1, 2, 4], [5, 6, 8]], "penalties": [0, 0]}
HIDDEN = {"deck": 104, "rows": [[20], [92], [65], [103]], "hands": [[5, 10, 11], None, None]}


def with_keys(base=GOOD, **changes):
    data = json.loads(json.dumps(base))
    data.update(changes)
    return data




# unknown keys ------------------------------------------------------------------------------
@pytest.mark.parametrize("key, closest", [("penalty", "penalties"), ("veiwer", "viewer"),
                                          ("hand", "hands"), ("Deck", "deck"),
                                          ("to-move", "to_move"), ("player", "played")])
def test_a_misspelt_key_is_refused_naming_the_key_it_misspells(key, closest):
    data = with_keys(**{key: 1})
    data.pop(closest, None)
    with pytest.raises(errors.UnknownKeyError) as caught:
        Position.from_dict(data)
    message = str(caught.value)
    assert f'unknown key "{key}"' in message and f'did you mean "{closest}"?' in message
    for allowed in ("deck", "rows", "hands", "penalties", "played", "scores", "viewer",
                    "to_move"):
        assert allowed in message


@pytest.mark.parametrize("key", ["turn", "Turns", "trns", "moves"])
def test_a_record_s_turns_misspelt_are_not_read_as_a_position(key):
    """A record whose "turns" is misspelt would be the position at the round's start: refused,
    with the key it misspells."""
    data = dict(RECORD)
    data[key] = data.pop("turns")
    with pytest.raises(errors.UnknownKeyError, match=f'unknown key "{key}" in position \\(did'
                                                     ' you mean "turns", the turns of a game'):
        Position.from_dict(data)


@pytest.mark.parametrize("notes", [{"note": "x"}, {"comment": [1, {"a": None}]},
                                   {"engine": "another", "id": 7}, {"values": 1.5},
                                   {"strategy": []}, {"Rows": 1}, {"penalty": [1, 0]},
                                   {"x" * 10_000: 1}])
def test_other_keys_are_notes_kept_and_not_read(notes):
    """The format lets a file add keys: any key that misspells no missing key is accepted,
    kept for the round trip, and changes nothing ("penalty" beside "penalties" too)."""
    position = Position.from_dict(with_keys(**notes))
    assert position == Position.from_dict(GOOD)
    assert json.loads(position.to_json()) == with_keys(**notes)


def test_a_misspelt_key_is_one_line_on_the_command_line():
    data = with_keys(penalty=[3, 0])
    del data["penalties"]
    line = one_line_error(run(["show", "-"], json.dumps(data)))
    assert '"penalty"' in line and '"penalties"' in line


def test_the_spec_keys_alone_and_the_optional_keys_are_accepted():
    assert Position.from_dict(GOOD).extra == {}
    data = with_keys(played=[9, 11], scores=[10, 0], viewer=2, to_move=2)
    position = Position.from_dict(data)
    assert position.extra == {"played": [9, 11], "scores": [10, 0], "viewer": 2, "to_move": 2}
    assert json.loads(position.to_json()) == data


@pytest.mark.parametrize("key", ["penalties", "rows", "turns"])
def test_create_refuses_a_key_of_the_position_itself_as_an_extra_key(key):
    with pytest.raises(errors.UnknownKeyError, match=f'"{key}"'):
        Position.create(GOOD["rows"], GOOD["hands"], deck=24, extra={key: [0, 0]})


# optional keys validated at load time -------------------------------------------------------
@pytest.mark.parametrize("changes, words", [
    ({"scores": [1]}, ["scores", "2 integers", "[1]"]),
    ({"scores": 5}, ["scores", "got 5"]),
    ({"scores": [1, -2]}, ["score -2", "negative"]),
    ({"scores": [1, 2.5]}, ["score 2.5", "not an integer"]),
    ({"scores": [1, True]}, ["score true", "not an integer"]),
    ({"viewer": 3}, ["viewer", "1..2", "got 3"]),
    ({"viewer": 0}, ["viewer", "1..2", "got 0"]),
    ({"viewer": "1"}, ["viewer", 'got "1"']),
    ({"to_move": True}, ["to_move", "viewer", "got true"]),
    ({"viewer": 1, "to_move": 2}, ["viewer 1", "to_move 2"]),
], ids=["scores short", "scores not a list", "negative score", "float score", "bool score",
        "viewer too high", "viewer 0", "viewer a string", "to_move bool", "disagree"])
def test_bad_optional_values_are_refused_when_read(changes, words):
    with pytest.raises(errors.PositionError) as caught:
        Position.from_dict(with_keys(**changes))
    for word in words:
        assert word in str(caught.value)


def test_the_viewer_hand_must_be_visible_at_load_time():
    with pytest.raises(errors.PositionError, match="player 2"):
        Position.from_dict(with_keys(HIDDEN, viewer=2))
    line = one_line_error(run(["show", "-"], json.dumps(with_keys(HIDDEN, to_move=3))))
    assert "player 3" in line and "visible" in line
    assert Position.from_dict(with_keys(HIDDEN, to_move=1)).viewer_seat == 0


# a game record where a position is expected ---------------------------------------------
@pytest.mark.parametrize("command", ["solve", "show"])
def test_a_record_file_is_refused_with_the_replay_command(command, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(RECORD))
    line = one_line_error(run([command, str(path)]))
    assert f"'{path}' is a game record" in line and '"turns"' in line
    assert f"nimmt replay {path} --json" in line


def test_a_record_on_stdin_or_inline_is_refused():
    assert "nimmt replay - --json" in one_line_error(run(["solve", "-"], json.dumps(RECORD)))
    line = one_line_error(run(["show", json.dumps(RECORD)]))
    assert "game record" in line and "nimmt replay" in line


def test_a_record_file_name_with_a_space_is_quoted_for_the_shell(tmp_path):
    path = tmp_path / "my game.json"
    path.write_text(json.dumps(RECORD))
    with pytest.raises(errors.RecordGivenError, match="nimmt replay '.*my game.json' --json"):
        load_position(str(path))


def test_from_dict_refuses_a_record():
    with pytest.raises(errors.RecordGivenError, match='"turns"'):
        Position.from_dict(RECORD)


def test_the_position_after_the_turns_is_accepted(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(RECORD))
    final = run(["replay", str(path), "--json"])
    assert final.exit_code == 0
    assert run(["show", "-"], final.stdout).exit_code == 0


def test_the_curated_positions_keep_their_notes():
    position = load_position("positions/example.json")
    assert {"description", "value", "strategies"} <= set(position.extra)
    with open("positions/example.json", encoding="utf-8") as handle:
        assert json.loads(position.to_json()) == json.load(handle)


def test_an_optional_key_given_null_is_as_if_absent():
    data = with_keys(penalties=None, played=None, viewer=None, to_move=None, scores=None)
    position = Position.from_dict(data)
    assert position == Position.from_dict(GOOD) and position.extra == {}
    assert json.loads(position.to_json()) == GOOD
