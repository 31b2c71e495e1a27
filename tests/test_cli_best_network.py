"""`nimmt best` on hidden hands by the network search (`belief`, the default): JSON shape,
the bot's own card, determinism for a seed, which player answers when, and refused options;
the view a position without history gives the networks, and a game record's."""
import json
import random

import numpy as np
import pytest

from solver.advice import advise, position_view
from solver.core.deal import deal
from solver.core.player import PlayerView
from solver.core.position import Position
from solver.core.record import record_view, replay_steps
from solver.core.rules import GameConfig
from solver.learn.features import raw_views
from solver.play.bots import make_bot
from tests.support import POSITIONS_DIR, assert_input_error, run

FOUR_PLAYERS = "104; 20, 92, 65, 103; 5 10 11 21 24 37 40 53 85 101, ?, ?, ?; 0 0 0 0"
HAND = [5, 10, 11, 21, 24, 37, 40, 53, 85, 101]


def best_json(position, *options):
    result = run(["best", "-", "--json", *options], position)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_default_is_the_belief_bot_and_plays_its_card():
    data = best_json(FOUR_PLAYERS)
    assert (data["method"], data["player"], data["viewer"], data["seed"]) == \
        ("network", "belief", 1, 0)
    assert (data["worlds"], data["candidates"]) == (16, 96)
    cards = data["cards"]
    assert sorted(c["card"] for c in cards) == HAND
    scores = [c["score"] for c in cards]
    assert scores == sorted(scores) and data["play"] == cards[0]["card"]
    for c in cards:
        lo, hi = c["ci95"]
        assert lo <= c["expected_bullheads"] <= hi
        assert 0 < c["probability"] <= 1
        # the score is the expectation plus the prior's 2 bullheads a nat of surprise (the
        # probability is written to 6 decimals: its rounding moves the log by up to 5e-7 / p)
        assert c["score"] == pytest.approx(c["expected_bullheads"] - 2 * np.log(c["probability"]),
                                           abs=1e-4 + 1e-6 / c["probability"])
    assert sum(c["probability"] for c in cards) == pytest.approx(1, abs=1e-5)
    # the same card as the bot itself on the same view and seed
    position = Position.from_text(FOUR_PLAYERS)
    assert make_bot("belief", 0).choose_card(position_view(position, 0)) == data["play"]


def test_deterministic_for_a_seed():
    def answer(seed):
        data = best_json(FOUR_PLAYERS, "--seed", seed)
        return data["play"], data["cards"]

    assert answer("4") == answer("4")
    assert answer("4") != answer("5")


def test_belief_is_nsearch_with_its_settings():
    spec = ("nsearch:value=playout:others=net-v1.npz+net-v3.npz:depth=2:worlds=16:belief=96"
            ":confident=0.9")
    position = Position.from_text(FOUR_PLAYERS)
    view = position_view(position, 0)
    assert make_bot("belief", 3).choose_card(view) == make_bot(spec, 3).choose_card(view)
    a = advise(position, seed=2, player="belief:worlds=4")
    b = advise(position, seed=2, player="nsearch:value=playout:others=net-v1.npz+net-v3.npz:"
                                        "depth=2:worlds=4:belief=96")
    assert a["cards"] == b["cards"] and a["worlds"] == 4


@pytest.mark.parametrize("options, method", [
    ((), "network"), (("--bot", "belief:worlds=4"), "network"),
    (("--bot", "nsearch:worlds=4"), "network"), (("--bot", "mcts"), "search"),
    (("--iterations", "500"), "search"), (("--jobs", "1", "--iterations", "500"), "search"),
])
def test_which_player_answers(options, method):
    assert best_json(FOUR_PLAYERS, *options)["method"] == method


def test_a_visible_other_hand_goes_to_the_search_player():
    three = "104; 20, 92, 65, 103; 5 10 11, 1 2 3, ?; 0 0 0"
    assert best_json(three, "--iterations", "300")["method"] == "search"
    assert best_json(three)["method"] == "search"
    assert_input_error(run(["best", "-", "--bot", "belief"], three), "sees only", "mcts")


def test_the_last_card_and_the_text():
    data = best_json("104; 20, 92, 65, 103; 55, ?, ?; 0 0 0")
    assert data["play"] == 55 and data["cards"] == []
    result = run(["best", "-"], FOUR_PLAYERS)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "Player 1: play 21 (the least score)" and lines[1].startswith("belief: 16")
    assert len(lines) == 4 + len(HAND)


@pytest.mark.parametrize("options, words", [
    (("--bot", "net"), ["'net'", "belief, nsearch or mcts"]),
    (("--bot", "belief:worlds=0"), ["worlds"]),
    (("--bot", "nobot"), ["unknown bot"]),
    (("--bot", "belief", "--iterations", "100"), ["--iterations", "--bot mcts", "--seconds"]),
    (("--bot", "nsearch", "--iterations", "9", "--jobs", "2"), ["--iterations, --jobs"]),
    (("--bot", "belief:seconds=1", "--seconds", "2"), ["time budget given twice", "seconds="]),
])
def test_refused_options(options, words):
    assert_input_error(run(["best", "-", *options], FOUR_PLAYERS), *words)


def test_the_bot_option_is_refused_on_an_exact_position():
    assert_input_error(run(["best", "positions/example.json", "--bot", "belief"]), "--bot",
                       "exact solver")


def test_position_view_sees_what_the_game_view_sees():
    """At the start of a round (no history), the view built from a position equals the
    runner's: the same network inputs; cards out of play count as seen."""
    config = GameConfig(players=4)
    dealt = deal(config, random.Random(3))
    hands = [list(dealt.hands[0]), None, None, None]
    position = Position.create([list(r) for r in dealt.rows], hands, [0, 0, 0, 0])
    view = position_view(position, 0)
    rows = tuple(tuple(r) for r in dealt.rows)
    game = PlayerView(config, 0, rows, tuple(dealt.hands[0]), rows, (), (0,) * 4, (), 0)
    for a, b in zip(raw_views([view]).arrays().values(), raw_views([game]).arrays().values()):
        assert np.array_equal(a, b)
    assert view.unseen() == [c for c in range(1, 105)
                             if c not in dealt.hands[0] and all(c not in r for r in dealt.rows)]
    gone = view.unseen()[:2]
    out = Position.from_dict({**position.to_dict(), "played": gone})
    seen = raw_views([position_view(out, 0)]).seen[0]
    assert all(seen[c] for c in out.played) and not any(c in position_view(out, 0).unseen()
                                                        for c in out.played)
    assert not raw_views([view]).seen[0][list(out.played)].any()


# a game record: the view of the round so far -----------------------------------------------
SEEN_BY_1 = POSITIONS_DIR / "records" / "four_players_seen_by_1.json"


def test_a_record_gives_the_belief_bot_its_earlier_turns():
    """best on a record (the other hands hidden) advises the position after its turns with
    the viewer's view of them: the bot's own card on that view, deals weighed by 5 turns,
    estimates that differ from the same position given without its history."""
    data = json.loads(run(["best", str(SEEN_BY_1), "--json"]).stdout)
    record = json.loads(SEEN_BY_1.read_text())
    start, outcomes = replay_steps(record)
    after, view = outcomes[-1].position, record_view(start, outcomes)
    assert data["turns_known"] == 5 == len(view.played)
    assert data["position"] == after.to_text()
    assert make_bot("belief", 0).choose_card(view) == data["play"]
    assert data == dict(advise(after, view=view), seconds=data["seconds"])
    without = best_json(after.to_json())
    assert without["turns_known"] == 0
    assert without["position"] == data["position"]
    assert [c["expected_bullheads"] for c in without["cards"]] != \
        [c["expected_bullheads"] for c in data["cards"]]
    text = run(["best", str(SEEN_BY_1)]).stdout
    assert "drawn from 96 by how well they explain the 5 earlier turns" in text
    # few likely deals make wide intervals: their low ends stop at 0 bullheads, the high
    # ends do not move (seed 1 draws such deals here)
    assert all(c["ci95"][0] >= 0 for c in data["cards"])
    wide = advise(after, view=view, seed=1)["cards"][0]
    assert wide["ci95"][0] == 0 < wide["expected_bullheads"]
    assert wide["ci95"][1] - wide["expected_bullheads"] > wide["expected_bullheads"]
    relative = advise(after, view=view, player="belief:reward=relative", seed=1)
    assert any(c["ci95"][0] < 0 for c in relative["cards"])


def untimed(data):
    """The JSON without its "seconds" (wherever they are): what a run's timing cannot change."""
    if isinstance(data, dict):
        return {k: untimed(v) for k, v in data.items() if k != "seconds"}
    if isinstance(data, list):
        return [untimed(v) for v in data]
    return data


def test_other_methods_take_the_position_after_the_record():
    exact = POSITIONS_DIR / "records" / "six_turns.json"
    after = run(["replay", str(exact), "--json"]).stdout
    assert untimed(json.loads(run(["best", str(exact), "--json"]).stdout)) == \
        untimed(best_json(after))
    after = run(["replay", str(SEEN_BY_1), "--json"]).stdout
    options = ["--bot", "mcts", "--iterations", "2000"]
    assert untimed(json.loads(run(["best", str(SEEN_BY_1), "--json", *options]).stdout)) == \
        untimed(best_json(after, *options))


@pytest.mark.parametrize("change, words", [
    (lambda r: r["turns"][1]["cards"].__setitem__(1, 90), "90, which is in row 3"),
    (lambda r: r.update(viewer=2), "viewer's hand (player 2) must be visible"),
    (lambda r: r["turns"].append({"cards": [21, 1, 2]}), "list of 4 cards"),
])
def test_bad_records_are_refused(change, words):
    record = json.loads(SEEN_BY_1.read_text())
    change(record)
    assert_input_error(run(["best", "-"], json.dumps(record)), words)


def test_the_row_to_take_once_the_turn_s_cards_are_revealed():
    """`--revealed`: the bot's row choice from the viewer's view with this turn's cards
    shown; the same as the bot asked at a table."""
    from dataclasses import replace
    out = run(["best", FOUR_PLAYERS, "--revealed", "5 33 70 104", "--json"])
    assert out.exit_code == 0, out.stderr
    advice = json.loads(out.stdout)
    view = replace(position_view(Position.from_text(FOUR_PLAYERS), 0),
                   hand=tuple(HAND[1:]), revealed=(5, 33, 70, 104))
    assert advice["row"] == make_bot("belief", 0).choose_row(view, 5)
    assert advice["card"] == 5 and advice["row_bullheads"] == [3, 1, 2, 1]
    # belief searches the rows: each row's estimate, the row the least
    searched = make_bot("belief", 0)
    searched.choose_row(view, 5)
    assert advice["row_estimates"] == pytest.approx(searched.last_rows)
    assert advice["row"] == min(range(4), key=lambda r: advice["row_estimates"][r])
    out = run(["best", FOUR_PLAYERS, "--revealed", "5 33 70 104", "--json", "--bot",
               "belief:rows=greedy"])
    assert json.loads(out.stdout)["row_estimates"] is None     # a rule: no estimates
    text = run(["best", FOUR_PLAYERS, "--revealed", "5,33,70,104", "--bot", "mcts"]).stdout
    assert text.startswith("Player 1: take row ") and "mcts's choice" in text
    assert "expected bullheads" not in text
    for cards, words in [("5 33 70", "3 cards for 4 players"),
                         ("21 33 70 104", "no card of [21, 33, 70, 104] is lower than"),
                         ("101 33 70 6", "player 1's 101 is not lower than every row end"),
                         ("6 33 70 104", "card 6 is not in their hand"),
                         ("5 20 70 104", "player 2's 20 is seen"),
                         ("5 33 33 104", "given twice"),
                         ("5 30 41 0", "card 0 is outside 1..104"),
                         ("a b c d", "cards as numbers")]:
        assert_input_error(run(["best", FOUR_PLAYERS, "--revealed", cards]), words)
    shown = FOUR_PLAYERS.replace("101, ?,", "101, 1 2 3 4 6 7 8 9 12 13,")   # player 2's
    for cards, words in [("5 33 70 104", "player 2's card 33 is not in their hand"),
                         ("5 6 7 104", "player 3's 7 is seen")]:
        assert_input_error(run(["best", shown, "--revealed", cards]), words)
    assert_input_error(run(["best", FOUR_PLAYERS, "--revealed", "5 33 70 104", "--seconds",
                            "1"]), "--seconds cannot be used with --revealed")


def test_the_exact_row_once_the_turn_s_cards_are_revealed():
    """`--revealed` on 2 known hands (one deduced here): the owner of the too-low card takes
    the row of the best exact entry, whatever card the other played, each entry this turn's
    bullheads plus the solved rest of the round."""
    from solver import solve
    from solver.core.turn import Turn, apply_turn
    hidden = ('{"deck": 24, "rows": [[5,10,11,16,22],[15,18,20,23,24],[2,9],[3,4,8]],'
              ' "hands": [[1,6,14], null], "penalties": [1,2], "played": [7,13,19]}')
    position, _ = Position.from_json(hidden).deduced()
    example = (POSITIONS_DIR / "example.json").read_text()
    for source, cards in ((hidden, [1, 12]), (example, [17, 2]), (example, [6, 2])):
        if source != hidden:
            position = Position.from_json(source)
        advice = best_json(source, "--revealed", " ".join(map(str, cards)))
        owner = cards.index(min(cards))
        values = []
        for row in range(4):
            choices = [row if k == owner else None for k in range(2)]
            after = apply_turn(position, Turn.of(cards, choices))
            taken = [a - b for a, b in zip(after.position.penalties, position.penalties)]
            values.append(taken[1] - taken[0] + solve(after.position).value)
        assert advice["row_values"] == pytest.approx(values)
        best = max(values) if owner == 0 else min(values)
        assert values[advice["row"]] == pytest.approx(best)
        assert (advice["method"], advice["viewer"], advice["card"]) == ("exact_row", owner + 1,
                                                                       min(cards))
    text = run(["best", str(POSITIONS_DIR / "example.json"), "--revealed", "17 2"]).stdout
    assert text.startswith("Player 2: take row 3 (6 bullheads) with your 2, lower than every"
                           " row end, not the cheapest row 1 (1 bullhead), which costs 2.00")
    example = str(POSITIONS_DIR / "example.json")
    for options, words in [(["--revealed", "17 3"], "player 2's card 3 is not in their hand"),
                           (["--revealed", "17 2", "--seed", "1"], "--seed cannot be used"),
                           (["--revealed", "17 2", "--bot", "mcts"], "--bot cannot be used")]:
        assert_input_error(run(["best", example, *options]), words)


@pytest.mark.parametrize("key", ["penalties", "scores"])
def test_penalties_and_scores_past_the_networks_int16_are_advised(key):
    """The networks' raw arrays hold them in int16; a position may give up to 1,000,000."""
    position = json.loads(Position.from_text(FOUR_PLAYERS).to_json())
    position[key] = [1_000_000, 32_768, 0, 5]
    assert best_json(json.dumps(position))["play"] in HAND


def test_a_round_of_a_games_file_turns_and_viewer(tmp_path):
    """`best FILE --round N --turns T --viewer K`: the advice for the record cut to T turns,
    every hand but K's hidden, as if that record had been given."""
    games = tmp_path / "games.jsonl"
    out = run(["tournament", "-n", "4", "--bots", "greedy,random", "--games", "1", "--seed",
               "3", "--out", str(games)])
    assert out.exit_code == 0, out.stderr
    record = json.loads(games.read_text().splitlines()[1])["records"][1]
    assert all(hand is not None for hand in record["hands"])
    cut = dict(record, turns=record["turns"][:4], viewer=2,
               hands=[h if k == 1 else None for k, h in enumerate(record["hands"])])
    # the search player deals the unseen cards: those taken with rows must not be among them
    for bot in ([], ["--bot", "mcts", "--iterations", "2000"]):
        picked = run(["best", str(games), "--round", "2", "--turns", "4", "--viewer", "2",
                      "--json", *bot])
        assert picked.exit_code == 0, picked.stderr
        advice, expected = json.loads(picked.stdout), best_json(json.dumps(cut), *bot)
        advice.pop("seconds"), expected.pop("seconds")
        assert advice == expected and advice["viewer"] == 2
    for options, words in [([], ["holds 3 rounds: pick one with --round N (1..3)"]),
                           (["--round", "4"], ["holds 3 rounds"]),
                           (["--round", "1", "--turns", "11"], ["11 is not in the range"]),
                           (["--round", "1", "--viewer", "5"], ["--viewer 5: the record has 4"
                                                                " players"])]:
        assert_input_error(run(["best", str(games), *options]), *words)
    seen_by_1 = str(POSITIONS_DIR / "records" / "four_players_seen_by_1.json")
    assert_input_error(run(["best", seen_by_1, "--turns", "6"]), "the record has 5 turns")
    assert_input_error(run(["best", seen_by_1, "--viewer", "2"]), "player 2's hand is hidden")
    assert_input_error(run(["best", str(POSITIONS_DIR / "example.json"), "--turns", "1"]),
                       "--turns needs a game record")
