"""The C encoding of a view (cext/features.pyx) against the numpy form it replaced, kept here
as the reference: every feature the same to the bit, but the binomial risk, whose powers numpy
computes its own way (its float64 power is neither the C library's nor the same on every
processor): within 1e-15 there; and the networks' outputs the same to the bit."""
import random

import numpy as np
import pytest

from solver._sim import sampled_costs
from solver.core.rules import GameConfig, HAND_SIZE, ROW_LIMIT, STANDARD_DECK, bullheads
from solver.learn import search
from solver.learn.features import (CARD_FEATURES, CARDS, COST_SAMPLES, MAX_SEATS, ROW_SCALE,
                                   TABLE_FEATURES, Encoded, RawViews, encode, raw_views)
from solver.learn.model import load_cached
from solver.play.bots import make_bot
from solver.play.runner import play_round
from tests.test_netsearch import Recorder

BULLHEADS = np.array([0] + [bullheads(c) for c in range(1, CARDS)], dtype=np.float32)
RISK = (9, 10)                    # the features made of the binomial risk


def _cumcount(mask: np.ndarray) -> np.ndarray:
    """[B, 105] bool -> [B, 106] counts: out[:, c] = cards below c in the mask."""
    out = np.zeros((mask.shape[0], CARDS + 1), dtype=np.int32)
    np.cumsum(mask, axis=1, out=out[:, 1:])
    return out


def numpy_encode(raw: RawViews, cost_samples: int = COST_SAMPLES) -> Encoded:
    """The encoding in numpy, array by array (the form the C one replaced)."""
    b = len(raw)
    hand = raw.hand.astype(np.int64)
    mask = hand > 0
    rows = raw.rows.astype(np.int64)
    lengths = (rows > 0).sum(axis=2)                                    # [B, 4]
    ends = np.take_along_axis(rows, np.maximum(lengths - 1, 0)[:, :, None], axis=2)[:, :, 0]
    row_bulls = BULLHEADS[rows].sum(axis=2)                             # [B, 4]
    deck = raw.deck.astype(np.float32)[:, None]
    opponents = (raw.players.astype(np.float32) - 1)[:, None]
    hand_size = mask.sum(axis=1).astype(np.float32)[:, None]

    in_hand = np.zeros((b, CARDS), dtype=bool)
    np.put_along_axis(in_hand, hand, True, axis=1)
    in_hand[:, 0] = False
    card_numbers = np.arange(CARDS)[None, :]
    on_rows = np.zeros((b, CARDS), dtype=bool)
    np.put_along_axis(on_rows, rows.reshape(b, -1), True, axis=1)   # seen, whatever `seen` says
    unseen = (~raw.seen & ~in_hand & ~on_rows & (card_numbers >= 1)
              & (card_numbers <= raw.deck[:, None]))
    n_unseen = np.maximum(unseen.sum(axis=1), 1).astype(np.float32)[:, None]
    below_unseen = _cumcount(unseen)
    below_hand = _cumcount(in_hand)

    # the row each card goes to: the largest end below it (none: too low)
    below = ends[:, None, :] < hand[:, :, None]                          # [B, 10, 4]
    too_low = ~below.any(axis=2)
    target = np.argmax(np.where(below, ends[:, None, :], -1), axis=2)     # [B, 10]
    t_end = np.take_along_axis(ends, target, axis=1)
    t_len = np.take_along_axis(lengths, target, axis=1)
    t_bulls = np.take_along_axis(row_bulls, target, axis=1)
    # cards that may land in front of the card this turn: unseen ones in its gap
    gap_unseen = (np.take_along_axis(below_unseen, hand, axis=1)
                  - np.take_along_axis(below_unseen, t_end + 1, axis=1))
    gap_hand = (np.take_along_axis(below_hand, hand, axis=1)
                - np.take_along_axis(below_hand, t_end + 1, axis=1))
    free = ROW_LIMIT - t_len
    # chance that at least `free` of the opponents' cards fall in the gap (each opponent
    # plays one card, taken as an independent draw from the unseen cards)
    p = gap_unseen / n_unseen
    risk = _binomial_tail(opponents, p, free)
    cheapest = row_bulls.min(axis=1)[:, None]
    lowest_end = ends.min(axis=1)[:, None]
    low_unseen = np.take_along_axis(below_unseen, np.broadcast_to(lowest_end, hand.shape),
                                    axis=1)
    rank = np.cumsum(mask, axis=1) - 1

    f = np.zeros((b, HAND_SIZE, CARD_FEATURES), dtype=np.float32)
    tl = too_low.astype(np.float32)
    ok = 1.0 - tl
    f[..., 0] = hand / deck
    f[..., 1] = BULLHEADS[hand] / 7.0
    f[..., 2] = tl
    f[..., 3] = ok * (hand - t_end) / deck
    f[..., 4] = ok * t_len / ROW_LIMIT
    f[..., 5] = ok * t_bulls / ROW_SCALE
    f[..., 6] = ok * gap_unseen / 10.0
    f[..., 7] = ok * p
    f[..., 8] = ok * gap_hand / 10.0
    f[..., 9] = ok * risk
    f[..., 10] = ok * risk * t_bulls / ROW_SCALE
    f[..., 11] = tl * cheapest / ROW_SCALE
    f[..., 12] = np.take_along_axis(below_unseen, hand, axis=1) / n_unseen
    f[..., 13] = rank / HAND_SIZE
    f[..., 14] = tl * low_unseen / n_unseen          # others' cards that are lower still
    f[..., 15] = ok * (t_len == ROW_LIMIT)
    f[..., 16] = sampled_costs(raw.rows, raw.hand, unseen, raw.players,
                               cost_samples) / ROW_SCALE
    f *= mask[:, :, None]

    order = np.argsort(ends, axis=1, kind="stable")                    # rows by their end
    g = np.zeros((b, TABLE_FEATURES), dtype=np.float32)
    g[np.arange(b), raw.players.astype(np.int64) - 2] = 1.0              # 0..8: seat count
    g[:, 9] = raw.players / MAX_SEATS
    g[:, 10] = hand_size[:, 0] / HAND_SIZE
    g[:, 11:15] = np.take_along_axis(ends, order, axis=1) / deck
    g[:, 15:19] = np.take_along_axis(lengths, order, axis=1) / ROW_LIMIT
    g[:, 19:23] = np.take_along_axis(row_bulls, order, axis=1) / ROW_SCALE
    g[:, 23] = n_unseen[:, 0] / STANDARD_DECK
    g[:, 24] = (opponents * hand_size / n_unseen)[:, 0]   # share of unseen cards in hands
    g[:, 25] = cheapest[:, 0] / ROW_SCALE
    g[:, 26] = low_unseen[:, 0] / n_unseen[:, 0]
    return Encoded(f, mask, g)


def _binomial_tail(n: np.ndarray, p: np.ndarray, k: np.ndarray) -> np.ndarray:
    """P(X >= k) for X ~ Binomial(n, p), elementwise; n up to 9, k in 0..4."""
    n = np.broadcast_to(n, p.shape).astype(np.int64)
    pmf_total = np.zeros_like(p, dtype=np.float64)
    q = 1.0 - p
    # sum the pmf for j < k and return 1 - that: k <= 4, so at most 4 terms
    for j in range(ROW_LIMIT):
        comb = _comb(n, j)
        term = comb * p ** j * q ** np.maximum(n - j, 0)
        pmf_total += np.where((j < k) & (j <= n), term, 0.0)
    return np.clip(1.0 - pmf_total, 0.0, 1.0).astype(np.float32)


_COMB = np.array([[float(np.prod(range(m - j + 1, m + 1)) / np.prod(range(1, j + 1)))
                   for j in range(ROW_LIMIT)] for m in range(MAX_SEATS + 1)])


def _comb(n: np.ndarray, j: int) -> np.ndarray:
    return _COMB[np.clip(n, 0, MAX_SEATS), j]


def views_of_rounds(players, rounds):
    views = []
    for index in range(rounds):
        bots = [Recorder(make_bot("net", seed=k)) for k in range(players)]
        play_round(GameConfig(players=players), bots, random.Random(f"features{index}"))
        views += [v for bot in bots for v in bot.views if len(v.hand) > 1]
    return views


@pytest.mark.parametrize("players", [2, 3, 4, 6, 10])
def test_the_c_encoding_is_the_numpy_one(players):
    views = views_of_rounds(players, 2 if players == 10 else 4)
    batches = [raw_views(views)]
    rng = random.Random(players)
    for v in views[::5]:
        worlds = search.sample_worlds(v, 4, rng)
        batches.append(search.others_views(v, raw_views([v]), worlds))   # hidden hands
        if v.played:
            batches.append(search.past_views(v)[0])                      # empty hands
    for raw in batches:
        for samples in (COST_SAMPLES, 32):
            want, got = numpy_encode(raw, samples), encode(raw, samples)
            assert np.array_equal(want.mask, got.mask)
            assert want.table.tobytes() == got.table.tobytes()
            exact = [f for f in range(CARD_FEATURES) if f not in RISK]
            assert want.cards[..., exact].tobytes() == got.cards[..., exact].tobytes()
            assert np.abs(want.cards[..., RISK] - got.cards[..., RISK]).max() <= 1e-15
            for name in ("net-v1.npz", "net-v3.npz"):
                net = load_cached(name)
                if raw.hand.any():
                    (wl, wv), (gl, gv) = net.forward(want), net.forward(got)
                    assert wl.tobytes() == gl.tobytes() and wv.tobytes() == gv.tobytes()


def test_the_c_encoding_refuses_cards_out_of_range():
    raw = raw_views(views_of_rounds(4, 1)[:2])
    raw.hand[0, 0] = 105
    with pytest.raises(ValueError, match="0..104"):
        encode(raw)
