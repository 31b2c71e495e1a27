"""The network at play time, in numpy: a policy over the hand's cards and a value.

A set network over the hand (the same weights for every card, so the order of the hand does
not matter and any hand size from 1 to 10 fits):

    h1[i] = relu(card[i] @ card_in + table @ table_in + b1)       every card slot i
    h2[i] = relu(h1[i] @ card_mid + b2)
    ctx   = relu([mean_i h2[i], max_i h2[i], table] @ ctx_w + ctx_b)   the hand as a whole
    logit[i] = relu(h2[i] @ pol_card + ctx @ pol_ctx + pol_b) @ pol_out + pol_out_b
    value    = relu(ctx @ val_w + val_b) @ val_out + val_out_b

`logit` over the real cards is the policy (softmax); `value` is the bullheads the seat
takes from this turn to the end of the round. Weights are float32 arrays in a `.npz` (with a
`meta` JSON string); the default ones ship in `solver/learn/weights/`. Evaluation is batched
and deterministic (no randomness, float32 throughout). The matrix products run on the
package's own kernel (cext/gemm.pxd) where the processor has AVX2 and FMA, so that the
numbers are the same on all such machines and the speed does not depend on the BLAS
library's choices; elsewhere on numpy's product.
"""
import json
import os
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .. import _gemm
from ..errors import ConfigError
from ..files import npz_kind, read_npz, write_atomically
from ..core.player import PlayerView
from .features import (CARD_FEATURES, COST_FEATURE, FEATURE_VERSION, HAND_SIZE, ROW_SCALE,
                       TABLE_FEATURES, Encoded, encode, raw_views)

WEIGHTS_DIR = os.path.join(os.path.dirname(__file__), "weights")
DEFAULT_WEIGHTS = "net-v3.npz"
PARAMETERS = ("card_in", "table_in", "b1", "card_mid", "b2", "ctx_w", "ctx_b", "pol_card",
              "pol_ctx", "pol_b", "pol_out", "pol_out_b", "val_w", "val_b", "val_out",
              "val_out_b")
NEG = np.float32(-1e9)         # the logit of an empty slot
KERNEL = _gemm.supported()     # the products on cext/gemm.pxd's kernel (else numpy's)


def shapes(hidden: int) -> Dict[str, Tuple[int, ...]]:
    """Every parameter's shape for a hidden width (the training builds the same)."""
    h = hidden
    return {"card_in": (CARD_FEATURES, h), "table_in": (TABLE_FEATURES, h), "b1": (h,),
            "card_mid": (h, h), "b2": (h,), "ctx_w": (2 * h + TABLE_FEATURES, h),
            "ctx_b": (h,), "pol_card": (h, h), "pol_ctx": (h, h), "pol_b": (h,),
            "pol_out": (h, 1), "pol_out_b": (1,), "val_w": (h, h), "val_b": (h,),
            "val_out": (h, 1), "val_out_b": (1,)}


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0, out=x)


@dataclass
class PolicyNet:
    """The network. Its weights are read when it is made (packed for the product kernel):
    change them by making another."""
    weights: Dict[str, np.ndarray]
    meta: Dict[str, Any]

    def __post_init__(self):
        # the matrices of more than one column (the heads' single columns are dot products)
        self._packed = ({k: _gemm.pack(w) for k, w in self.weights.items()
                         if w.ndim == 2 and w.shape[1] > 1} if KERNEL else {})

    def on_numpy(self) -> "PolicyNet":
        """The same network on numpy's matrix product (the kernel's reference, and its
        baseline in benchmarks/bench_inference.py)."""
        plain = PolicyNet.__new__(PolicyNet)
        plain.weights, plain.meta, plain._packed = self.weights, self.meta, {}
        return plain

    def _layer(self, x: np.ndarray, name: str, bias: Optional[np.ndarray] = None,
               row_bias: Optional[np.ndarray] = None, group: int = 1,
               relu: bool = False) -> np.ndarray:
        """x @ weights[name] (x 2-D, float32), then + bias, + row_bias[i // group] on row
        i, max(0, .): on the kernel in one pass as the outputs are stored, else in numpy
        (the same float32 operations in the same order)."""
        w = self.weights[name]
        if self._packed:
            if w.shape[1] == 1 and bias is None and row_bias is None and not relu:
                return _gemm.dot_rows(x, w[:, 0])[:, None]
            return _gemm.matmul(x, self._packed[name], w.shape[0], w.shape[1], bias, row_bias,
                                group, relu)
        out = x @ w
        if bias is not None:
            out += bias
        if row_bias is not None:
            out.reshape(-1, group, out.shape[1])[...] += row_bias[:, None, :]
        return _relu(out) if relu else out

    @property
    def hidden(self) -> int:
        return int(self.weights["b1"].shape[0])

    def forward(self, x: Encoded) -> Tuple[np.ndarray, np.ndarray]:
        """(logits [B, 10], empty slots at -1e9; value [B])."""
        return self._by_size(x, True)

    def logits(self, x: Encoded) -> np.ndarray:
        """The logits [B, 10] alone (the value head not computed: a search that weighs or
        draws cards needs only these)."""
        return self._by_size(x, False)[0]

    def _by_size(self, x: Encoded, value: bool) -> Tuple[np.ndarray, Optional[np.ndarray]]:
        """`_forward` on the batch; a batch of mixed hand sizes (the views of a likelihood:
        every earlier turn) goes by size, so that no row pays for the empty slots of a
        longer hand."""
        sizes = x.mask.sum(axis=1)
        if len(sizes) < 2 * HAND_SIZE or sizes.min() == sizes.max():
            return self._forward(x, value)
        logits = np.full(x.mask.shape, NEG, dtype=np.float32)
        values = np.empty(len(sizes), dtype=np.float32) if value else None
        for size in np.unique(sizes):
            rows = np.flatnonzero(sizes == size)
            logits[rows], part = self._forward(x.subset(rows), value)
            if values is not None:
                values[rows] = part
        return logits, values

    def _forward(self, x: Encoded, value: bool = True
                 ) -> Tuple[np.ndarray, Optional[np.ndarray]]:
        w = self.weights
        h2, ctx, mask, k = self._trunk(x)
        b, h = h2.shape[0], h2.shape[2]
        h3 = self._layer(h2.reshape(b * k, h), "pol_card",
                         row_bias=self._layer(ctx, "pol_ctx", bias=w["pol_b"]), group=k,
                         relu=True)
        scores = self._layer(h3, "pol_out")[:, 0]
        logits = np.full(x.mask.shape, NEG, dtype=np.float32)
        logits[:, :k] = np.where(mask, scores.reshape(b, k) + w["pol_out_b"][0], NEG)
        return logits, (self._value(ctx) if value else None)

    def values(self, x: Encoded) -> np.ndarray:
        """The value [B] alone (the policy head not computed)."""
        return self._value(self._trunk(x)[1])

    def _trunk(self, x: Encoded):
        """Each card's vector (0 on empty slots) and the context, on the slots up to the last
        real card of the batch only (the empty slots after it change nothing: pooling is
        masked). Every product is one 2-D matrix product over all the batch's slots, and the
        sums are made in place: a 3-D product runs one small product per row."""
        w = self.weights
        k = int(np.flatnonzero(x.mask.any(axis=0)).max(initial=0)) + 1
        cards, mask = x.cards[:, :k], x.mask[:, :k]
        b, h = len(cards), self.hidden
        h1 = self._layer(np.ascontiguousarray(cards).reshape(b * k, cards.shape[2]), "card_in",
                         row_bias=self._layer(x.table, "table_in", bias=w["b1"]), group=k,
                         relu=True)
        h2 = self._layer(h1, "card_mid", bias=w["b2"], relu=True).reshape(b, k, h)
        if not mask.all():
            h2 *= mask[:, :, None]                  # h2 >= 0: 0 is a neutral floor for the max
        count = np.maximum(mask.sum(axis=1, dtype=np.float32), 1.0)[:, None]
        mean = h2.sum(axis=1) / count
        peak = h2.max(axis=1)
        ctx = self._layer(np.concatenate([mean, peak, x.table], axis=1), "ctx_w",
                          bias=w["ctx_b"], relu=True)
        return h2, ctx, mask, k

    def _value(self, ctx: np.ndarray) -> np.ndarray:
        w = self.weights
        value = (self._layer(self._layer(ctx, "val_w", bias=w["val_b"], relu=True),
                             "val_out")[:, 0] + w["val_out_b"][0])
        return value.astype(np.float32)

    def policy(self, views: Sequence[PlayerView]) -> Tuple[np.ndarray, np.ndarray]:
        """For B card decisions: (logits [B, 10] over each hand in ascending order, empty
        slots at -1e9; value [B])."""
        return self.forward(encode(raw_views(views)))

    def best_cards(self, views: Sequence[PlayerView]) -> List[int]:
        """The most likely card of each view (ties: the lower card), in one batch."""
        return likeliest_cards(views, self.logits(encode(raw_views(views))))

    def save(self, path: str) -> None:
        """The weights as an .npz at `path` (that very name), written whole or not at all;
        `meta` first (WEIGHTS_FILE tells such a file by it)."""
        def write(temporary: str) -> None:
            with open(temporary, "wb") as handle:
                np.savez(handle, meta=np.array(json.dumps(self.meta, sort_keys=True)),
                         **{k: self.weights[k].astype(np.float32) for k in PARAMETERS})
        write_atomically(path, write)


WEIGHTS_FILE = npz_kind("a network's weights (.npz)", "meta")     # what `save` writes
NEGLIGIBLE = 1e-20     # a weight this small changes no sum of the network by a float32 bit


@dataclass(frozen=True)
class CostPolicy:
    """A model of players who play the card that costs least this turn (the bot `sampler`,
    and heuristic players like it): each card's logit is -`sharpness` times its mean
    bullheads this turn against random unseen cards of the others (the encoding's sampled
    cost). Not a network: no value head. A model of the others for `nsearch` and `belief`
    (`others=...+sampler`)."""
    sharpness: float = 6.0       # logits per bullhead (2 and 12 measured weaker at a table
                                 # of samplers: docs/search-player.md)

    def logits(self, x: Encoded) -> np.ndarray:
        cost = x.cards[:, :, COST_FEATURE] * np.float32(ROW_SCALE)      # float32 throughout
        return np.where(x.mask, np.float32(-self.sharpness) * cost, NEG)


# the models of the others that are not weight files (`others=` of nsearch and belief)
RULE_MODELS = {"sampler": CostPolicy()}


def others_model(name: str):
    """A model of the other seats by name: a rule model (`RULE_MODELS`) or network
    weights (`load_cached`)."""
    return RULE_MODELS[name] if name in RULE_MODELS else load_cached(name)


def likeliest_cards(views: Sequence[PlayerView], logits: np.ndarray) -> List[int]:
    """The card of each view that its row of `policy` logits rates highest (ties: the
    lower card)."""
    best = np.argmax(logits, axis=1)              # the first of equal maxima: the lower card
    return [sorted(v.hand)[i] for v, i in zip(views, best)]


def _flush_negligible(a: np.ndarray) -> np.ndarray:
    """`a` with its negligible numbers set to 0. Training leaves many weights decayed to
    1e-38..1e-20: a product with one of them is subnormal (or the weight itself is), and
    each takes the processor's slow path: they made the matrix products 2 to 11 times
    slower. The network's sums are of 1e-3 and more, where float32 resolves about 1e-10:
    no output can tell them from 0."""
    a[np.abs(a) < NEGLIGIBLE] = 0.0
    return a


def load(path: str) -> PolicyNet:
    """Weights from a `.npz`; a file of another feature version or shape is refused."""
    arrays = read_npz(path, ("meta",) + tuple(PARAMETERS), "network weights")
    try:
        meta = json.loads(str(arrays["meta"]))
        weights = {k: _flush_negligible(arrays[k].astype(np.float32)) for k in PARAMETERS}
    except (ValueError, TypeError):
        raise ConfigError(f"network weights {path}: its meta or arrays are not numbers") from None
    if not isinstance(meta, dict):
        raise ConfigError(f"network weights {path}: its meta is not a JSON object")
    if meta.get("feature_version") != FEATURE_VERSION:
        raise ConfigError(f"network weights {path} are for features version"
                          f" {meta.get('feature_version')}, this code has {FEATURE_VERSION}")
    card_in = weights["card_in"]
    expected = shapes(int(card_in.shape[-1]) if card_in.ndim == 2 else 0)
    for k, shape in expected.items():
        if weights[k].shape != shape:
            raise ConfigError(f"network weights {path}: {k} has shape {weights[k].shape},"
                              f" expected {shape}")
        if not np.isfinite(weights[k]).all():
            raise ConfigError(f"network weights {path}: {k} holds values that are not finite")
    return PolicyNet(weights, meta)


_LOADED: Dict[str, PolicyNet] = {}


def load_cached(path: Optional[str] = None) -> PolicyNet:
    """The weights at `path` (default: the shipped ones; a bare name such as `net-v1.npz`
    that is not a file here: the shipped file of that name), read once per process."""
    path = path or DEFAULT_WEIGHTS
    shipped = os.path.join(WEIGHTS_DIR, path)
    if not os.path.exists(path) and os.path.basename(path) == path and os.path.exists(shipped):
        path = shipped
    if path not in _LOADED:
        _LOADED[path] = load(path)
    return _LOADED[path]
