"""Bots, their registry, and tournaments."""
import pytest

from solver.play.bots import BOTS, GreedyBot, card_risk, make_bot, parse_bot_names
from solver.errors import ConfigError, PositionError
from solver.core.position import Position
from solver.core.player import PlayerView
from solver.core.rules import GameConfig, cheapest_row, row_bullheads
from solver.play.tournament import lineup, run_tournament
from solver.stats import mean_ci95


def view(rows, hands, revealed=None, config=GameConfig.variant(2)):
    return PlayerView(config, 0, tuple(map(tuple, rows)), tuple(hands[0]), (), (),
                      (0,) * config.players, (0,) * config.players, 0, revealed)


def test_greedy_row_choice_looks_past_the_cheapest_row():
    # Taking row 0 (2 bullheads) lets 20 make row 1 five long: our 22 would take it next turn.
    # Row 1 (5 bullheads) costs less in all.
    rows = [[4, 16], [1, 6, 15, 18], [2, 8, 23], [9, 12]]
    v = view(rows, [[22], [7]], revealed=(5, 20))      # the hand without the card played
    assert cheapest_row(rows) == 0
    assert GreedyBot().choose_row(v, 5) == 1


def test_greedy_avoids_the_sixth_card():
    rows = [[10, 11, 12, 13, 14], [30], [50], [70]]
    # 15 would surely be the 6th card on row 0 (no unseen card in between can take it first)
    assert card_risk(rows, 15, unseen=[40, 60], opponents=1) == row_bullheads(rows[0])
    assert GreedyBot().choose_card(view(rows, [[15, 31], [40, 60]], config=GameConfig(2))) == 31


def test_registry_and_names():
    assert set(BOTS) >= {"random", "greedy"}
    assert parse_bot_names("random, greedy") == ["random", "greedy"]
    with pytest.raises(ConfigError, match="nobody"):
        parse_bot_names("random,nobody")
    assert make_bot("random", 3).choose_card(view([[1], [2], [3], [4]], [[9, 10]])) in (9, 10)


def test_lineup_rotates_seats():
    assert [lineup(["a", "b", "c"], 3, g) for g in range(3)] == [
        ["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]]
    assert lineup(["a", "b"], 4, 1) == ["b", "a", "b", "a"]


def test_mean_ci95():
    assert mean_ci95([]) == (0.0, 0.0, 0.0)
    assert mean_ci95([3]) == (3, 3, 3)
    mean, lo, hi = mean_ci95([1, 2, 3, 4])
    assert mean == 2.5 and lo < 2.5 < hi and hi - 2.5 == pytest.approx(1.959964 * 1.2909944 / 2)


def test_tournament_is_deterministic_and_greedy_beats_random():
    config = GameConfig(players=4)
    first = run_tournament(config, ["random", "greedy"], 20, seed=1)
    assert first == run_tournament(config, ["random", "greedy"], 20, seed=1)
    random_bot, greedy = first["bots"]
    assert greedy["mean_penalty_per_round"] < random_bot["mean_penalty_per_round"]
    assert greedy["ci95"][1] < random_bot["ci95"][0]
    # with 4 seats, each bot holds 2 seats a game: win rates per seat add up to 1/2 each
    assert random_bot["win_rate"] + greedy["win_rate"] == pytest.approx(0.5)
    assert random_bot["seat_games"] == greedy["seat_games"] == 40


def test_tournament_refuses_bad_arguments():
    with pytest.raises(ConfigError):
        run_tournament(GameConfig(), [], 3)
    with pytest.raises(ConfigError):
        run_tournament(GameConfig(), ["random"], 0)


# the heuristic bots, bot specs with options, parallel tournaments ------------------------
from solver.play.bots import LowKeeperBot, SafeBot, SamplerBot, parse_bot_spec

STANDARD = GameConfig(players=2)


def view104(rows, hands, revealed=None):
    return view(rows, hands, revealed, config=STANDARD)


def test_every_bot_plays_whole_rounds():
    from solver.play.runner import play_round
    from solver.core.record import replay_steps
    import random as _random
    config = GameConfig(players=5)
    for name in ("lowkeeper", "safe", "sampler", "greedy", "random"):
        players = [make_bot(name, k) for k in range(5)]
        result = play_round(config, players, _random.Random(1))
        assert len(result.record["turns"]) == 10
        # the record replays under the rules to the same table, each card from its hand once
        start, outcomes = replay_steps(result.record)
        assert outcomes[-1].position == result.final
        assert all(len(h) == 0 for h in result.final.hands)
        for k in range(5):
            assert sorted(t["cards"][k] for t in result.record["turns"]) == sorted(start.hands[k])
        # a seat's penalty is the bullheads of the rows it took, turn by turn
        taken = [0] * 5
        for outcome in outcomes:
            for k, cards in enumerate(outcome.taken):
                taken[k] += row_bullheads(cards)
        assert tuple(taken) == result.penalties == result.final.penalties and sum(taken) > 0


def test_lowkeeper_keeps_its_lowest_card_then_takes_a_cheap_row_with_it():
    rows = [[20, 22], [40], [60], [80]]
    # every row costs 3 bullheads or more and 41 is safe: it keeps its 3 and plays 41
    assert LowKeeperBot().choose_card(view104(rows, [[3, 41, 95], [90, 91]])) == 41
    cheap = [[21], [40], [60], [80]]             # row 0 costs 1 bullhead: take it on purpose
    assert LowKeeperBot().choose_card(view104(cheap, [[3, 41, 95], [90, 91]])) == 3


def test_safe_bot_plays_a_card_that_cannot_be_the_sixth():
    rows = [[10, 11, 12, 13, 14], [30], [50], [70]]
    # 15 is the 6th card for sure; 38 and 71 are safe: 38 first, 7 unseen cards may come
    # before it later (31..37), none before 71
    assert SafeBot().choose_card(view104(rows, [[15, 38, 71], [40, 60, 90]])) == 38


def test_safe_bot_row_choice_keeps_its_hand_safe():
    # row 3 is the cheapest (1 bullhead) but leaves 45 as the 6th card of row 0;
    # taking row 0 (5 bullheads) makes the rest of the hand safe
    rows = [[40, 41, 42, 43, 44], [60], [70], [80]]
    v = view104(rows, [[45], []], revealed=(5, 90))
    assert cheapest_row(rows) == 1
    assert SafeBot().choose_row(v, 5) == 0


def test_sampler_avoids_the_sixth_card():
    rows = [[10, 11, 12, 13, 14], [30], [50], [70]]
    assert SamplerBot(1).choose_card(view104(rows, [[15, 31], [40, 60]])) == 31


def test_bot_specs_with_options():
    assert parse_bot_spec("mcts:iterations=200:exact=0") == (
        "mcts", {"iterations": 200, "exact_handover": False})
    assert parse_bot_spec("mcts:seconds=0.5")[1] == {"seconds": 0.5}
    assert parse_bot_spec("mcts:exact=on")[1] == {"exact_handover": True}
    assert parse_bot_spec("mcts:exact=False")[1] == {"exact_handover": False}
    bot = make_bot("mcts:iterations=200", 1)
    assert bot.name == "mcts:iterations=200" and bot.budget.iterations == 200
    assert parse_bot_spec("mcts:seconds=.5:c=1e1")[1] == {"seconds": 0.5, "c": 10.0}
    for bad in ("greedy:depth=2", "mcts:iterations", "mcts:iterations=lots", "mcts:speed=1",
                "mcts:iterations=2_000", "mcts:iterations=+2000", "belief:worlds=\uff11\uff16",
                "mcts:c=1_0.5", "mcts:c=+1.5", "belief:power=+inf",
                "mcts:iterations=10:iterations=20", "belief:prior=1:prior=2"):
        with pytest.raises(ConfigError):
            parse_bot_spec(bad)
    with pytest.raises(ConfigError):
        make_bot("mcts:iterations=0")
    assert parse_bot_names("random,mcts:iterations=100:c=3") == ["random", "mcts:iterations=100:c=3"]


def test_parallel_tournament_gives_the_same_result():
    config = GameConfig(players=3)
    names = ["random", "safe", "lowkeeper"]
    seen = []
    one = run_tournament(config, names, 6, seed=4, progress=seen.append)
    assert one == run_tournament(config, names, 6, seed=4, jobs=2)
    assert seen == [1, 2, 3, 4, 5, 6]
    with pytest.raises(ConfigError):
        run_tournament(config, names, 2, jobs=0)


def test_progress_bar_is_drawn_on_a_terminal_only():
    import io
    from solver.text.progress import GamesProgress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    log = io.StringIO()
    terminal = Terminal()
    for stream in (log, terminal):
        bar = GamesProgress(4, stream=stream)
        for done in range(1, 5):
            bar(done)
        bar.close()
    assert log.getvalue() == ""                     # a log or a pipe gets no progress
    drawn = terminal.getvalue().split("\r")
    assert drawn[-2].startswith("[" + "#" * 30 + "]") and "4/4 games" in drawn[-2]
    assert drawn[-1] == "\033[K"                    # erased at the end


def test_a_view_built_by_hand_is_checked_where_it_is_made():
    rows = ((10,), (20,), (30,), (40,))
    good = dict(config=GameConfig(4), seat=2, rows=rows, hand=(31, 55), start_rows=rows,
                played=(), penalties=(0,) * 4, scores=(0,) * 4, turn=8)
    PlayerView(**good)
    for change, words in [(dict(seat=7), "seat must be 0..3"),
                          (dict(seat=True), "seat must be"),
                          (dict(hand=(31, 200)), "1..104"),
                          (dict(hand=(0, 5)), "1..104"),
                          (dict(hand=("a",)), "1..104"),
                          (dict(hand=tuple(range(41, 52))), "at most 10"),
                          (dict(rows=rows[:3]), "4 rows"),
                          (dict(rows=rows[:3] + ((41, 42, 43, 44, 45, 46),)), "4 rows"),
                          (dict(penalties=(0,)), "penalties"),
                          (dict(revealed=(1, 2)), "revealed"),
                          (dict(revealed=(1, 2, 2, 3)), "4 different cards"),
                          (dict(hand=(31, 31)), "twice in it"),
                          (dict(hand=(31, 40)), "on the rows"),
                          (dict(hand=(31, 55), played=((55, 1, 2, 3),)), "played"),
                          (dict(hand=(31,), revealed=(31, 1, 2, 3)), "revealed")]:
        with pytest.raises(ConfigError, match=words):
            PlayerView(**dict(good, **change))
    card_view = PlayerView(**good)
    for spec in ("safe", "net", "belief", "mcts:iterations=100"):
        with pytest.raises(ConfigError, match="row choice needs the turn's cards"):
            make_bot(spec, 0).choose_row(card_view, 31)


def test_a_position_s_view_names_a_bad_seat():
    from solver.advice import position_view
    position = Position.from_json('{"rows": [[10], [20], [30], [40]],'
                                  ' "hands": [null, [1, 2, 3], null]}')
    assert position_view(position, 1).hand == (1, 2, 3)
    with pytest.raises(PositionError, match="player 1's hand is hidden"):
        position_view(position, 0)
    with pytest.raises(PositionError, match=r"seat must be 0..2 \(players 1..3\), got 7"):
        position_view(position, 7)


def test_a_tournament_seats_every_bot_or_says_so():
    with pytest.raises(ConfigError, match="give at least 3 games"):
        run_tournament(GameConfig(3), ["greedy", "safe", "random", "net", "lowkeeper"], 1)
    summary = run_tournament(GameConfig(3), ["greedy", "safe", "random", "lowkeeper"], 2, seed=1)
    assert all(bot["seat_games"] > 0 and bot["ci95"][0] >= 0 for bot in summary["bots"])
