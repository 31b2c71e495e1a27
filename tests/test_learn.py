"""The learned policy: the encoding of a seat's view, the numpy network and its shipped
weights, the `net` bot, the training data and a tiny training run (with PyTorch if present)."""
import json
import dataclasses
import os
import random
import re
import subprocess
import sys
from functools import partial

import numpy as np
import pytest

from solver.core.player import PlayerView
from solver.core.rules import GameConfig, fewest_bullheads_chooser, play_turn, row_bullheads
from solver.errors import ConfigError
from solver.learn.data import GenerateConfig, generate, load_chunks, play_rounds
from solver.learn.features import CARD_FEATURES, TABLE_FEATURES, encode, raw_views
from solver.learn.model import DEFAULT_WEIGHTS, WEIGHTS_DIR, PolicyNet, load, load_cached, shapes
from solver.play.bots import make_bot
from solver.play.runner import play_round
from tests.support import assert_input_error, error_line, run

ROWS = ((3, 10), (50,), (20, 22, 30, 31, 33), (70, 71, 80))
HAND = (5, 12, 25, 34, 55, 72, 90)


def view(rows=ROWS, hand=HAND, players=4, seat=1, penalties=(0, 2, 5, 1), start=None,
         played=((8, 40, 60, 61), (41, 42, 43, 44), (9, 45, 46, 47))):
    start = start or ((3,), (50,), (20,), (70,))
    return PlayerView(GameConfig(players=players), seat, rows, hand, start, played,
                      penalties, (0,) * players, len(played))


def test_encoding_shapes_and_values():
    enc = encode(raw_views([view(), view(hand=HAND[:3])]))
    assert enc.cards.shape == (2, 10, CARD_FEATURES) and enc.cards.dtype == np.float32
    assert enc.table.shape == (2, TABLE_FEATURES)
    assert enc.mask.tolist() == [[True] * 7 + [False] * 3, [True] * 3 + [False] * 7]
    assert np.isfinite(enc.cards).all() and np.isfinite(enc.table).all()
    assert not enc.cards[0, 7:].any()                   # empty slots are zero
    assert enc.cards[0, 0, 2] == 1.0                    # 5 is lower than every row end
    assert enc.cards[0, 1, 2] == 0.0                    # 12 goes on row 0


def test_encoding_ignores_orders_that_do_not_matter():
    base = encode(raw_views([view()]))
    shuffled = view(rows=tuple(reversed(ROWS)), hand=tuple(reversed(HAND)),
                    penalties=(1, 2, 5, 0))            # rows, hand, the other seats reordered
    other = encode(raw_views([shuffled]))
    for a, b in ((base.cards, other.cards), (base.table, other.table), (base.mask, other.mask)):
        assert np.array_equal(a, b)


def test_encoding_sees_only_the_seats_information():
    """Two deals that differ only in the hidden hands give the same encoding."""
    config = GameConfig(players=4)
    encodings = []
    for seed in (1, 2):
        cards = [c for c in range(1, 105) if c not in HAND and c not in (3, 50, 20, 70)]
        random.Random(seed).shuffle(cards)
        hands = [HAND, tuple(cards[:7]), tuple(cards[7:14]), tuple(cards[14:21])]
        v = PlayerView(config, 0, ((3,), (50,), (20,), (70,)), hands[0],
                       ((3,), (50,), (20,), (70,)), (), (0,) * 4, (0,) * 4, 0)
        encodings.append(encode(raw_views([v])))
    assert np.array_equal(encodings[0].cards, encodings[1].cards)
    assert np.array_equal(encodings[0].table, encodings[1].table)


def test_network_is_deterministic_and_batched():
    net = load_cached()
    views = [view(), view(hand=HAND[:3]), view(players=10, seat=7, penalties=(0,) * 10)]
    logits, value = net.policy(views)
    one = [net.policy([v]) for v in views]
    for i, (l1, v1) in enumerate(one):
        assert np.allclose(l1[0], logits[i], atol=1e-5) and np.isclose(v1[0], value[i], atol=1e-4)
    again, _ = net.policy(views)
    assert np.array_equal(again, logits)
    assert np.array_equal(net.values(encode(raw_views(views))), value)   # the value alone
    assert (logits[1, 3:] < -1e8).all()                 # empty slots never chosen
    assert net.best_cards(views)[1] in HAND[:3]


def test_mixed_hand_sizes_go_by_size_with_the_same_numbers():
    """A large batch of several hand sizes is computed size by size (no padded slots): the
    same logits and values as the whole batch at once, to float rounding."""
    net = load_cached()
    views = [view(hand=HAND[:1 + i % len(HAND)]) for i in range(40)]
    x = encode(raw_views(views))
    logits, value = net.forward(x)
    whole_logits, whole_value = net._forward(x)
    assert np.allclose(logits, whole_logits, atol=1e-5) and np.allclose(value, whole_value,
                                                                          atol=1e-4)
    assert (logits[0, 1:] < -1e8).all() and (logits[6, :7] > -1e8).all()
    assert (logits[6, 7:] < -1e8).all()
    assert np.array_equal(net.logits(x), logits)        # the policy alone: the same bits
    few = x.subset(slice(0, 5))
    assert np.array_equal(net.logits(few), net.forward(few)[0])


def reference_forward(w, x):
    """The network of solver/learn/model.py's docstring, view by view in float64."""
    w = {k: v.astype(np.float64) for k, v in w.items()}
    relu = lambda a: np.maximum(a, 0.0)
    logits, values = [], []
    for cards, mask, table in zip(x.cards, x.mask, x.table):
        real = cards[mask].astype(np.float64)
        h2 = relu(relu(real @ w["card_in"] + table @ w["table_in"] + w["b1"]) @ w["card_mid"]
                  + w["b2"])
        ctx = relu(np.concatenate([h2.mean(axis=0), h2.max(axis=0), table]) @ w["ctx_w"]
                   + w["ctx_b"])
        out = relu(h2 @ w["pol_card"] + ctx @ w["pol_ctx"] + w["pol_b"]) @ w["pol_out"]
        logits.append(np.concatenate([out[:, 0] + w["pol_out_b"][0], [None] * (10 - len(real))]))
        values.append((relu(ctx @ w["val_w"] + w["val_b"]) @ w["val_out"])[0] + w["val_out_b"][0])
    return logits, np.array(values)


def test_network_computes_its_formulas():
    """The batched, in-place products give the docstring's network, computed plainly."""
    net = load_cached()
    views = [view(hand=HAND[:1 + i % len(HAND)], players=4 + i % 7, seat=i % 4,
                  penalties=(0, i, 2, 1) + (0,) * (i % 7)) for i in range(30)]
    x = encode(raw_views(views))
    logits, value = net.forward(x)
    want_logits, want_value = reference_forward(net.weights, x)
    for got, want, mask in zip(logits, want_logits, x.mask):
        assert np.allclose(got[mask], want[mask].astype(float), atol=1e-4)
        assert (got[~mask] < -1e8).all()
    assert np.allclose(value, want_value, atol=1e-3)


def test_negligible_weights_are_flushed(tmp_path):
    """Training leaves weights below float32's smallest normal number, and many more a
    product with which is below it; they are read as 0 (such a product is slow), and the
    network's outputs do not change."""
    net = load_cached()
    weights = {k: v.copy() for k, v in net.weights.items()}
    weights["card_mid"][0, :5] = np.float32(1e-40)
    weights["card_mid"][1, :5] = np.float32(1e-25)
    path = str(tmp_path / "negligible.npz")
    PolicyNet(weights, net.meta).save(path)
    loaded = load(path)
    assert (loaded.weights["card_mid"][:2, :5] == 0).all()
    assert not any(((np.abs(v) < 1e-20) & (v != 0)).any() for v in loaded.weights.values())
    weights["card_mid"][:2, :5] = 0
    x = encode(raw_views([view(), view(hand=HAND[:2])]))
    assert np.allclose(loaded.forward(x)[0], PolicyNet(weights, net.meta).forward(x)[0],
                       atol=1e-6)


def test_shipped_weights_load():
    net = load_cached()
    assert net.meta["feature_version"] == 1
    assert set(net.weights) == set(shapes(net.hidden))
    size = sum(w.size for w in net.weights.values())
    assert 1_000 < size < 1_000_000                     # under 4 MB of float32
    older = load(os.path.join(WEIGHTS_DIR, "net-v1.npz"))  # kept: the earlier measurements
    assert older.hidden == 128 and net.hidden == 256
    assert make_bot("net:weights=net-v1.npz").net.hidden == 128      # by its bare name
    student = make_bot("belief:others=net-v1.npz+net-v3s.npz").others_net[1]   # 10 players
    assert student.hidden == 128 and student.meta["data"]["teacher"] == "net:weights=net-v3.npz"


def test_bad_weights_are_refused(tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(ConfigError, match="network weights .*not an .npz file") as info:
        load(str(bad))
    assert "pickle" not in str(info.value)             # numpy's words, not the user's
    for damaged in (b"", open(os.path.join(WEIGHTS_DIR, DEFAULT_WEIGHTS), "rb").read()[:999]):
        bad.write_bytes(damaged)                        # empty, cut short
        with pytest.raises(ConfigError, match="not an .npz file, or cut short"):
            load(str(bad))
    other = str(tmp_path / "other.npz")
    np.savez(other, a=np.zeros(3))
    with pytest.raises(ConfigError, match="it has no array meta"):
        load(other)
    net = load_cached()
    weights = dict(net.weights, pol_b=np.full_like(net.weights["pol_b"], np.nan))
    path = str(tmp_path / "nan.npz")
    PolicyNet(weights, net.meta).save(path)
    with pytest.raises(ConfigError, match="pol_b holds values that are not finite"):
        load(path)
    weights = dict(net.weights, b1=np.zeros(5, dtype=np.float32))
    PolicyNet(weights, net.meta).save(path)
    with pytest.raises(ConfigError, match="b1 has shape"):
        load(path)
    net = load_cached()
    old = PolicyNet(net.weights, dict(net.meta, feature_version=0))
    path = str(tmp_path / "old.npz")
    old.save(path)
    with pytest.raises(ConfigError, match="features version"):
        load(path)
    with pytest.raises(ConfigError):
        make_bot(f"net:weights={tmp_path / 'missing.npz'}")


@pytest.mark.parametrize("players", range(2, 11))
def test_net_bot_plays_whole_rounds(players):
    """Legal cards and rows at every seat count (the runner refuses anything else), the
    standard game and the 10n+4 variant."""
    for config in (GameConfig(players=players), GameConfig.variant(players)):
        bots = [make_bot("net", seed=k) for k in range(players)]
        result = play_round(config, bots, random.Random(players))
        assert len(result.record["turns"]) == 10


def test_net_bot_value_rows():
    """The row choice by the network's value: a legal row, every round to its end."""
    for players in (2, 4, 10):
        bots = [make_bot("net:rows=value", seed=k) for k in range(players)]
        result = play_round(GameConfig(players=players), bots, random.Random(players + 20))
        assert len(result.record["turns"]) == 10
    with pytest.raises(ConfigError, match="rows"):
        make_bot("net:rows=cheap")


def test_net_bot_is_deterministic():
    config = GameConfig(players=4)
    records = [play_round(config, [make_bot("net", seed=s) for _ in range(4)],
                          random.Random(5)).record for s in (1, 2)]
    assert records[0] == records[1]


def test_generation_is_chunked_and_resumes(tmp_path):
    config = GenerateConfig(teacher="mcts:iterations=200", rounds=3, chunk_rounds=2, seed=3,
                            players=(3, 4), weights=(1, 1))
    assert generate(config, str(tmp_path)) == 2
    raw, extra = load_chunks(str(tmp_path))
    assert len(raw) == len(extra["target"]) > 0
    assert np.allclose(extra["target"].sum(axis=1), 1.0)
    assert ((extra["target"] > 0) <= (raw.hand > 0)).all()     # only cards of the hand
    (tmp_path / "chunk_00001.npz").unlink()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])     # its process id, now unused
    dead.wait()
    left = tmp_path / f"tmp-{dead.pid}-abcdefgh.npz"       # a run killed mid-write left it
    left.write_bytes(b"half")
    assert generate(config, str(tmp_path)) == 1                # only the missing chunk
    assert not left.exists() or os.name != "posix"
    raw2, extra2 = load_chunks(str(tmp_path))
    assert np.array_equal(raw.hand, raw2.hand) and np.array_equal(extra["target"],
                                                                  extra2["target"])
    other = GenerateConfig(teacher="mcts:iterations=300", rounds=3, chunk_rounds=2, seed=3,
                           players=(3, 4), weights=(1, 1))
    with pytest.raises(ConfigError, match="other settings .its teacher .mcts:iterations=200.,"
                                          " this run's .mcts:iterations=300.."):
        generate(other, str(tmp_path))
    settings = (tmp_path / "config.json").read_bytes()
    (tmp_path / "config.json").unlink()            # chunks whose settings are not known
    with pytest.raises(ConfigError, match="not their settings"):
        generate(other, str(tmp_path))
    (tmp_path / "config.json").write_bytes(settings)
    again = play_rounds(config, 2, 1)
    assert np.array_equal(again["hand"], raw.hand[extra["round"] == 2])
    # more rounds later: the short last chunk is made anew, as a fresh run makes it
    more = dataclasses.replace(config, rounds=4)
    assert generate(more, str(tmp_path)) == 1
    fresh = tmp_path / "fresh"
    generate(more, str(fresh))
    assert (tmp_path / "chunk_00001.npz").read_bytes() == (fresh / "chunk_00001.npz").read_bytes()
    (fresh / "chunk_00001.npz").write_bytes(b"cut")
    with pytest.raises(ConfigError, match="chunk_00001.npz: not an .npz file, or cut short"):
        generate(more, str(fresh))


def test_a_refused_generation_leaves_no_folder(tmp_path):
    for spec in ("mcts:iterations=-5", f"net:weights={tmp_path / 'nosuch.npz'}"):
        with pytest.raises(ConfigError):
            generate(GenerateConfig(teacher=spec, rounds=1), str(tmp_path / "out"))
        assert not (tmp_path / "out").exists()


def test_generate_command_writes_chunks(tmp_path):
    out = tmp_path / "data"
    result = run(["train", "generate", "--out", str(out), "--rounds", "2", "--chunk", "1",
                  "--teacher", "greedy", "--players", "3", "--weights", "1"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["chunk_00000.npz", "chunk_00001.npz",
                                                     "config.json"]
    out = tmp_path / "selfplay"
    result = run(["train", "selfplay", "--out", str(out), "--rounds", "3", "--chunk", "2",
                  "--players", "4", "--weights", "1"])
    assert result.exit_code == 0, result.output
    assert json.loads((out / "config.json").read_text())["kind"] == "selfplay"
    assert "temperature" in error_line(run(["train", "selfplay", "--out", str(out),
                                            "--temperature", "0"]))
    assert "weights" in error_line(run(["train", "selfplay", "--out", str(out),
                                        "--network", str(tmp_path / "none.npz")]))
    assert "other settings" in error_line(run(["train", "selfplay", "--out", str(out),
                                               "--rounds", "3", "--seed", "9"]))
    a_file = tmp_path / "a_file"
    a_file.write_text("")
    assert "a file of that name" in error_line(run(["train", "generate", "--out", str(a_file),
                                                    "--rounds", "1"]))


def test_nsearch_teacher_targets_are_its_scores():
    """An nsearch teacher's target is a softmax of its cards' mean scores: the card it
    plays has the largest share, and the shares are not all on one card."""
    config = GenerateConfig(teacher="nsearch:worlds=4", rounds=1, seed=5, players=(3,),
                            weights=(1,))
    out = play_rounds(config, 0, 1)
    target = out["target"]
    assert np.allclose(target.sum(axis=1), 1.0)
    assert ((target > 0) == (out["hand"] > 0)).all()           # every card of the hand
    assert (target.max(axis=1) < 1.0).all()


def test_net_teacher_targets_are_its_card_or_its_policy():
    """A `net` teacher's target is the card it played, or with `net_policy` the network's
    softmax over the hand: the same decisions, the played card the likeliest, and the
    option kept in the folder's settings only when it is on."""
    played = play_rounds(GenerateConfig(teacher="net", rounds=1, seed=4, players=(4,),
                                        weights=(1,)), 0, 1)
    policy_config = GenerateConfig(teacher="net", rounds=1, seed=4, players=(4,),
                                   weights=(1,), net_policy=True)
    policy = play_rounds(policy_config, 0, 1)
    assert np.array_equal(played["hand"], policy["hand"])
    assert set(np.unique(played["target"])) <= {0.0, 1.0}
    assert np.allclose(policy["target"].sum(axis=1), 1.0)
    assert ((policy["target"] > 0) == (policy["hand"] > 0)).all()
    assert np.array_equal(policy["target"].argmax(axis=1), played["target"].argmax(axis=1))
    assert "net_policy" in policy_config.settings()
    assert "net_policy" not in GenerateConfig(teacher="net").settings()
    with pytest.raises(ConfigError, match="needs a `net` teacher"):
        GenerateConfig(teacher="sampler", net_policy=True).check()


def test_sampled_costs_are_the_mean_over_the_others_draws():
    """Each card's feature converges to its mean bullheads over every draw of the others'
    cards from the view's unseen ones, resolved by the Python rules (the cards of a view
    share their draws); views with too few unseen cards and empty slots stay 0; the same
    input gives the same numbers."""
    import itertools
    from solver._sim import sampled_costs
    rows = [[3, 12], [20, 21, 22, 23], [40], [60, 66]]
    hands = [[4, 14, 25], [45, 68, 2], [13, 24, 41]]
    pool = [1, 5, 15, 24, 41, 44, 55, 61, 67, 70]
    raw_rows = np.zeros((len(hands), 4, 5), dtype=np.int8)
    raw_hands = np.zeros((len(hands), 10), dtype=np.int8)
    unseen = np.zeros((len(hands), 105), dtype=bool)
    for i, hand in enumerate(hands):
        for r, row in enumerate(rows):
            raw_rows[i, r, :len(row)] = row
        raw_hands[i, :3] = hand
        unseen[i, [c for c in pool if c not in hand]] = True
    players = np.array([3, 3, 3], dtype=np.int8)
    costs = sampled_costs(raw_rows, raw_hands, unseen, players, 20000)
    assert np.array_equal(costs, sampled_costs(raw_rows, raw_hands, unseen, players, 20000))
    assert not costs[:, 3:].any()
    for i, hand in enumerate(hands):
        others = [c for c in pool if c not in hand]
        draws = list(itertools.permutations(others, 2))
        for j, card in enumerate(hand):
            total = 0
            for a, b in draws:
                _, taken = play_turn(rows, [card, a, b], fewest_bullheads_chooser)
                total += row_bullheads(taken[0])
            assert abs(costs[i, j] - total / len(draws)) < 0.1, (hand, card)
    few = unseen.copy()
    few[0] = False
    few[0, [1, 5]] = True                  # 2 unseen cards for 2 others: not enough
    assert not sampled_costs(raw_rows, raw_hands, few, players, 16)[0].any()


def test_sampled_costs_against_known_cards_are_the_rules_take():
    """With exactly as many unseen cards as other seats, every draw is the same cards: each
    hand card's feature is then what the Python rules make it take against them, exactly,
    whatever the seat count (up to 9 others: several drawn cards below a card, 6th cards
    and too-low cards before it)."""
    from solver._sim import sampled_costs
    rng = random.Random(7)
    for _ in range(300):
        players = rng.randint(2, 10)
        deck = rng.sample(range(1, 105), 4 + 10 + players - 1 + 16)
        starts, hand = deck[:4], sorted(deck[4:14])[:rng.randint(1, 10)]
        others = deck[14:14 + players - 1]
        rows = [[c] for c in starts]
        for c in sorted(deck[14 + players - 1:]):      # grow the rows, some to 5 cards
            target = [r for r in rows if r[-1] < c]
            if target and rng.random() < 0.7:
                row = max(target, key=lambda r: r[-1])
                if len(row) < 5:
                    row.append(c)
        raw_rows = np.zeros((1, 4, 5), dtype=np.int8)
        for r, row in enumerate(rows):
            raw_rows[0, r, :len(row)] = row
        raw_hand = np.zeros((1, 10), dtype=np.int8)
        raw_hand[0, :len(hand)] = hand
        unseen = np.zeros((1, 105), dtype=bool)
        unseen[0, others + hand[:1]] = True          # a hand card never drawn: one more
        costs = sampled_costs(raw_rows, raw_hand, unseen, np.array([players], dtype=np.int8),
                              3)
        for j, card in enumerate(hand):
            _, taken = play_turn(rows, [card] + others, fewest_bullheads_chooser)
            assert costs[0, j] == row_bullheads(taken[0]), (rows, hand, others, card)


def test_training_is_deterministic_and_resumes(tmp_path):
    torch = pytest.importorskip("torch")
    from solver.learn.train import TrainConfig, train
    data = str(tmp_path / "data")
    generate(GenerateConfig(teacher="greedy", rounds=4, chunk_rounds=2, seed=1,
                            players=(3,), weights=(1,)), data)
    config = TrainConfig(hidden=8, epochs=2, batch=8, seed=4)
    straight = train(data, str(tmp_path / "a"), config)

    class Stop(Exception):
        pass

    def stop(line):
        raise Stop()
    with pytest.raises(Stop):                   # stopped after its first epoch's checkpoint
        train(data, str(tmp_path / "b"), config, report=stop)
    resumed = train(data, str(tmp_path / "b"), config)
    for k, w in straight.weights.items():
        assert np.array_equal(w, resumed.weights[k]), k
    lines = (tmp_path / "b" / "log.jsonl").read_text().splitlines()
    assert [json.loads(x)["epoch"] for x in lines] == [1, 2]
    # a stop after an epoch's weights and log line, before its checkpoint: done again
    import solver.learn.train as training
    real = training.write_atomically

    def stop_at_the_checkpoint(path, write, *args, **kwargs):
        if path.endswith("checkpoint.pt") and os.path.exists(path):
            raise Stop()
        return real(path, write, *args, **kwargs)
    training.write_atomically = stop_at_the_checkpoint
    try:
        with pytest.raises(Stop):
            train(data, str(tmp_path / "d"), config)
    finally:
        training.write_atomically = real
    resumed = train(data, str(tmp_path / "d"), config)
    assert all(np.array_equal(w, resumed.weights[k]) for k, w in straight.weights.items())
    lines = (tmp_path / "d" / "log.jsonl").read_text().splitlines()
    assert [json.loads(x)["epoch"] for x in lines] == [1, 2]      # epoch 2's line once
    generate(GenerateConfig(teacher="greedy", rounds=4, chunk_rounds=2, seed=9,
                            players=(3,), weights=(1,)), str(tmp_path / "other-data"))
    with pytest.raises(ConfigError, match="made on other data"):
        train(str(tmp_path / "other-data"), str(tmp_path / "d"), config)
    (tmp_path / "d" / "checkpoint.pt").write_bytes(b"cut")
    with pytest.raises(ConfigError, match="checkpoint.pt: damaged"):
        train(data, str(tmp_path / "d"), config)
    # chunks added to the data since a run began: refused, not trained on half way
    grown = str(tmp_path / "grown")
    generate(GenerateConfig(teacher="greedy", rounds=4, chunk_rounds=2, seed=1,
                            players=(3,), weights=(1,)), grown)
    with pytest.raises(Stop):
        train(grown, str(tmp_path / "e"), config, report=stop)
    generate(GenerateConfig(teacher="greedy", rounds=6, chunk_rounds=2, seed=1,
                            players=(3,), weights=(1,)), grown)
    with pytest.raises(ConfigError, match="of 4 rounds, the data now holds .* of 6 rounds"):
        train(grown, str(tmp_path / "e"), config)
    # the outputs of the training commands do not mix
    with pytest.raises(ConfigError, match="holds a fit run .*, not games"):
        generate(GenerateConfig(teacher="greedy", rounds=2, chunk_rounds=2, seed=1,
                                players=(3,), weights=(1,)), str(tmp_path / "a"))
    with pytest.raises(ConfigError, match="holds games .*, not a fit run"):
        train(data, data, config)
    for twice in ([data, data], [data, data + "/"]):
        with pytest.raises(ConfigError, match="given twice"):
            train(twice, str(tmp_path / "g"), config)
    # a checkpoint that torch cannot write (its writer's RuntimeError): one line
    from solver.errors import NimmtError

    class Failing:
        @staticmethod
        def save(state, path):
            raise RuntimeError("[enforce fail at inline_container.cc:672] . unexpected pos")
    os.makedirs(tmp_path / "f")
    with pytest.raises(NimmtError, match="cannot write .*checkpoint.pt"):
        training.write_atomically(str(tmp_path / "f" / "checkpoint.pt"),
                                  partial(training._save_checkpoint, Failing, {}))
    assert os.listdir(tmp_path / "f") == []
    path = str(tmp_path / "net.npz")
    straight.save(path)
    assert load(path).meta["train"]["hidden"] == 8
    assert torch.get_num_threads() == 1
    last = load(str(tmp_path / "a" / "epoch_002.npz"))      # every epoch's weights are kept
    for k, w in straight.weights.items():
        assert np.array_equal(w, last.weights[k]), k
    assert load(str(tmp_path / "a" / "epoch_001.npz")).meta["epoch"] == 1
    other = str(tmp_path / "other")                         # several folders train as one
    generate(GenerateConfig(teacher="greedy", rounds=2, chunk_rounds=2, seed=2,
                            players=(4,), weights=(1,)), other)
    both = train([data, other], str(tmp_path / "c"), TrainConfig(hidden=8, epochs=1, batch=8))
    assert [d["seed"] for d in both.meta["data"]] == [1, 2]
    assert both.meta["examples"] > straight.meta["examples"]


def test_training_starts_from_given_weights(tmp_path):
    """--init: the module starts from the weights (a tiny rate leaves them nearly as they
    were); weights of another width are refused before any data is read."""
    pytest.importorskip("torch")
    from solver.learn.train import TrainConfig, train
    data = str(tmp_path / "data")
    generate(GenerateConfig(teacher="greedy", rounds=2, chunk_rounds=2, seed=1,
                            players=(3,), weights=(1,)), data)
    start = load_cached("net-v1.npz")
    tuned = train(data, str(tmp_path / "a"), TrainConfig(hidden=start.hidden, epochs=1,
                                                         batch=8, lr=1e-9, init="net-v1.npz"))
    for k, w in start.weights.items():
        assert np.allclose(w, tuned.weights[k], atol=1e-6), k
    assert tuned.meta["train"]["init"] == "net-v1.npz"
    with pytest.raises(ConfigError, match="width"):
        TrainConfig(hidden=8, init="net-v1.npz").check()


def test_train_commands_refuse_bad_input(tmp_path):
    assert "players" in error_line(run(["train", "generate", "--out", str(tmp_path),
                                        "--players", "4,12"]))
    assert "unknown bot" in error_line(run(["train", "generate", "--out", str(tmp_path),
                                            "--teacher", "nobody"]))
    for weights in ("nan,1", "inf,1", "1e400,1", "1e308,1e308"):    # before any file is made
        for command in ("generate", "selfplay", "rollouts"):
            out = tmp_path / f"{command}-{weights}"
            assert "finite weight" in error_line(run(["train", command, "--out", str(out),
                                                      "--players", "3,4", "--weights", weights]))
            assert not out.exists()
    assert "no such folder" in error_line(run(["train", "fit", "--data",
                                               str(tmp_path / "none"), "--out", str(tmp_path)]))
    assert "no training chunks" in error_line(run(["train", "fit", "--data", str(tmp_path),
                                                   "--out", str(tmp_path / "run")]))


def test_learning_curve_benchmark(tmp_path, capsys):
    from benchmarks.bench_learning import curve
    net = load_cached()
    for epoch in (1, 2):
        net.save(str(tmp_path / f"epoch_00{epoch}.npz"))
    lines = curve(str(tmp_path), [1, 2], 3, "greedy", 2, 1)
    assert [line["epoch"] for line in lines] == [1, 2]
    assert lines[0] == dict(lines[1], epoch=1)      # the same weights: the same rounds
    assert "epoch   2:" in capsys.readouterr().out


def test_generation_at_mixed_tables():
    """With other bots at the table only the teacher's seats are saved (9 decisions with
    more than one card each), and at least one seat is the teacher's."""
    config = GenerateConfig(teacher="nsearch:worlds=2", rounds=6, seed=2, players=(4,),
                            weights=(1,), others=("greedy", "sampler"), others_share=0.6)
    out = play_rounds(config, 0, 6)
    per_round = np.bincount(out["round"], minlength=6)
    assert all(n % 9 == 0 and 9 <= n <= 36 for n in per_round)
    assert per_round.min() < 36
    assert np.array_equal(play_rounds(config, 3, 1)["hand"], out["hand"][out["round"] == 3])
    with pytest.raises(ConfigError, match="other bots"):
        GenerateConfig(others_share=0.5).check()
    with pytest.raises(ConfigError, match="unknown bot"):
        GenerateConfig(others=("nobody",), others_share=0.5).check()
    with pytest.raises(ConfigError, match="need a share above 0"):
        GenerateConfig(others=("greedy",)).check()      # silently never seated before


def test_selfplay_rounds_replay_by_the_rules(tmp_path):
    """Self-play rounds, checked turn by turn against the Python rules: each seat's next
    hand is this one less one card, the rows after the turn are the rules' rows for the cards
    played (a too-low card: the cheapest row), and the bullheads a seat takes from each turn
    to the end of the round add up to what the rules take, turn after turn."""
    from solver.core.rules import fewest_bullheads_chooser, play_turn, row_bullheads
    from solver.learn.selfplay import SelfPlayConfig
    config = SelfPlayConfig(rounds=6, chunk_rounds=3, seed=4, players=(3, 5), shares=(1, 1))
    assert generate(config, str(tmp_path)) == 2
    raw, extra = load_chunks(str(tmp_path))
    assert not extra["target"].any()
    for index in np.unique(extra["round"]):
        at = np.flatnonzero(extra["round"] == index)
        n = int(raw.players[at[0]])
        turns = [at[raw.turn[at] == t] for t in range(9)]     # seats in order, each turn
        assert all(len(t) == n for t in turns)
        for t in range(8):
            now, after = turns[t], turns[t + 1]
            cards = []
            for k in range(n):
                hand, rest = set(raw.hand[now[k]]) - {0}, set(raw.hand[after[k]]) - {0}
                assert rest < hand and len(hand - rest) == 1
                cards.append((hand - rest).pop())
            rows = [[int(c) for c in row if c] for row in raw.rows[now[0]]]
            new_rows, taken = play_turn(rows, cards, fewest_bullheads_chooser)
            assert [[int(c) for c in row if c] for row in raw.rows[after[0]]] == new_rows
            for k in range(n):
                cost = extra["outcome"][now[k], 0] - extra["outcome"][after[k], 0]
                assert cost == row_bullheads(taken[k])
    again = config.play(3, 3)
    assert np.array_equal(again["outcome"], extra["outcome"][extra["round"] >= 3])


def test_sharpened_targets():
    from solver.learn.train import sharpen
    target = np.array([[0.5, 0.25, 0.25, 0], [0, 0, 0, 0]], dtype=np.float32)
    sharp = sharpen(target, 0.5)
    assert sharp[0].tolist() == pytest.approx([2 / 3, 1 / 6, 1 / 6, 0])
    assert not sharp[1].any()                       # a self-play decision stays without one
    assert sharpen(target, 1.0) is target


def test_paired_benchmark_reads_saved_runs(tmp_path, capsys):
    """bench_paired --from-json: the summary of saved rounds and two runs round by round,
    with no round played; an unreadable file is a one-line usage error."""
    from benchmarks.bench_paired import main as paired
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps([[2, 4], [6, 6], [1, 5]]))
    b.write_text(json.dumps([[3, 4], [6, 6], [2, 5]]))
    paired(["--from-json", str(a), "--compare", str(b)])
    out = capsys.readouterr().out
    assert "3 paired rounds: 3.00 bullheads per round against 5.00; difference -2.00" in out
    assert "round by round: -0.67 ± 0.65 (3 rounds)" in out
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(SystemExit) as stop:
        paired(["--from-json", str(tmp_path / "bad.json")])
    assert stop.value.code == 2
    with pytest.raises(SystemExit):
        paired([])


def test_paired_benchmark_extends_a_run_from_a_later_deal(tmp_path, capsys):
    """--first K plays deals K.. with the baseline rounds and the comparison read from deal
    K of the saved files: the same results as those deals in a run from deal 0. A file
    keeps its first deal, so a file of deals 2-3 serves a run of those deals and not one
    from deal 1; a bare list of pairs (as earlier runs wrote) holds deals from 0."""
    from benchmarks.bench_paired import main as paired
    whole, part = tmp_path / "whole.json", tmp_path / "part.json"
    spec = ["--players", "3", "--bot", "greedy", "--base", "random", "--jobs", "1"]
    paired(spec + ["--rounds", "4", "--rounds-json", str(whole)])
    saved = json.loads(whole.read_text())
    assert saved["first"] == 0 and len(saved["rounds"]) == 4
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(saved["rounds"]))
    paired(spec + ["--rounds", "2", "--first", "2", "--reuse-base", str(bare),
                   "--compare", str(whole), "--rounds-json", str(part)])
    assert json.loads(part.read_text()) == {"first": 2, "rounds": saved["rounds"][2:]}
    printed = capsys.readouterr()
    assert "round by round: +0.00 ± 0.00 (2 rounds)" in printed.out
    # the candidate's card decisions and row choices are timed apart
    assert re.search(r"ms of CPU\) per card decision; \d+ row choices, [\d.]+ ms \([\d.]+ ms"
                     r" of CPU\) each", printed.out)
    # progress goes to standard error, rounds done and the difference so far
    so_far = sum(c - b for c, b in saved["rounds"][:1])
    assert f"1/4 rounds, difference so far {so_far:+.2f}" in printed.err
    assert "rounds, difference so far" not in printed.out
    with pytest.raises(SystemExit) as stop:
        paired(spec + ["--rounds", "4", "--first", "1", "--reuse-base", str(whole)])
    assert stop.value.code == 2
    again = tmp_path / "again.json"
    paired(spec + ["--rounds", "2", "--first", "2", "--reuse-base", str(part),
                   "--compare", str(part), "--rounds-json", str(again)])
    assert again.read_text() == part.read_text()
    paired(["--from-json", str(part), "--compare", str(whole)])      # deals 2-3 of both
    assert "round by round: +0.00 ± 0.00 (2 rounds)" in capsys.readouterr().out
    with pytest.raises(SystemExit) as stop:                  # deal 1 is not in the file
        paired(spec + ["--rounds", "2", "--first", "1", "--reuse-base", str(part)])
    assert stop.value.code == 2


def test_paired_benchmark_resumes_from_its_journal(tmp_path, capsys):
    """--journal: every round kept as it ends; cut short (a torn last line too), the same
    command plays the rest and gives the whole run's results; another run's journal is a
    usage error."""
    from benchmarks.bench_paired import main as paired
    spec = ["--players", "3", "--bot", "greedy", "--base", "random", "--rounds", "6"]
    whole, journal = tmp_path / "whole.json", tmp_path / "journal.jsonl"
    paired(spec + ["--jobs", "2", "--journal", str(journal), "--rounds-json", str(whole)])
    lines = journal.read_text().splitlines()
    assert json.loads(lines[0]) == {"paired": {"players": 3, "bot": "greedy",
                                               "base": "random", "warmup": 0}}
    assert sorted(json.loads(line)["deal"] for line in lines[1:]) == list(range(6))
    journal.write_text("\n".join(lines[:3]) + "\n" + lines[3][:20])
    again = tmp_path / "again.json"
    paired(spec + ["--jobs", "1", "--journal", str(journal), "--rounds-json", str(again)])
    assert "resuming: 2 of 6 rounds already in" in capsys.readouterr().err
    assert json.loads(again.read_text()) == json.loads(whole.read_text())
    assert len(journal.read_text().splitlines()) == 7
    with pytest.raises(SystemExit) as stop:
        paired(spec[:5] + ["sampler"] + spec[6:] + ["--journal", str(journal)])
    assert stop.value.code == 2


def test_paired_benchmark_joins_files_of_other_deals(tmp_path, capsys):
    """Several files, each of its own deals, read as one run (--from-json, --compare,
    --reuse-base); a deal in two files is a usage error."""
    from benchmarks.bench_paired import main as paired
    rounds = [[2, 4], [6, 6], [1, 5], [3, 3]]
    other = [[3, 4], [6, 6], [2, 5], [3, 3]]
    files = {}
    for name, data, first, last in (("a1", rounds, 0, 2), ("a2", rounds, 2, 4),
                                    ("b1", other, 0, 2), ("b2", other, 2, 4),
                                    ("whole", rounds, 0, 4), ("owhole", other, 0, 4)):
        files[name] = str(tmp_path / f"{name}.json")
        with open(files[name], "w") as out:
            json.dump({"first": first, "rounds": data[first:last]}, out)
    paired(["--from-json", files["a2"], files["a1"], "--compare", files["b1"], files["b2"]])
    joined = capsys.readouterr().out
    paired(["--from-json", files["whole"], "--compare", files["owhole"]])
    whole = capsys.readouterr().out
    def figures(out):
        return re.findall(r"(4 paired rounds: .*%\)|round by round: .*)", out)
    assert figures(joined) == figures(whole) and len(figures(whole)) == 2
    assert "round by round: -0.50 ± " in whole
    with pytest.raises(SystemExit) as stop:
        paired(["--from-json", files["a1"], files["whole"]])
    assert stop.value.code == 2 and "deal 0 is in two of the files" in capsys.readouterr().err
    spec = ["--players", "3", "--bot", "greedy", "--base", "random", "--jobs", "1"]
    with pytest.raises(SystemExit) as stop:        # deals 0-1 and 3 known: 2 is missing
        paired(spec + ["--rounds", "3", "--first", "1", "--reuse-base", files["a1"],
                       str(tmp_path / "three.json")])
    assert stop.value.code == 2


def test_paired_benchmark_warms_the_tables_up(tmp_path):
    """--warmup K: each table first plays K other deals as earlier rounds of its game (the
    candidate's decisions in them timed too), then the scored deal."""
    from benchmarks.bench_paired import main as paired, paired_round
    plain = paired_round((3, "greedy", "random", 5, None, 0))
    warm = paired_round((3, "greedy", "random", 5, None, 1))
    assert (plain.cards.count, warm.cards.count) == (10, 20)   # the seat's decisions
    out = tmp_path / "w.json"
    paired(["--players", "3", "--bot", "greedy", "--base", "random", "--jobs", "1",
            "--rounds", "2", "--warmup", "1", "--rounds-json", str(out)])
    assert len(json.loads(out.read_text())["rounds"]) == 2
    with pytest.raises(SystemExit) as stop:
        paired(["--bot", "greedy", "--warmup", "-1"])
    assert stop.value.code == 2


def test_rollout_outcomes_are_each_card_played_out_alone():
    """`card_outcomes` (all decisions and cards in one batch) against each (decision, card)
    played out on its own, one round at a time, every seat its own model's likeliest card."""
    from solver.core.deal import deal
    from solver.learn.lockstep import Tables
    from solver.learn.model import others_model
    from solver.learn.rollouts import ROLLOUT_COST_SAMPLES, card_outcomes
    models = [load_cached("net-v1.npz"), others_model("sampler")]
    rng = random.Random(5)
    positions = [deal(GameConfig(players=3), rng) for _ in range(3)]
    tables = Tables.dealt(3, positions)
    seat_model = np.array([[0, 1, 1], [0, 0, 0], [1, 0, 1]])
    for _ in range(6):                                     # into the round
        tables.play(np.tile([[0, 1, 2]], (3, 1)) % tables.size)
    choice = np.array([[1, 0, 2], [3, 3, 0], [0, 1, 1]])
    table, seat = np.array([0, 1, 1, 2]), np.array([0, 0, 2, 1])
    got = card_outcomes(tables, choice, table, seat, models, seat_model)
    assert got.shape == (4, tables.size)
    for d in range(4):
        for card in range(tables.size):
            one = tables.subset([table[d]])
            index = choice[[table[d]]].copy()
            index[0, seat[d]] = card
            before = one.penalties[0, seat[d]]
            one.play(index)
            while one.size > 0:
                views = one.views()
                picks = []
                for k in range(3):
                    x = encode(views.subset([k]), ROLLOUT_COST_SAMPLES)
                    picks.append(int(np.argmax(models[seat_model[table[d], k]].logits(x)[0,
                                                                              :one.size])))
                one.play(np.array([picks]))
            assert got[d, card] == one.penalties[0, seat[d]] - before
    # drawn cards: the same for a seed; nearly the likeliest at a temperature near 0
    drawn = [card_outcomes(tables, choice, table, seat, models, seat_model, 1.0,
                           np.random.default_rng(7)) for _ in range(2)]
    assert np.array_equal(drawn[0], drawn[1]) and not np.array_equal(drawn[0], got)
    cold = card_outcomes(tables, choice, table, seat, models, seat_model, 0.01,
                         np.random.default_rng(7))
    assert np.array_equal(cold, got)


def test_rollout_rounds_are_chunked_deterministic_and_targeted(tmp_path):
    from solver.learn.rollouts import RolloutConfig, targets
    config = RolloutConfig(network="net-v1.npz", opponents=("sampler",), rounds=4,
                           chunk_rounds=2, seed=3, players=(3, 4), shares=(1, 1))
    assert generate(config, str(tmp_path)) == 2
    assert generate(config, str(tmp_path)) == 0                  # resumed: nothing to do
    raw, extra = load_chunks(str(tmp_path))
    assert np.allclose(extra["target"].sum(axis=1), 1)
    sizes = (raw.hand > 0).sum(axis=1)
    assert all(not extra["target"][i, sizes[i]:].any() for i in range(len(sizes)))
    assert np.array_equal(config.play(2, 2)["target"], extra["target"][extra["round"] >= 2])
    shares = targets(np.array([[3, 4, 3, 9]]), 1.0)[0]
    assert shares[0] == shares[2] and shares[1] == pytest.approx(shares[0] / np.e)
    assert shares[4:].sum() == 0 and shares[3] < 1e-2
    with pytest.raises(ConfigError, match="self share of 1"):
        RolloutConfig(opponents=()).check()
    assert RolloutConfig(opponents=(), self_share=1.0, rounds=1).play(0, 1)["round"].size


def test_rollouts_command(tmp_path):
    out = tmp_path / "rollouts"
    result = run(["train", "rollouts", "--out", str(out), "--rounds", "2", "--chunk", "2",
                  "--players", "3", "--weights", "1", "--opponents", "sampler",
                  "--network", "net-v1.npz"])
    assert result.exit_code == 0, result.output
    assert json.loads((out / "config.json").read_text())["kind"] == "rollouts"
    assert "opponents" in error_line(run(["train", "rollouts", "--out", str(tmp_path / "x"),
                                          "--opponents", "", "--self-share", "0.5"]))
    assert "weights" in error_line(run(["train", "rollouts", "--out", str(tmp_path / "y"),
                                        "--opponents", str(tmp_path / "none.npz")]))
    assert "temperatures" in error_line(run(["train", "rollouts", "--out", str(tmp_path / "z"),
                                             "--rollout-temperature", "0.001"]))
    assert "prior" in error_line(run(["train", "rollouts", "--out", str(tmp_path / "z"),
                                      "--prior", "-1"]))
    assert not any((tmp_path / name).exists() for name in "xyz")


def test_a_chunk_not_made_by_generate_is_refused_in_one_line(tmp_path):
    """Made by hand with the wrong shapes, it failed deep in the training (a traceback)."""
    from solver.errors import ConfigError
    from solver.learn.data import load_chunks
    arrays = {"players": np.full(3, 4, np.int8), "deck": np.full(3, 104, np.int8),
              "turn": np.zeros(3, np.int8), "hand": np.zeros((3, 10), np.int8),
              "rows": np.zeros((3, 4, 5), np.int8), "seen": np.zeros((3, 105), bool),
              "penalties": np.zeros((3, 10), np.int16), "scores": np.zeros((3, 10), np.int16),
              "target": np.zeros((3, 3), np.float32), "outcome": np.zeros((3, 10), np.int16),
              "round": np.zeros(3, np.int32)}
    np.savez(tmp_path / "chunk_00000.npz", **arrays)
    with pytest.raises(ConfigError, match=r"its target has the shape \(3, 3\)"):
        load_chunks(str(tmp_path))
    arrays["target"] = np.zeros((3, 10), np.float32)
    arrays["players"][:] = 50
    np.savez(tmp_path / "chunk_00000.npz", **arrays)
    with pytest.raises(ConfigError, match="seat counts are not all 2..10"):
        load_chunks(str(tmp_path))


def test_a_teacher_that_fails_at_once_leaves_no_folder_behind(tmp_path):
    """Its settings alone would tie the folder: the same command with another teacher was
    then refused ("games made with other settings")."""
    from tests.support import run
    folder = tmp_path / "games"
    result = run(["train", "generate", "--out", str(folder), "--rounds", "4", "--chunk", "2",
                  "--teacher", "program:path=/bin/true", "--seed", "1"])
    # Whether it ends before or after its first question is a race: either line is right.
    assert result.exit_code == 2 and re.search("ended (without answering|before it was asked)",
                                               result.stderr), result.stderr
    assert not folder.exists()
    result = run(["train", "generate", "--out", str(folder), "--rounds", "4", "--chunk", "2",
                  "--teacher", "greedy", "--seed", "1"])
    assert result.exit_code == 0, result.output


def test_a_teacher_s_card_not_in_its_hand_is_named(tmp_path):
    """A program teacher's answer is checked as a table checks it (it reached the target's
    `hand.index` as "999 is not in list")."""
    from tests.support import run
    bot = tmp_path / "wild.py"
    bot.write_text(f"#!{sys.executable}\nimport sys\nfor line in sys.stdin:\n"
                   "    print(999, flush=True)\n")
    bot.chmod(0o755)
    folder = tmp_path / "games"
    assert_input_error(run(["train", "generate", "--out", str(folder), "--rounds", "1",
                            "--teacher", f"program:path={bot}", "--seed", "1"]),
                       "played 999, not in its hand")
    assert not folder.exists()


def test_a_fresh_run_keeps_files_of_others_and_drops_its_own_killed_epoch(tmp_path):
    """A run folder without a checkpoint: an epoch file or log of someone else is refused
    and kept; the log of a run of ours stopped before its first checkpoint is cut (its
    epoch is done again, not logged twice). Too little data for a validation set says so
    (it printed nan)."""
    pytest.importorskip("torch")
    data = str(tmp_path / "data")
    generate(GenerateConfig(teacher="greedy", rounds=1, chunk_rounds=1, seed=1,
                            players=(3,), weights=(1,)), data)
    run_folder = tmp_path / "run"
    run_folder.mkdir()
    fit = ["train", "fit", "--data", data, "--out", str(run_folder), "--hidden", "8"]
    for name, kind in [("log.jsonl", "training run's log"), ("epoch_001.npz", "weights")]:
        (run_folder / name).write_text("mine\n")
        assert_input_error(run(fit + ["--epochs", "1"]), name, kind, "not overwritten")
        assert (run_folder / name).read_text() == "mine\n"
        (run_folder / name).unlink()
    result = run(fit + ["--epochs", "1"])
    assert result.exit_code == 0 and "no validation rounds" in result.stdout
    assert "nan" not in result.stdout
    (run_folder / "checkpoint.pt").unlink()          # stopped after the log, before it
    assert run(fit + ["--epochs", "2"]).exit_code == 0
    epochs = [json.loads(line)["epoch"] for line in (run_folder / "log.jsonl").open()]
    assert epochs == [1, 2]


def test_a_stopped_generation_says_what_it_kept(tmp_path, monkeypatch):
    """Ctrl-C after a chunk: how many are in the folder, and that the same command goes on."""
    from solver.errors import Interrupted
    from solver.learn import data as data_module
    from tests.support import run

    def one_chunk_then_ctrl_c(config, folder, progress=None):
        progress(1, 3)
        raise Interrupted()
    monkeypatch.setattr(data_module, "generate", one_chunk_then_ctrl_c)
    result = run(["train", "generate", "--out", str(tmp_path / "g"), "--rounds", "6",
                  "--chunk", "2", "--teacher", "greedy"])
    assert result.exit_code == 130
    assert "1 of 3 chunks in" in result.stderr and "the same command resumes" in result.stderr


def test_a_stopped_fit_says_how_far_it_got(tmp_path, monkeypatch):
    from solver.errors import Interrupted
    from solver.learn import train as train_module
    from tests.support import run

    def two_epochs_then_ctrl_c(data, out, config, report=None):
        for epoch in (1, 2):
            report({"epoch": epoch, "train_ce": 1.0, "seconds": 0.1})
        raise Interrupted()
    monkeypatch.setattr(train_module, "train", two_epochs_then_ctrl_c)
    data = tmp_path / "data"
    data.mkdir()
    result = run(["train", "fit", "--data", str(data), "--out", str(tmp_path / "run"),
                  "--epochs", "5"])
    assert result.exit_code == 130
    assert "2 of 5 epochs done in" in result.stderr and "the same command goes on" in result.stderr
