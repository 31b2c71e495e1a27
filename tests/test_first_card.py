"""The exact search's opening-card model (cext/firstcard.pxd, solver/exact/firstcard.py and
firstcard_train.py):
its features against the Python rules, its scores in C against numpy, the same values with
and without it, and its training (examples resumed, a fit that learns, the command)."""
import random

import numpy as np
import pytest

from solver._search import ExactSearch
from solver.batch.deals import deal_positions
from solver.core.rules import bullheads, cheapest_row, target_row
from solver.core.turn import Turn, apply_turn
from solver.errors import ConfigError, NimmtError
from solver.exact import firstcard, firstcard_train
from solver.exact.engine import Engine, RankMap
from tests.support import error_line, run


def positions(count, cards, seed):
    return list(deal_positions(count, seed, cards))


def c_features(position, player):
    ranks = RankMap(position)
    hand1, hand2, rows = ranks.state(position)
    search = ExactSearch(ranks.bulls, 2, 10)
    return np.array(search.first_card_features(hand1, hand2, rows, player))


def test_shapes_agree_with_the_c_model():
    assert ExactSearch.first_card_shape() == (firstcard.FEATURES, firstcard.INPUTS,
                                              firstcard.HIDDEN)
    model = firstcard.default_model()
    assert model.w1.shape[1:] == (firstcard.INPUTS, firstcard.HIDDEN)
    assert (model.low, model.high) == (firstcard.FROM_CARDS, firstcard.UP_TO_CARDS)
    assert len(model.w1) - 1 == max(firstcard.LEVELS)


@pytest.mark.parametrize("cards", [3, 5, 7])
def test_turn_features_follow_the_rules(cards):
    """This turn's bullheads of a card against each reply (mean and most, both sides), its
    own bullheads and whether it is too low, worked out again with the Python rules."""
    for position in positions(15, cards, 40 + cards):
        for player in (0, 1):
            features = c_features(position, player)
            mine, other = position.hands[player], position.hands[1 - player]
            for i, card in enumerate(mine):
                taken = []
                for reply in other:
                    played = [card, reply] if player == 0 else [reply, card]
                    outcome = apply_turn(position, Turn.of(played))   # too low: cheapest row
                    pen = [after - before for after, before
                           in zip(outcome.position.penalties, position.penalties)]
                    taken.append((pen[player], pen[1 - player]))
                taken = np.array(taken, dtype=float)
                expected = [taken[:, 0].mean(), taken[:, 0].max(), (taken[:, 0] > 0).mean(),
                            taken[:, 1].mean(), taken[:, 1].max(), bullheads(card)]
                assert features[i, :6] == pytest.approx(expected)
                low = target_row(position.rows, card) is None
                assert features[i, 6] == low
                if low:
                    cheapest = position.rows[cheapest_row(position.rows)]
                    assert features[i, 7] == sum(bullheads(c) for c in cheapest)
            # the estimate's features exist from 5 cards only
            assert features[:, 22:].any() == (cards >= 5)


def test_c_scores_are_the_numpy_model():
    model = firstcard.default_model()
    rng = random.Random(3)
    for cards in (3, 4, 5, 6, 7, 8):
        for position in positions(6, cards, rng.randrange(10 ** 6)):
            ranks = RankMap(position)
            hand1, hand2, rows = ranks.state(position)
            search = ExactSearch(ranks.bulls, 2, 10)
            search.set_first_card(model.w1, model.b1, model.w2, model.low)
            for player in (0, 1):
                features = np.array(search.first_card_features(hand1, hand2, rows, player))
                scores = search.first_card_scores(hand1, hand2, rows, player)
                assert scores == pytest.approx(model.scores(features), abs=1e-9)


def test_same_values_with_and_without_the_model():
    """The model changes the work only: 5- to 7-card positions give the same values and
    strategies' values, and it is in use (the node counts differ somewhere)."""
    differ = 0
    for cards, count in ((5, 12), (6, 8), (7, 3)):
        for position in positions(count, cards, 70 + cards):
            answers = []
            for model in (True, False):
                with Engine(position, first_card=model) as engine:
                    solution = engine.solve(position, card_values=False, principal_line=False)
                    answers.append((solution.value, solution.stats.nodes))
            assert answers[0][0] == pytest.approx(answers[1][0], abs=1e-9)
            differ += answers[0][1] != answers[1][1]
    assert differ > 0


def test_set_first_card_checks_shapes():
    search = ExactSearch([1] * 10, 2, 10)
    with pytest.raises(ValueError):
        search.set_first_card(np.zeros((3, 4, 5)), np.zeros((3, 5)), np.zeros((3, 5)), 5)
    search.set_first_card(None, None, None, 5)


def test_fit_learns_a_card_rule():
    """A hand whose largest margin is on the card of the largest feature 0: the fit finds
    it on held-out hands."""
    rng = np.random.default_rng(0)
    features = rng.normal(size=(3000, 5, firstcard.FEATURES))
    margins = 3 * features[:, :, 0] + 0.1 * rng.normal(size=(3000, 5))
    result = firstcard_train.fit(features, margins, epochs=8)
    assert result.accuracy > 0.8
    assert result.w1.shape == (firstcard.INPUTS, firstcard.HIDDEN)


def test_training_resumes_and_is_deterministic(tmp_path):
    folder = tmp_path / "examples"
    out = tmp_path / "w.npz"
    model = firstcard_train.train(str(folder), str(out), {5: 12, 6: 4, 7: 2}, seed=2, epochs=2)
    loaded = firstcard.load(str(out))
    assert np.array_equal(loaded.w1, model.w1) and loaded.low == 5
    chunk = folder / "cards6-0000-4.npz"                     # chunk 0, 4 positions
    stamp = chunk.stat().st_mtime_ns
    again = firstcard_train.train(str(folder), str(tmp_path / "w2.npz"), {5: 12, 6: 4, 7: 2},
                            seed=2, epochs=2)
    assert chunk.stat().st_mtime_ns == stamp                # examples read, not made again
    assert np.array_equal(again.w1, model.w1)
    with pytest.raises(ConfigError, match="other settings"):
        firstcard_train.train(str(folder), str(out), {5: 12, 6: 4, 7: 2}, seed=3, epochs=2)
    features, margins = firstcard_train.examples(str(folder), 6, 4, seed=2)
    assert features.shape == (8, 6, firstcard.FEATURES) and margins.shape == (8, 6)
    # more positions later: the short last chunk is made anew, as a fresh run makes it
    more, _ = firstcard_train.examples(str(folder), 6, 6, seed=2)
    fresh, _ = firstcard_train.examples(str(tmp_path / "fresh"), 6, 6, seed=2)
    assert more.shape == (12, 6, firstcard.FEATURES) and np.array_equal(more, fresh)


def test_a_damaged_chunk_of_examples_is_named(tmp_path):
    folder = tmp_path / "examples"
    firstcard_train.examples(str(folder), 5, 4, seed=2)
    chunk = folder / "cards5-0000-4.npz"
    features, margins = np.load(chunk)["features"], np.load(chunk)["margins"]
    for broken in ({"features": features, "margins": margins[:-1]},
                   {"features": features[:, :, :-1], "margins": margins},
                   {"features": features, "margins": np.full_like(margins, np.nan)}):
        np.savez(chunk, **broken)
        with pytest.raises(NimmtError, match="cards5-0000-4.npz' is damaged"):
            firstcard_train.examples(str(folder), 5, 4, seed=2)


def test_the_training_folders_do_not_mix(tmp_path):
    from solver.learn.data import GenerateConfig, generate
    games = str(tmp_path / "games")
    generate(GenerateConfig(teacher="greedy", rounds=2, chunk_rounds=2, seed=1,
                            players=(3,), weights=(1,)), games)
    with pytest.raises(ConfigError, match="holds games .*, not first-card examples"):
        firstcard_train.examples(games, 5, 4, seed=2)
    firstcard_train.examples(str(tmp_path / "cards"), 5, 4, seed=2)
    with pytest.raises(ConfigError, match="holds first-card examples .*, not games"):
        generate(GenerateConfig(teacher="greedy", rounds=2, chunk_rounds=2, seed=1,
                                players=(3,), weights=(1,)), str(tmp_path / "cards"))


def test_examples_in_worker_processes_are_those_of_one(tmp_path, monkeypatch):
    monkeypatch.setattr(firstcard_train, "CHUNK", 2)
    one, margins = firstcard_train.examples(str(tmp_path / "one"), 5, 7, seed=3)
    two, margins2 = firstcard_train.examples(str(tmp_path / "two"), 5, 7, seed=3, jobs=2)
    assert one.shape[0] == 14 and np.array_equal(one, two) and np.array_equal(margins, margins2)


def test_unreadable_weights_are_one_line(tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a weights file")
    with pytest.raises(NimmtError, match="cannot read opening-card weights"):
        firstcard.load(str(bad))
    shipped = dict(np.load(firstcard.DEFAULT_WEIGHTS))
    shipped["b1"] = np.full_like(shipped["b1"], np.nan)
    np.savez(bad, **shipped)
    with pytest.raises(NimmtError, match="not finite"):
        firstcard.load(str(bad))


def test_command(tmp_path):
    result = run(["train", "first-card", "--data", str(tmp_path / "d"), "--out",
                  str(tmp_path / "w.npz"), "--positions", "10,10,10", "--epochs", "1"])
    assert result.exit_code == 0, result.output
    assert "weights written" in result.stdout
    firstcard.load(str(tmp_path / "w.npz"))
    assert "--positions" in error_line(run(["train", "first-card", "--data", str(tmp_path / "d"),
                                            "--out", str(tmp_path / "w.npz"),
                                            "--positions", "10,10"]))


def logged(position, every=1, low=5, high=7):
    ranks = RankMap(position)
    search = ExactSearch(ranks.bulls, 1 << 16, 12)
    search.set_node_log(100_000, low, high, every)
    value = search.solve_root(*ranks.state(position)).value
    return search, value


def test_node_log_keeps_new_nodes_of_its_sizes():
    """The log holds states of low..high cards (valid: disjoint hands of one size), the same
    on every run, a keyed subset with `every`, and it changes neither the value nor the
    work."""
    position = positions(1, 8, 5)[0]
    search, value = logged(position)
    log = search.node_log()
    assert log and {len(h1) for h1, _, _ in log} <= {5, 6, 7}
    assert 7 in {len(h1) for h1, _, _ in log}
    for h1, h2, rows in log:
        assert len(h1) == len(h2) and not set(h1) & set(h2) and len(rows) == 4
    again, value2 = logged(position)
    assert again.node_log() == log and value2 == value
    assert again.stats["nodes"] == search.stats["nodes"]
    sparse, _ = logged(position, every=7)
    keys = {search.canonical_key(*state) for state in log}
    assert 0 < len(sparse.node_log()) < len(log)
    assert {sparse.canonical_key(*state) for state in sparse.node_log()} <= keys
    ranks = RankMap(position)
    plain = ExactSearch(ranks.bulls, 1 << 16, 12)
    assert plain.solve_root(*ranks.state(position)).value == value
    assert plain.stats["nodes"] == search.stats["nodes"] and plain.node_log() == []


def test_node_examples_label_logged_nodes(tmp_path, monkeypatch):
    """Node examples: each logged state's margins are its worst entries, as a root solve
    of the same state gives them; chunks are kept and read again."""
    monkeypatch.setattr(firstcard_train, "NODE_QUOTA", {5: 3, 6: 2})
    monkeypatch.setattr(firstcard_train, "NODE_LIMIT", 20_000)
    monkeypatch.setattr(firstcard_train, "NODE_ROOT_CARDS", (8,))
    examples = firstcard_train.node_examples(str(tmp_path), 2, seed=4)
    assert examples[5][0].shape == (12, 5, firstcard.FEATURES)
    assert examples[6][1].shape == (8, 6)
    chunk = tmp_path / "nodes-0000-2.npz"                     # chunk 0, 2 roots
    stamp = chunk.stat().st_mtime_ns
    again = firstcard_train.node_examples(str(tmp_path), 2, seed=4)
    assert chunk.stat().st_mtime_ns == stamp
    assert np.array_equal(again[5][1], examples[5][1])
    # a margin is a card's worst entry: player 1's from below, player 2's from above
    position = positions(1, 6, 9)[0]
    ranks = RankMap(position)
    search = ExactSearch(ranks.bulls, 1 << 16, 12)
    features, margins = firstcard_train.state_examples(search, ranks.state(position))
    matrix = firstcard_train.root_game(position).matrix
    assert np.allclose(margins[0], matrix.min(1)) and np.allclose(margins[1], -matrix.max(0))
