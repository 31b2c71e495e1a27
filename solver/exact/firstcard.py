"""The exact search's opening-card model: which card of each hand a new node's restricted
game starts from (cext/firstcard.pxd; docs/exact-search.md, "Move ordering").

A proof of "value >= t" at a node needs one card (or a mix) of player 1 that holds against
every reply; the card whose worst entry is highest (the largest margin) makes the easiest
proof, as its children's values lie furthest from their thresholds. The model scores each
card of a hand from features the search computes (cext/firstcard.pxd: this turn's
bullheads against each reply, the card's row, and from 5 cards the node's estimate), with
a small network per hand size: one hidden layer, a card's features and its hand's mean in,
a score out. It is trained by solver/exact/firstcard_train.py on the largest-margin card of
exact root matrices of seeded positions, and shipped as weights; it changes the search's
work, never a value.
"""
import os
from dataclasses import dataclass
from typing import Optional

import numpy as np

from .. import errors
from ..files import npz_kind, read_npz, write_atomically

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_WEIGHTS = os.path.join(HERE, "weights", "first-card-v1.npz")
WEIGHTS_FILE = npz_kind("an opening-card model's weights (.npz)", "w1")   # what `save` writes
FEATURES = 25            # per card (cext/firstcard.pxd FC_FEATURES)
INPUTS = 2 * FEATURES    # a card's features, then the mean of its hand's
HIDDEN = 32              # cext/firstcard.pxd FC_HIDDEN
FROM_CARDS = 5           # the model opens nodes of this many cards and more,
UP_TO_CARDS = 8          # up to this many (above, the 7-card weights cost more nodes)
LEVELS = (5, 6, 7)       # hand sizes with weights of their own (8-10 use the largest)


@dataclass(frozen=True)
class FirstCardModel:
    """Weights per hand size k (index k; zeros where untrained): w1[k] (INPUTS x HIDDEN),
    b1[k] (HIDDEN), w2[k] (HIDDEN), with the inputs' normalisation folded in; used at
    nodes of `low` to `high` cards."""
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    low: int = FROM_CARDS
    high: int = UP_TO_CARDS

    def scores(self, features: np.ndarray) -> np.ndarray:
        """The score of each card of a hand of k cards from its features (k x FEATURES), as
        the search computes it."""
        k = len(features)
        m = min(k, len(self.w1) - 1)
        inputs = np.concatenate([features, np.repeat(features.mean(0, keepdims=True), k, 0)], 1)
        return np.maximum(inputs @ self.w1[m] + self.b1[m], 0.0) @ self.w2[m]

    def save(self, path: str) -> str:
        def write(temporary: str) -> None:
            with open(temporary, "wb") as handle:
                np.savez(handle, w1=self.w1, b1=self.b1, w2=self.w2, low=self.low, high=self.high)
        return write_atomically(path, write)


def load(path: str = DEFAULT_WEIGHTS) -> FirstCardModel:
    """Weights written by `FirstCardModel.save` (a one-line NimmtError if unreadable)."""
    data = read_npz(path, ("w1", "b1", "w2", "low", "high"), "opening-card weights")
    try:
        model = FirstCardModel(*(np.ascontiguousarray(data[name], dtype=np.float64)
                                 for name in ("w1", "b1", "w2")), int(data["low"]),
                               int(data["high"]))
    except (TypeError, ValueError) as exc:
        raise errors.NimmtError(f"cannot read opening-card weights"
                                f" {errors.quote(path, errors.SHORT_PATH)}: {exc}") from None
    if (model.w1.ndim != 3 or model.w1.shape[1:] != (INPUTS, HIDDEN)
            or model.b1.shape != (len(model.w1), HIDDEN)
            or model.w2.shape != (len(model.w1), HIDDEN)):
        raise errors.NimmtError(f"opening-card weights {errors.quote(path, errors.SHORT_PATH)}"
                                f" have the wrong shapes")
    if not all(np.isfinite(w).all() for w in (model.w1, model.b1, model.w2)):
        raise errors.NimmtError(f"opening-card weights {errors.quote(path, errors.SHORT_PATH)}"
                                f" hold numbers that are not finite")
    return model


_default: Optional[FirstCardModel] = None


def default_model() -> FirstCardModel:
    """The shipped weights, read once."""
    global _default
    if _default is None:
        _default = load()
    return _default
