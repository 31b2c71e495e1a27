"""What a seat knows, as arrays: the raw view of a decision and its encoding for the network.

A `RawViews` batch holds, for B decisions, exactly what the deciding seat may see (its hand,
the rows, every card it has seen, the seat count, the turn, this round's penalties and the
totals, seat-relative): enough to re-encode saved games when the features change. `encode`
turns a batch into the network's input, vectorized over the batch:

- one vector per card slot of the hand (`CARD_FEATURES` numbers): where the card would go,
  how exposed it is there (unseen cards in the gap, the row's free places, a binomial risk of
  being the 6th card), what it takes this turn against the others playing unseen cards at
  random (measured by the C rules, as `sampler` does, on a fixed seed), its own bullheads,
  its rank in the hand;
- one vector for the whole table (`TABLE_FEATURES` numbers): the seat count, the turn, the
  four rows sorted by their end card, how many cards are unseen.

Nothing in the encoding depends on the order of the rows, of the hand or of the other seats:
the network sees a set of cards in a set of rows (tests/test_learn.py checks it).
"""
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from .._sim import sampled_costs
from ..core.player import PlayerView
from ..core.rules import HAND_SIZE, ROW_LIMIT, ROWS, STANDARD_DECK, bullheads

MAX_SEATS = 10
CARDS = STANDARD_DECK + 1             # arrays indexed by card number, slot 0 unused
BULLHEADS = np.array([0] + [bullheads(c) for c in range(1, CARDS)], dtype=np.float32)
ROW_SCALE = 20.0                      # bullheads: a typical dear row, to keep inputs near 1
CARD_FEATURES = 17
COST_SAMPLES = 128                    # draws of the others' cards per view
TABLE_FEATURES = 27
FEATURE_VERSION = 1


@dataclass
class RawViews:
    """B decisions as arrays (0 pads every short list)."""
    players: np.ndarray      # [B] int: seats at the table
    deck: np.ndarray         # [B] int: highest card (104, or 10n+4)
    turn: np.ndarray         # [B] int: 0-based turn of the round
    hand: np.ndarray         # [B, 10] int: the seat's cards, ascending, then 0
    rows: np.ndarray         # [B, 4, 5] int: the rows as they lie, 0 after each row's end
    seen: np.ndarray         # [B, 105] bool: cards seen outside the hand (start rows, played)
    penalties: np.ndarray    # [B, 10] int: this round's bullheads, the seat first, then in turn
    scores: np.ndarray       # [B, 10] int: totals of earlier rounds, the same order

    def __len__(self) -> int:
        return len(self.players)

    def subset(self, index) -> "RawViews":
        return RawViews(**{k: v[index] for k, v in self.arrays().items()})

    def arrays(self):
        return {k: getattr(self, k) for k in ("players", "deck", "turn", "hand", "rows",
                                              "seen", "penalties", "scores")}

    @staticmethod
    def concat(parts: Sequence["RawViews"]) -> "RawViews":
        return RawViews(**{k: np.concatenate([p.arrays()[k] for p in parts])
                           for k in parts[0].arrays()})


def rows_array(tables: Sequence[Sequence[Sequence[int]]]) -> np.ndarray:
    """[P, 4, 5] int8: the rows of each table as they lie, 0 after each row's end."""
    out = np.zeros((len(tables), ROWS, ROW_LIMIT), dtype=np.int8)
    for i, lying in enumerate(tables):
        for r, row in enumerate(lying):
            out[i, r, :len(row)] = row
    return out


def seat_relative(values: Sequence[int], seat: int) -> np.ndarray:
    """[10]: per-seat `values` as `seat` sees them (itself first, then in turn, 0 after)."""
    n = len(values)
    out = np.zeros(MAX_SEATS, dtype=np.int16)
    out[:n] = [values[(seat + i) % n] for i in range(n)]
    return out


def raw_views(views: Sequence[PlayerView]) -> RawViews:
    """The raw arrays of some card decisions (views of `choose_card`)."""
    b = len(views)
    players = np.zeros(b, dtype=np.int8)
    deck = np.zeros(b, dtype=np.int8)
    turn = np.zeros(b, dtype=np.int8)
    hand = np.zeros((b, HAND_SIZE), dtype=np.int8)
    rows = np.zeros((b, ROWS, ROW_LIMIT), dtype=np.int8)
    seen = np.zeros((b, CARDS), dtype=bool)
    penalties = np.zeros((b, MAX_SEATS), dtype=np.int16)
    scores = np.zeros((b, MAX_SEATS), dtype=np.int16)
    for i, v in enumerate(views):
        players[i], deck[i], turn[i] = v.players, v.config.deck, v.turn
        cards = sorted(v.hand)
        hand[i, :len(cards)] = cards
        for r, row in enumerate(v.rows):
            rows[i, r, :len(row)] = row
        for row in v.start_rows:
            seen[i, list(row)] = True
        for played in v.played:
            seen[i, list(played)] = True
        seen[i, list(v.out_of_play)] = True
        if v.revealed:
            seen[i, list(v.revealed)] = True
        penalties[i] = seat_relative(v.penalties, v.seat)
        scores[i] = seat_relative(v.scores, v.seat) if v.scores else 0
    return RawViews(players, deck, turn, hand, rows, seen, penalties, scores)


@dataclass
class Encoded:
    cards: np.ndarray     # [B, 10, CARD_FEATURES] float32
    mask: np.ndarray      # [B, 10] bool: a real card in the slot
    table: np.ndarray     # [B, TABLE_FEATURES] float32

    def subset(self, index) -> "Encoded":
        return Encoded(self.cards[index], self.mask[index], self.table[index])


def _cumcount(mask: np.ndarray) -> np.ndarray:
    """[B, 105] bool -> [B, 106] counts: out[:, c] = cards below c in the mask."""
    out = np.zeros((mask.shape[0], CARDS + 1), dtype=np.int32)
    np.cumsum(mask, axis=1, out=out[:, 1:])
    return out


def encode(raw: RawViews, cost_samples: int = COST_SAMPLES) -> Encoded:
    """The network's input for a batch (numpy, no Python loop over the batch).
    `cost_samples`: draws for the sampled cost feature (fewer: cheaper and noisier than what
    the network was trained on)."""
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
    f[..., 16] = _sampled_costs(raw, unseen, cost_samples) / ROW_SCALE
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


def _sampled_costs(raw: RawViews, unseen: np.ndarray, samples: int) -> np.ndarray:
    """[B, 10]: each card's mean bullheads this turn against random unseen cards of the
    others (a too-low card takes the cheapest row), by the C rules (what `immediate_costs`
    measures; every view in one call, its cards sharing the draws); a fixed seed, so the
    same view always gives the same numbers."""
    return sampled_costs(raw.rows, raw.hand, unseen, raw.players, samples)


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
