"""What a seat knows, as arrays: the raw view of a decision and its encoding for the network.

A `RawViews` batch holds, for B decisions, exactly what the deciding seat may see (its hand,
the rows, every card it has seen, the seat count, the turn, this round's penalties and the
totals, seat-relative): enough to re-encode saved games when the features change. `encode`
turns a batch into the network's input, one pass a view in C (cext/features.pyx):

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

from .._features import FEATURES, encode_views
from .._sim import sampled_costs
from ..core.player import PlayerView
from ..core.rules import HAND_SIZE, ROW_LIMIT, ROWS

MAX_SEATS = 10
INT16_MAX = 32_767                    # the raw arrays keep penalties and scores in int16
ROW_SCALE = 20.0                      # bullheads: a typical dear row, to keep inputs near 1
COST_SAMPLES = 128                    # draws of the others' cards per view
# fixed by cext/features.pxd; CARDS: arrays indexed by card number, slot 0 unused
CARD_FEATURES, TABLE_FEATURES, COST_FEATURE, CARDS = FEATURES
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
    """[10]: per-seat `values` as `seat` sees them (itself first, then in turn, 0 after);
    int16, so values past 32,767 (a position may give up to 1,000,000) are cut to it: the
    networks do not read them (`encode`)."""
    n = len(values)
    out = np.zeros(MAX_SEATS, dtype=np.int16)
    out[:n] = [min(values[(seat + i) % n], INT16_MAX) for i in range(n)]
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


def encode(raw: RawViews, cost_samples: int = COST_SAMPLES) -> Encoded:
    """The network's input for a batch, in C (`cext/features.pyx`: one pass a view, the
    arithmetic of each feature as listed above). `cost_samples`: draws for the sampled cost
    feature (fewer: cheaper and noisier than what the network was trained on); a fixed seed,
    so the same view always gives the same numbers."""
    cards, mask, table, unseen = encode_views(raw.players, raw.deck, raw.hand, raw.rows,
                                              raw.seen)
    # each card's mean bullheads this turn against random unseen cards of the others (a
    # too-low card takes the cheapest row), by the C rules, as `immediate_costs` measures it
    costs = sampled_costs(raw.rows, raw.hand, unseen, raw.players, cost_samples)
    cards[:, :, COST_FEATURE] = (costs / ROW_SCALE) * mask
    return Encoded(cards, mask, table)
