"""The bot `nsearch` (solver/learn/search.py): one ply of expectimax over sampled worlds with
the network. Legal play at every table, determinism, worlds consistent with the seat's view,
the look-ahead's scores against the Python rules, and one-line spec errors."""
import json
import random

import numpy as np
import pytest

from solver.core.player import Player, PlayerView
from solver.core.rules import GameConfig, fewest_bullheads_chooser, play_turn, row_bullheads
from solver.errors import ConfigError
from solver.learn.features import COST_FEATURE
from solver.learn.model import NEG, CostPolicy, load_cached, others_model
from solver._rules import c_play_turn
from solver.learn.features import encode, raw_views, rows_array
from solver.learn.search import (WORLD_COST_SAMPLES, Leaf, NetSearchOptions, analyse_cards,
                                 belief_weights, card_scores, effective_worlds,
                                 log_likelihoods, next_views, others_cards, others_views,
                                 log_softmax, resample, row_scores, sample_worlds)
from solver.play.bots import make_bot
from solver.play.runner import play_round
from tests.support import assert_input_error, run

FAST = "nsearch:worlds=3"


class Recorder(Player):
    """Plays like `bot`, keeping every view it was asked a card for."""

    def __init__(self, bot: Player):
        self.bot, self.name, self.views = bot, bot.name, []

    def choose_card(self, view: PlayerView) -> int:
        self.views.append(view)
        return self.bot.choose_card(view)

    def choose_row(self, view: PlayerView, card: int) -> int:
        return self.bot.choose_row(view, card)


def _views(config: GameConfig, seed: int):
    """Every card decision seat 0 faced in a round of `nsearch` bots."""
    seat0 = Recorder(make_bot(FAST, seed=0))
    bots = [seat0] + [make_bot(FAST, seed=k) for k in range(1, config.players)]
    play_round(config, bots, random.Random(seed))
    return seat0.views


@pytest.mark.parametrize("config", [GameConfig(players=2), GameConfig(players=3),
                                    GameConfig(players=4), GameConfig(players=10),
                                    GameConfig.variant(2)], ids=str)
def test_plays_legal_rounds(config):
    """The runner refuses an illegal card or row: whole rounds at every kind of table."""
    bots = [make_bot(FAST + ":rows=value" if k % 2 else FAST, seed=k)
            for k in range(config.players)]
    result = play_round(config, bots, random.Random(config.players))
    assert len(result.record["turns"]) == 10


@pytest.mark.parametrize("config", [GameConfig(players=10), GameConfig.variant(2)], ids=str)
def test_plays_legal_rounds_with_belief(config):
    bots = [make_bot(FAST + ":belief=6:others=net-v1.npz", seed=k)
            for k in range(config.players)]
    result = play_round(config, bots, random.Random(config.players))
    assert len(result.record["turns"]) == 10


def test_is_deterministic_for_a_seed():
    config = GameConfig(players=4)
    records = [play_round(config, [make_bot(FAST, seed=f"s{k}") for k in range(4)],
                          random.Random(7)).record for _ in range(2)]
    assert records[0] == records[1]
    view = _views(config, 3)[2]
    cards = {make_bot("nsearch:worlds=2", seed=s).choose_card(view) for s in range(12)}
    assert cards <= set(view.hand)


@pytest.mark.parametrize("config", [GameConfig(players=4), GameConfig(players=10),
                                    GameConfig.variant(2), GameConfig(players=2)], ids=str)
def test_worlds_are_consistent_with_the_view(config):
    net = load_cached()
    for view in _views(config, 11)[:-1:3]:
        seen = set(view.hand) | {c for row in view.start_rows for c in row}
        seen |= {c for cards in view.played for c in cards}
        seen |= {c for row in view.rows for c in row}
        worlds = sample_worlds(view, 5, random.Random(1))
        for hands in worlds:
            assert hands[view.seat] == tuple(sorted(view.hand))
            others = [h for k, h in enumerate(hands) if k != view.seat]
            cards = [c for h in others for c in h]
            assert all(len(h) == len(view.hand) for h in others)
            assert len(set(cards)) == len(cards) and not set(cards) & seen
            assert all(1 <= c <= config.deck for c in cards)
            if config.deck == 10 * config.players + 4:     # every card dealt
                assert sorted(cards) == view.unseen()
        if config.deck == 10 * config.players + 4 and config.players == 2:
            assert len(set(worlds)) == 1        # nothing hidden: the one world there is
        for hands, picks in zip(worlds, others_cards(net, view, worlds, random.Random(2))):
            assert set(picks) == set(range(config.players)) - {view.seat}
            assert all(picks[k] in hands[k] for k in picks)


@pytest.mark.parametrize("config", [GameConfig(players=3), GameConfig(players=5),
                                    GameConfig.variant(2)], ids=str)
def test_views_built_as_arrays_are_the_views_of_the_seats(config):
    """The look-ahead builds its batches from the seat's raw view; they equal the raw views
    of the PlayerViews they stand for: every other seat's now, ours after each turn."""
    for view in _views(config, 5)[:-1]:
        parent = raw_views([view])
        worlds = sample_worlds(view, 3, random.Random(4))
        seats = [k for k in range(view.players) if k != view.seat]
        expected = raw_views([PlayerView(view.config, k, view.rows, hands[k], view.start_rows,
                                         view.played, view.penalties, view.scores, view.turn)
                              for hands in worlds for k in seats])
        got = others_views(view, parent, worlds)
        for key, value in expected.arrays().items():
            assert (got.arrays()[key] == value).all(), key
        turns, views = [], []
        hand = sorted(view.hand)
        for hands in worlds:
            for j, card in enumerate(hand):
                cards = [card if k == view.seat else hands[k][j % len(hand)]
                         for k in range(view.players)]
                rows, taken = c_play_turn(view.rows, cards, [None] * view.players)
                turns.append((j, cards, taken, rows))
                views.append(PlayerView(
                    view.config, view.seat, tuple(map(tuple, rows)), hand[:j] + hand[j + 1:],
                    view.start_rows, view.played + (tuple(cards),),
                    tuple(p + t for p, t in zip(view.penalties, taken)), view.scores,
                    view.turn + 1))
        got = next_views(view, parent, np.array([j for j, _, _, _ in turns]),
                         np.array([c for _, c, _, _ in turns]),
                         np.array([t for _, _, t, _ in turns]),
                         rows_array([r for _, _, _, r in turns]))
        for key, value in raw_views(views).arrays().items():
            assert (got.arrays()[key] == value).all(), key


def test_scores_this_turn_by_the_rules():
    """With no leaf value, a card's score is its mean bullheads this turn against the others'
    sampled cards, resolved again here by the Python rules (a too-low card: the cheapest
    row, ours too, as nothing after the turn counts), from the same worlds and draws (same
    seed)."""
    net = load_cached()
    config = GameConfig(players=4)
    for view in _views(config, 5)[:-1:2]:
        scores = card_scores(net, view, NetSearchOptions(6, "own", Leaf.ZERO), random.Random(9))
        rng = random.Random(9)
        worlds = sample_worlds(view, 6, rng)
        picks = others_cards(net, view, worlds, rng)
        for card in view.hand:
            total = 0
            for theirs in picks:
                cards = [card if k == view.seat else theirs[k] for k in range(4)]
                _, taken = play_turn(view.rows, cards, fewest_bullheads_chooser)
                total += row_bullheads(taken[view.seat])
            assert scores[card] == pytest.approx(total / 6)


def test_playouts_to_the_end_by_the_rules():
    """In the 24-card 2-player game nothing is hidden; with two cards in hand the playout's
    last turn is forced, so a card's score is this turn against the sampled card plus the
    last turn, both resolved here by the Python rules, whatever the depth (the turns played
    out before the value head: one is all there is). Where our card is too low, we choose
    its row knowing the turn's cards: the row of least bullheads plus the value head's of
    our view after the turn; the other seat's too-low card takes the cheapest row."""
    net = load_cached()
    config = GameConfig.variant(2)
    checked = chosen = 0
    for seed in range(12):
        for view in _views(config, seed):
            if len(view.hand) != 2:
                continue
            for depth in (10, 1):
                scores = card_scores(net, view, NetSearchOptions(3, "own", "playout", depth),
                                     random.Random(5))
                rng = random.Random(5)
                worlds = sample_worlds(view, 3, rng)
                picks = others_cards(net, view, worlds, rng)
                other = 1 - view.seat
                for card in view.hand:
                    total = 0
                    for hands, theirs in zip(worlds, picks):
                        cards = [card if k == view.seat else theirs[k] for k in range(2)]
                        last = [None, None]
                        last[view.seat] = [c for c in view.hand if c != card][0]
                        last[other] = [c for c in hands[other] if c != theirs[other]][0]
                        ends, guide = [], []
                        for r in range(4):
                            chooser = (lambda k, rows, c, r=r: r if k == view.seat
                                       else fewest_bullheads_chooser(k, rows, c))
                            rows, taken = play_turn(view.rows, cards, chooser)
                            now = [row_bullheads(t) for t in taken]
                            after = PlayerView(config, view.seat, tuple(map(tuple, rows)),
                                               (last[view.seat],), view.start_rows,
                                               view.played + (tuple(cards),),
                                               tuple(p + t for p, t in zip(view.penalties, now)),
                                               view.scores, view.turn + 1)
                            value = net.values(encode(raw_views([after]), WORLD_COST_SAMPLES))
                            guide.append(now[view.seat] + float(value[0]))
                            _, rest = play_turn(rows, last, fewest_bullheads_chooser)
                            ends.append(now[view.seat] + row_bullheads(rest[view.seat]))
                        if len(set(ends)) == 1:          # not too low: every row the same
                            total += ends[0]
                            continue
                        pick = min(range(4), key=lambda r: guide[r])
                        cheapest = min(range(4), key=lambda r: (row_bullheads(view.rows[r]), r))
                        chosen += pick != cheapest
                        total += ends[pick]
                    assert scores[card] == pytest.approx(total / 3)
                checked += 1
    assert checked >= 2 and chosen >= 1


def test_prior_adds_the_policys_surprise():
    """With a prior, each card's score grows by prior * -log(the policy's probability)."""
    net = load_cached()
    view = _views(GameConfig(players=4), 6)[2]
    plain = card_scores(net, view, NetSearchOptions(4), random.Random(3))
    with_prior = card_scores(net, view, NetSearchOptions(4, prior=2.0), random.Random(3))
    logits, _ = net.policy([view])
    z = logits[0, :len(view.hand)].astype(float)
    p = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
    for j, card in enumerate(sorted(view.hand)):
        assert with_prior[card] == pytest.approx(plain[card] - 2.0 * np.log(p[j]))


def test_the_others_model_may_be_another_network():
    """`others=FILE`: the others' cards come from that network's policy (the same draws as
    with it as the only network), the values from the bot's own."""
    from solver.learn.model import load_cached as cached
    view = _views(GameConfig(players=4), 6)[3]
    mine, theirs = cached(), cached("net-v1.npz")
    options = NetSearchOptions(4, leaf="zero", prior=0)
    assert card_scores(mine, view, options, random.Random(1), theirs) == \
        card_scores(theirs, view, options, random.Random(1))
    bot = make_bot("nsearch:others=net-v1.npz:worlds=2", seed=1)
    assert bot.others_net is theirs and bot.net is mine
    with pytest.raises(ConfigError, match="weights"):
        make_bot("nsearch:others=/nowhere.npz")


def test_leaf_values_change_the_scores():
    """The value head and the playouts add the rest of the round: scores grow."""
    net = load_cached()
    view = _views(GameConfig(players=4), 4)[0]
    zero = card_scores(net, view, NetSearchOptions(4, "own", "zero"), random.Random(3))
    for leaf, depth in (("net", 10), ("rollout", 10), ("playout", 10), ("playout", 2)):
        full = card_scores(net, view, NetSearchOptions(4, "own", leaf, depth),
                           random.Random(3))
        assert set(full) == set(view.hand)
        assert sum(full.values()) > sum(zero.values())


@pytest.mark.parametrize("spec, word", [("nsearch:worlds=0", "worlds"),
                                        ("nsearch:worlds=many", "worlds"),
                                        ("nsearch:reward=best", "reward"),
                                        ("nsearch:value=exact", "value"),
                                        ("nsearch:depth=0", "depth"),
                                        ("nsearch:depth=11", "depth"),
                                        ("nsearch:temperature=0", "temperature"),
                                        ("nsearch:prior=-1", "prior"),
                                        ("nsearch:belief=-2", "belief"),
                                        ("nsearch:rows=cheap", "rows"),
                                        ("nsearch:plan=65", "plan"),
                                        ("nsearch:confident=1.5", "confident"),
                                        ("nsearch:confident=-0.1", "confident"),
                                        ("nsearch:seconds=-1", "seconds"),
                                        ("belief:seconds=nan", "seconds"),
                                        ("belief:seconds=1e6", "seconds"),
                                        ("nsearch:plan=4", "plan needs value=playout"),
                                        ("nsearch:depth=2:value=rollout",
                                         "depth needs value=playout")])
def test_spec_errors_are_one_line(spec, word):
    with pytest.raises(ConfigError, match=word):
        make_bot(spec)
    assert_input_error(run(["tournament", "-n", "2", "--bots", f"{spec},greedy"]), word)


def test_playouts_draw_the_others_cards_from_the_others_model():
    """In playouts too the other seats draw from `others_net` and our seat from the bot's
    own network: with the same network as both, the same scores as with one; with two
    different ones, scores that neither network alone gives."""
    from solver.learn.model import load_cached as cached
    view = _views(GameConfig(players=4), 6)[1]
    mine, theirs = cached(), cached("net-v1.npz")
    options = NetSearchOptions(4, leaf="playout", prior=0)
    alone = card_scores(mine, view, options, random.Random(4))
    assert card_scores(mine, view, options, random.Random(4), mine) == alone
    mixed = card_scores(mine, view, options, random.Random(4), theirs)
    assert mixed != alone
    assert mixed != card_scores(theirs, view, options, random.Random(4))


def test_several_models_of_the_others_are_told_apart_by_the_table():
    """`others=A+B`: each world has one model for every other seat, drawn with the deal by
    how well the two explain the others' play: after three turns at a table of net-v1 the
    worlds take net-v1, at a table of net-v2 net-v2. With one model, every world has it."""
    v1, v2 = load_cached("net-v1.npz"), load_cached("net-v2.npz")
    for table, model in (("net:weights=net-v1.npz", 0), ("net:weights=net-v2.npz", 1)):
        seat0 = Recorder(make_bot("net", seed=0))
        play_round(GameConfig(players=4), [seat0] + [make_bot(table, seed=k) for k in (1, 2, 3)],
                   random.Random(0))
        view = seat0.views[3]
        rng = random.Random(1)
        pairs = resample(*belief_weights([v1, v2], view, 64, rng), 64, rng)
        assert sum(m == model for _, m in pairs) >= 56
        assert {h for h, _ in pairs} <= set(sample_worlds(view, 64, random.Random(1)))
        rng = random.Random(2)
        assert {m for _, m in resample(*belief_weights([v1], view, 32, rng), 16, rng)} == {0}
    bot = make_bot("nsearch:others=net-v1.npz+net-v2.npz", seed=1)
    assert bot.others_net == (v1, v2)
    with pytest.raises(ConfigError, match="weights"):
        make_bot("nsearch:others=net-v1.npz+/nowhere.npz")


def test_a_table_of_samplers_is_told_apart_by_the_cost_model():
    """`others=...+sampler`: the rule model of players of this turn's cheapest card rates
    each card by its sampled cost (the cheapest highest, empty slots out), and the worlds of
    a table of `sampler`s take it after three turns, those of a table of net-v1 the net."""
    sampler, v1 = others_model("sampler"), load_cached("net-v1.npz")
    assert isinstance(sampler, CostPolicy)
    seat0 = Recorder(make_bot("net", seed=0))
    play_round(GameConfig(players=4), [seat0] + [make_bot("sampler", seed=k) for k in (1, 2, 3)],
               random.Random(0))
    x = encode(raw_views(seat0.views[:5]))
    logits = sampler.logits(x)
    cost = x.cards[:, :, COST_FEATURE]
    assert (logits[~x.mask] == NEG).all()
    for i in range(len(logits)):
        real = np.flatnonzero(x.mask[i])
        assert np.argmax(logits[i, real]) == np.argmin(cost[i, real])
    for table, model in (("sampler", 1), ("net:weights=net-v1.npz", 0)):
        seat0 = Recorder(make_bot("net", seed=0))
        play_round(GameConfig(players=4), [seat0] + [make_bot(table, seed=k) for k in (1, 2, 3)],
                   random.Random(0))
        rng = random.Random(1)
        pairs = resample(*belief_weights([v1, sampler], seat0.views[3], 64, rng), 64, rng)
        assert sum(m == model for _, m in pairs) >= 48, (table, pairs)
    bot = make_bot("belief:others=net-v1.npz+sampler", seed=1)
    assert bot.others_net == (v1, sampler)
    assert make_bot("nsearch:others=sampler", seed=1).others_net == sampler


def _playout_starts(worlds: int):
    """A 4-player view of 6+ cards, its raw view, and the playout starts of the sampled
    worlds as `playouts` takes them (rows [W, 4, 5], hands [W, 4, size] with 0 for the card
    played, the cards and bullheads [W, 4]): every seat has played its lowest card."""
    view = next(v for v in _views(GameConfig(players=4), 6) if len(v.hand) >= 6)
    rows, left, cards, taken = [], [], [], []
    for hands in sample_worlds(view, worlds, random.Random(7)):
        played = [min(h) for h in hands]
        after, took = c_play_turn(view.rows, played, [None] * 4)
        rows.append(after)
        left.append([[0 if c == played[k] else c for c in h] for k, h in enumerate(hands)])
        cards.append(played)
        taken.append(took)
    return view, raw_views([view]), (rows_array(rows), np.array(left), np.array(cards),
                                     np.array(taken))


def test_each_playout_draws_from_its_worlds_model():
    """Playouts with two models: the others' cards of a start whose model is 1 come from
    the second network, as if it were the only one; of a start whose model is 0, the first."""
    from solver.learn.search import playouts
    mine, theirs = load_cached(), load_cached("net-v1.npz")
    view, parent, starts = _playout_starts(3)
    for model, alone in ((0, mine), (1, theirs)):
        both = playouts(mine, view, parent, *starts, random.Random(1), 3, (mine, theirs),
                        model_of=np.full(len(starts[0]), model))
        assert (both == playouts(mine, view, parent, *starts, random.Random(1), 3, alone)).all()


def test_the_playouts_of_one_world_share_their_random_numbers():
    """Common random numbers: playouts of one block (`shared` of them, the cards of one
    world) draw with the same numbers, so identical starts in a block play out identically,
    where playouts with draws of their own do not."""
    from solver.learn.search import playouts
    net = load_cached()
    view, parent, starts = _playout_starts(2)
    starts = [np.repeat(a, 3, axis=0) for a in starts]
    shared = playouts(net, view, parent, *starts, random.Random(1), shared=3)
    assert shared[0] == shared[1] == shared[2] and shared[3] == shared[4] == shared[5]
    alone = [playouts(net, view, parent, *starts, random.Random(s)) for s in range(3)]
    assert any(len(set(a[:3])) > 1 for a in alone)


def _slow_log_likelihood(net, view, hands):
    """The same sum, one PlayerView per earlier turn and other seat, rows replayed by the
    Python rules with the row choices the table saw."""
    rows = [list(r) for r in view.start_rows]
    penalties = [0] * view.players
    total = 0.0
    for t, cards in enumerate(view.played):
        for k in range(view.players):
            if k == view.seat:
                continue
            held = sorted(hands[k] + tuple(view.played[u][k]
                                           for u in range(t, len(view.played))))
            past = PlayerView(view.config, k, tuple(map(tuple, rows)), tuple(held),
                              view.start_rows, view.played[:t], tuple(penalties),
                              view.scores, t, row_choices=view.row_choices[:t])
            logits, _ = net.forward(encode(raw_views([past]), WORLD_COST_SAMPLES))
            z = logits[0, :len(held)].astype(np.float64)
            total += z[held.index(cards[k])] - np.log(np.exp(z - z.max()).sum()) - z.max()
        choices = view.row_choices[t]
        rows, taken = play_turn(rows, cards, lambda k, _rows, _card: choices[k])
        penalties = [p + row_bullheads(c) for p, c in zip(penalties, taken)]
    return total


@pytest.mark.parametrize("config", [GameConfig(players=3), GameConfig(players=5)], ids=str)
def test_worlds_are_weighed_by_the_others_past_play(config):
    """The batched likelihood of each world equals the slow one; believed worlds are worlds
    of the candidates (consistent with the view) and favour the likelier ones."""
    net = load_cached("net-v1.npz")
    for view in _views(config, 9)[2:-1:3]:
        worlds = sample_worlds(view, 4, random.Random(3))
        got = log_likelihoods(net, view, worlds)
        assert np.allclose(got, [_slow_log_likelihood(net, view, w) for w in worlds],
                           atol=1e-3)
        pool = sample_worlds(view, 64, random.Random(8))
        rng = random.Random(8)
        picked = [h for h, _ in resample(*belief_weights([net], view, 64, rng, power=1.0), 64,
                                         rng)]
        assert set(picked) <= set(pool) and len(picked) == 64
        ll = dict(zip(pool, log_likelihoods(net, view, pool)))
        assert np.mean([ll[w] for w in picked]) > np.mean(list(ll.values()))
    first = _views(config, 9)[0]
    assert (log_likelihoods(net, first, sample_worlds(first, 3, random.Random(1))) == 0).all()


def test_intervals_count_the_worlds_the_weights_leave():
    """Worlds drawn from weighed candidates are worth at most the candidates' effective
    number: equal weights leave every world, weights on one deal leave one. A card's
    `samples` (its advice interval's count) is that number under `belief`, the worlds
    otherwise."""
    assert effective_worlds(np.full(96, 1 / 96), 16) == 16
    assert effective_worlds(np.full(8, 1 / 8), 16) == pytest.approx(8)
    assert effective_worlds(np.eye(1, 96)[0], 16) == pytest.approx(1)
    view = _views(GameConfig(players=4), 9)[8]
    net = load_cached()
    options = NetSearchOptions(worlds=16, belief=96)
    _, w = belief_weights([load_cached("net-v1.npz")], view, 96, random.Random(0))
    cards = analyse_cards(net, view, options, random.Random(0), load_cached("net-v1.npz"))
    assert {e.samples for e in cards} == {effective_worlds(w, 16)}
    assert 1 <= cards[0].samples < 16      # eight turns of play leave fewer likely deals
    cards = analyse_cards(net, view, NetSearchOptions(worlds=16), random.Random(5))
    assert {e.samples for e in cards} == {16}


def test_a_time_budget_draws_batches_of_worlds_while_one_more_fits(monkeypatch):
    """With `seconds` the worlds come in batches of `worlds` (each from its own candidates)
    while the time spent and one more batch of the mean's time fit the budget: on a clock
    that a batch moves by one second, a budget of 3.5 s holds three batches, 0 one. The
    intervals count every batch's worlds."""
    import solver.learn.search as search
    ticks = iter(range(1000))
    monkeypatch.setattr(search, "perf_counter", lambda: float(next(ticks)))
    view = _views(GameConfig(players=4), 9)[4]
    net = load_cached()
    for seconds, batches in ((0.0, 1), (3.5, 3), (1.9, 1), (2.0, 2)):
        drawn = []
        cards = analyse_cards(net, view, NetSearchOptions(worlds=4, seconds=seconds),
                              random.Random(0), None, drawn)
        assert len(drawn) == 4 * batches
        assert {e.samples for e in cards} == {4.0 * batches}
    # `nimmt best` reports every batch's worlds and candidates
    advice = run(["best", "--bot", "belief:worlds=4:seconds=3.5", "--json",
                  "104; 20, 92, 65, 103; 5 10 11 21 24 37 40 53 85 101, ?, ?, ?"])
    assert advice.exit_code == 0
    answer = json.loads(advice.stdout)
    assert (answer["worlds"], answer["candidates"]) == (12, 3 * 96)
    # its --seconds is the time budget of the default player, or of the one given
    for options, player, worlds in ((["--seconds", "3.5"], "belief:seconds=3.5", 48),
                                    (["--seconds", "2", "--bot", "belief:worlds=4"],
                                     "belief:worlds=4:seconds=2.0", 8)):
        advice = run(["best", "--json", *options,
                      "104; 20, 92, 65, 103; 5 10 11 21 24 37 40 53 85 101, ?, ?, ?"])
        assert advice.exit_code == 0, advice.stderr
        answer = json.loads(advice.stdout)
        assert (answer["player"], answer["worlds"]) == (player, worlds)


def test_power_tempers_the_weights():
    """`power` scales the log-likelihoods: 0 leaves the candidates equal, a higher power
    concentrates the weights on fewer of them (the same candidates: the same seed)."""
    view = _views(GameConfig(players=4), 9)[6]
    nets = [load_cached("net-v1.npz")]
    ess = [effective_worlds(belief_weights(nets, view, 96, random.Random(5), power)[1], 96)
           for power in (0.0, 0.25, 0.5, 1.0)]
    assert ess[0] == pytest.approx(96) and ess[0] > ess[1] > ess[2] > ess[3]
    assert make_bot("belief:power=0.25").options.power == 0.25
    with pytest.raises(ConfigError, match="power must be 0..1"):
        make_bot("belief:power=1.5")


def test_a_model_no_world_draws_is_out_for_the_round():
    """Of several models under `belief`, one that no world drew at a decision with history is
    not weighed again that round; a new round starts with all of them again."""
    bot = make_bot(FAST + ":belief=16:others=net-v1.npz+net-v2.npz", seed=0)
    for table, left, deal in (("net:weights=net-v1.npz", (0,), 23),
                              ("net:weights=net-v2.npz", (1,), 4)):
        others = [make_bot(table, seed=k) for k in (1, 2, 3)]
        play_round(GameConfig(players=4), [bot] + others, random.Random(deal))
        assert bot.in_play[1] == left


def test_a_planned_card_is_the_best_against_the_draws(monkeypatch):
    """With `plan`, our first card played out is the one of least mean against the others'
    draws. In the 24-card 2-player game with three cards in hand nothing is hidden; with
    every draw made the other seat's lowest card, a card's value is this turn, then the
    better of our two next cards against its lowest, then the last turn, all resolved here
    by the Python rules."""
    import solver.learn.search as search
    lowest = lambda logits, size, gen, temperature=1.0, u=None: np.zeros(len(logits), int)
    monkeypatch.setattr(search, "sample_slots", lowest)
    net = load_cached()
    config = GameConfig.variant(2)
    view = next(v for v in _views(config, 3) if len(v.hand) == 3)
    seat, other = view.seat, 1 - view.seat

    def turn(rows, ours, theirs):
        cards = [0, 0]
        cards[seat], cards[other] = ours, theirs
        rows, taken = play_turn(rows, cards, fewest_bullheads_chooser)
        return rows, row_bullheads(taken[seat])

    theirs = sorted(view.unseen())
    for plan in (1, 3):
        scores = analyse_cards(net, view, NetSearchOptions(2, leaf="playout", depth=10,
                                                           plan=plan), random.Random(1))
        for e in scores:
            rows, now = turn(view.rows, e.card, theirs[0])
            mine = [c for c in view.hand if c != e.card]
            best = []
            for c2 in mine:
                after, second = turn(rows, c2, theirs[1])
                _, last = turn(after, [c for c in mine if c != c2][0], theirs[2])
                best.append(second + last)
            assert e.expected == pytest.approx(now + min(best))


def test_a_confident_policy_is_played_without_a_search(monkeypatch):
    """With `confident=P` a decision where the policy gives a card at least P is that card,
    with no search (and no scores left for a teacher's target); below P it is searched."""
    import solver.play.bots as bots
    net = load_cached()
    views = _views(GameConfig(players=4), 6)[:-1]
    logits, _ = net.policy(views)
    top = [float(np.exp(log_softmax(logits[i:i + 1, :len(v.hand)])).max())
           for i, v in enumerate(views)]
    sure = [v for v, p in zip(views, top) if p >= 0.9]
    unsure = [v for v, p in zip(views, top) if p < 0.9]
    assert sure and unsure
    assert make_bot("belief").confident == 0.9 and make_bot("nsearch").confident == 0

    def no_search(*args, **kwargs):
        raise AssertionError("searched")
    monkeypatch.setattr(bots, "card_scores", no_search)
    bot = make_bot(FAST + ":confident=0.9", seed=0)
    for view in sure:
        assert bot.choose_card(view) == make_bot("net").choose_card(view)
        assert bot.last is None
    with pytest.raises(AssertionError, match="searched"):
        bot.choose_card(unsure[0])
    monkeypatch.undo()
    assert make_bot(FAST + ":confident=1", seed=0).choose_card(unsure[0]) in unsure[0].hand


def _row_views(config: GameConfig, left: int):
    """Row questions with `left` cards in the asker's hand (after its card), from rounds of
    `random` bots: (view, card)."""
    found = []

    class Asked(Player):
        def __init__(self, seed):
            self.bot = make_bot("random", seed=seed)

        def choose_card(self, view):
            return self.bot.choose_card(view)

        def choose_row(self, view, card):
            if len(view.hand) == left:
                found.append((view, card))
            return self.bot.choose_row(view, card)

    for seed in range(400):
        play_round(config, [Asked(f"{seed}/{k}") for k in range(config.players)],
                   random.Random(seed))
        if len(found) >= 3:
            break
    assert found
    return found


def test_searched_rows_by_the_rules():
    """`rows=search`: in the 24-card 2-player game with one card left after the turn nothing
    is hidden, so a row's score is its bullheads plus the last turn (forced; a too-low card
    takes the cheapest row), both resolved here by the Python rules, whatever the depth and
    with the worlds weighed or not; with no card left it is the row's bullheads alone."""
    net = load_cached()
    config = GameConfig.variant(2)
    for view, card in _row_views(config, 1):
        seat, other = view.seat, 1 - view.seat
        expected = []
        for r in range(4):
            rows, taken = play_turn(view.rows, list(view.revealed),
                                    lambda k, rows, c, r=r: r)
            last = [0, 0]
            last[seat], last[other] = view.hand[0], view.unseen()[0]
            _, after = play_turn(rows, last, fewest_bullheads_chooser)
            expected.append(row_bullheads(taken[seat]) + row_bullheads(after[seat]))
        for options in (NetSearchOptions(3, leaf="playout", depth=1),
                        NetSearchOptions(3, leaf="playout", depth=10, belief=4)):
            assert row_scores(net, view, card, options, random.Random(2)) \
                == pytest.approx(expected)
        bot = make_bot("belief:worlds=3:belief=4:rows=search", seed=1)
        assert bot.choose_row(view, card) == min(range(4), key=lambda r: (expected[r], r))
    for view, card in _row_views(GameConfig(players=4), 0):
        scores = row_scores(net, view, card, NetSearchOptions(3, leaf="playout", depth=2),
                            random.Random(2))
        assert scores == [row_bullheads(row) for row in view.rows]


def test_searched_rows_are_reproducible_and_leave_the_cards_alone():
    """The same seed chooses the same rows; a searched row draws apart from the cards, so
    the card decisions of a round are those of `rows=greedy` up to a row that differs."""
    config = GameConfig(players=10)
    records = [play_round(config, [make_bot(FAST + ":belief=6:rows=search", seed=f"s{k}")
                                   for k in range(10)], random.Random(3)).record
               for _ in range(2)]
    assert records[0] == records[1]
    view, card = _row_views(config, 5)[0]
    searched, greedy = (make_bot(FAST + rows, seed=0) for rows in (":rows=search", ""))
    assert searched.choose_row(view, card) in range(4)
    later = _views(config, 4)[3]
    assert searched.choose_card(later) == greedy.choose_card(later)
    assert searched.last == greedy.last          # the same worlds: the same scores
    with pytest.raises(ConfigError, match="rows must be greedy or value"):
        make_bot("net:rows=search")
