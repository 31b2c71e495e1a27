"""The training of the exact search's opening-card model (solver/exact/firstcard.py),
numpy only: `examples` solves seeded positions exactly and keeps each card's features (as
the search computes them) and margin, its worst entry of the root matrix from its owner's
side, in chunks saved as they finish (a stopped run resumes); `fit` trains one hand size's
network to put the largest-margin card first; `train` does both for every hand size and
writes the weights (`nimmt train first-card`).
"""
import json
import os
import random
from dataclasses import dataclass
from functools import partial
from typing import Callable, Dict, Optional, Sequence, Tuple

import numpy as np

from .. import errors
from .._search import ExactSearch
from ..core.deal import seeded_positions
from ..files import (FIRST_CARD_FOLDER, check_training_folder, read_npz,
                     remove_dead_temporaries, write_atomically, write_text_file)
from ..workers import Unwatched, run_workers
from .engine import RankMap
from .firstcard import FEATURES, FROM_CARDS, HIDDEN, INPUTS, FirstCardModel, default_model
from .rootgame import root_game

CHUNK = 250                # positions per saved chunk of examples
MARGIN_TEMPERATURE = 0.5   # bullheads: the target of a hand is a softmax of its margins


# examples ----------------------------------------------------------------------------------
def position_examples(position) -> Tuple[np.ndarray, np.ndarray]:
    """Both players' features (2 x k x FEATURES) and margins (2 x k) of a solved 2-player
    position: a card's margin is its worst entry of the exact root matrix, from its
    owner's side."""
    ranks = RankMap(position)
    return labelled(ExactSearch(ranks.bulls, 2, 10), ranks.state(position),
                    root_game(position).matrix)


def labelled(search: ExactSearch, state, matrix: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Both players' features of a rank-form state (by `search`'s ranks) and margins from
    its exact root matrix."""
    features = np.array([search.first_card_features(*state, p) for p in (0, 1)])
    margins = np.array([matrix.min(axis=1), (-matrix.T).min(axis=1)])
    return features, margins


# examples from the nodes a search meets -----------------------------------------------------
NODE_ROOT_CARDS = (8, 9, 10)  # the logging searches' roots: of these sizes in turn
NODE_LIMIT = 3_000_000        # matrix nodes of a logging search: the first part of a solve
NODE_QUOTA = {5: 150, 6: 80, 7: 25}   # new nodes labelled per root and hand size, at most
NODE_CHUNK = 12               # roots per saved chunk


def state_examples(search: ExactSearch, state) -> Tuple[np.ndarray, np.ndarray]:
    """As position_examples, for a rank-form state of `search`'s ranks (its table kept: the
    states of one root share their subtrees)."""
    hand1, hand2, rows = state
    search.set_limits()
    search.solve_root(hand1, hand2, rows)
    matrix = np.array([[search.entry_value(hand1, hand2, rows, a, b) for b in hand2]
                       for a in hand1])
    return labelled(search, state, matrix)


def root_node_examples(position, rng: random.Random, quota: Optional[Dict[int, int]] = None,
                       max_nodes: Optional[int] = None):
    """Search `position` (with the shipped opening-card model) for `max_nodes` matrix nodes,
    logging the new nodes of the quota's hand sizes; then label up to quota[k] distinct ones
    of each size, drawn by `rng`. Returns {k: (features, margins)}."""
    quota = quota or NODE_QUOTA
    max_nodes = max_nodes or NODE_LIMIT
    ranks = RankMap(position)
    hand1, hand2, rows = ranks.state(position)
    logger = ExactSearch(ranks.bulls, 1 << 22, 18)
    model = default_model()
    logger.set_first_card(model.w1, model.b1, model.w2, model.low, model.high)
    logger.set_node_log(4_000_000, min(quota), max(quota))
    logger.set_limits(max_nodes)
    logger.solve_root(hand1, hand2, rows)
    by_size: Dict[int, dict] = {k: {} for k in quota}
    for state in logger.node_log():
        by_size[len(state[0])].setdefault(logger.canonical_key(*state)[0], state)
    del logger
    labeller = ExactSearch(ranks.bulls, 1 << 22, 18)
    out = {}
    for k in sorted(quota):
        states = list(by_size[k].values())
        chosen = rng.sample(states, min(quota[k], len(states)))
        pairs = [state_examples(labeller, s) for s in chosen]
        out[k] = (np.concatenate([f for f, _ in pairs]) if pairs
                  else np.zeros((0, k, FEATURES)),
                  np.concatenate([m for _, m in pairs]) if pairs else np.zeros((0, k)))
    return out


def node_chunk_examples(seed: int, index: int, roots: int):
    """The node examples of chunk `index`: `roots` seeded roots of NODE_ROOT_CARDS sizes in
    turn. Returns {k: (features, margins)}."""
    rng = random.Random(2_000_003 * seed + index)
    parts: Dict[int, list] = {k: [] for k in NODE_QUOTA}
    for r in range(roots):
        cards = NODE_ROOT_CARDS[r % len(NODE_ROOT_CARDS)]
        position = next(seeded_positions(1, rng.randrange(1 << 30), cards))
        for k, pair in root_node_examples(position, rng).items():
            parts[k].append(pair)
    return {k: (np.concatenate([f for f, _ in v]), np.concatenate([m for _, m in v]))
            for k, v in parts.items()}


def chunk_seed(seed: int, cards: int, index: int) -> int:
    return 1_000_003 * seed + 1_009 * cards + index


def chunk_examples(seed: int, cards: int, index: int, count: int):
    pairs = [position_examples(p) for p in seeded_positions(count, chunk_seed(seed, cards, index),
                                                            cards)]
    return (np.concatenate([f for f, _ in pairs]), np.concatenate([m for _, m in pairs]))


def chunk_path(folder: str, cards: int, index: int, count: int) -> str:
    # the count in the name: a run asking for more positions makes a short last chunk anew
    return os.path.join(folder, f"cards{cards}-{index:04d}-{count}.npz")


def check_folder(folder: str, seed: int) -> None:
    """Make `folder` for examples of `seed`, or check that it holds such examples (a
    ConfigError if they were made with other settings)."""
    settings = {"kind": "first-card examples", "seed": seed, "chunk": CHUNK,
                "features": FEATURES}
    path = os.path.join(folder, "settings.json")
    check_training_folder(folder, FIRST_CARD_FOLDER)
    found = None
    try:
        os.makedirs(folder, exist_ok=True)
        if os.path.exists(path):
            with open(path, encoding="utf-8") as handle:
                found = json.load(handle)
    except (OSError, ValueError) as exc:
        raise errors.NimmtError(f"cannot use {errors.quote(folder, errors.SHORT_PATH)}:"
                                f" {exc}") from None
    remove_dead_temporaries(folder)          # a killed run's half-written chunk
    if found is None:
        write_text_file(path, json.dumps(settings) + "\n")
    elif found != settings:
        theirs = found if isinstance(found, dict) else {"settings": found}
        raise errors.ConfigError(f"{errors.quote(folder, errors.SHORT_PATH)} holds examples"
                                 f" of other settings"
                                 f" ({errors.first_difference(theirs, settings)})")


def keep_chunks(paths, make: Callable[[int], Dict[str, np.ndarray]], names: Sequence[str],
                jobs: int, progress: Optional[Callable[[int, int], None]]) -> list:
    """Make the chunks of `paths` not yet there (chunk i by make(i), in `jobs` processes),
    each written whole as it finishes, then read them all (in order; their arrays `names`)."""
    missing = [i for i, path in enumerate(paths) if not os.path.exists(path)]
    done = len(paths) - len(missing)
    if progress:
        progress(done, len(paths))

    def keep(index: int, arrays: Dict[str, np.ndarray]) -> None:
        def write(temporary: str) -> None:
            with open(temporary, "wb") as handle:
                np.savez(handle, **arrays)
        write_atomically(paths[index], write)

    if jobs > 1 and len(missing) > 1:
        pending = iter(missing)

        def made(index: int, arrays: Dict[str, np.ndarray], worker: int) -> None:
            nonlocal done
            keep(index, arrays)
            done += 1
            if progress:
                progress(done, len(paths))

        def died(index: int, code: Optional[int], worker: int, deaths: int) -> bool:
            raise errors.NimmtError(f"a worker process ended unexpectedly on chunk {index} (exit"
                             f" status {code}: out of memory?); the same command goes on from"
                             f" the chunks done")

        run_workers(lambda: next(pending, None), min(jobs, len(missing)), Unwatched(make),
                    "nimmt-first-card", made, died)
    else:
        for i in missing:
            keep(i, make(i))
            done += 1
            if progress:
                progress(done, len(paths))
    parts = [read_npz(path, names, "a chunk of examples") for path in paths]
    for path, arrays in zip(paths, parts):
        _check_examples(path, arrays)
    return parts


def _check_examples(path: str, arrays: Dict[str, np.ndarray]) -> None:
    """A chunk's features (examples x cards x FEATURES) and margins (examples x cards)
    agree and are finite numbers; a damaged chunk is named, for the user to remove."""
    for name, features in arrays.items():
        if not name.startswith("features"):
            continue
        margins = arrays.get("margins" + name[len("features"):])
        if features.ndim != 3 or features.shape[2] != FEATURES or margins is None \
                or margins.shape != features.shape[:2] \
                or not (np.isfinite(features).all() and np.isfinite(margins).all()):
            raise errors.NimmtError(f"{errors.quote(path, errors.SHORT_PATH)} is damaged: its"
                                    f" features and margins are not examples of"
                                    f" {FEATURES} features a card (remove it: the same command"
                                    f" makes it again)")


def examples(folder: str, cards: int, positions: int, seed: int, jobs: int = 1,
             progress: Optional[Callable[[int, int], None]] = None
             ) -> Tuple[np.ndarray, np.ndarray]:
    """Features and margins of `positions` seeded positions of `cards` cards a hand (two
    examples each, one a player), in chunks of CHUNK positions kept in `folder`: chunks
    already there are read, not made again. The same seed gives the same examples."""
    check_folder(folder, seed)
    counts = [min(CHUNK, positions - start) for start in range(0, positions, CHUNK)]
    parts = keep_chunks([chunk_path(folder, cards, i, n) for i, n in enumerate(counts)],
                        partial(position_chunk, seed, cards, counts), ("features", "margins"),
                        jobs, progress)
    return (np.concatenate([p["features"] for p in parts]),
            np.concatenate([p["margins"] for p in parts]))


def position_chunk(seed: int, cards: int, counts, index: int) -> Dict[str, np.ndarray]:
    features, margins = chunk_examples(seed, cards, index, counts[index])
    return {"features": features, "margins": margins}


def node_examples(folder: str, roots: int, seed: int, jobs: int = 1,
                  progress: Optional[Callable[[int, int], None]] = None
                  ) -> Dict[int, Tuple[np.ndarray, np.ndarray]]:
    """Features and margins of new nodes met by searches of `roots` seeded roots
    (root_node_examples), by hand size, in chunks of NODE_CHUNK roots kept in `folder`."""
    check_folder(folder, seed)
    counts = [min(NODE_CHUNK, roots - start) for start in range(0, roots, NODE_CHUNK)]
    parts = keep_chunks([os.path.join(folder, f"nodes-{i:04d}-{n}.npz")
                         for i, n in enumerate(counts)],
                        partial(node_chunk, seed, counts),
                        [f"{kind}{k}" for k in sorted(NODE_QUOTA)
                         for kind in ("features", "margins")],
                        jobs, progress)
    return {k: (np.concatenate([p[f"features{k}"] for p in parts]),
                np.concatenate([p[f"margins{k}"] for p in parts])) for k in sorted(NODE_QUOTA)}


def node_chunk(seed: int, counts, index: int) -> Dict[str, np.ndarray]:
    arrays = {}
    for k, (features, margins) in node_chunk_examples(seed, index, counts[index]).items():
        arrays[f"features{k}"] = features
        arrays[f"margins{k}"] = margins
    return arrays


# training ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class FitResult:
    w1: np.ndarray            # INPUTS x HIDDEN, normalisation folded in
    b1: np.ndarray
    w2: np.ndarray
    accuracy: float           # held-out share of hands whose top card has the largest margin
    regret: float             # held-out mean margin lost to the largest (bullheads)
    examples: int


def hand_inputs(features: np.ndarray) -> np.ndarray:
    """n x k x FEATURES -> n x k x INPUTS: each card's features and its hand's mean."""
    return np.concatenate([features, np.repeat(features.mean(1, keepdims=True),
                                               features.shape[1], 1)], 2)


def fit(features: np.ndarray, margins: np.ndarray, epochs: int = 60, seed: int = 0,
        held_out: float = 0.1, lr: float = 3e-3, batch: int = 256) -> FitResult:
    """Train one hand size's network (softmax over the hand, target a softmax of the
    margins at MARGIN_TEMPERATURE) with Adam; the last `held_out` share (after a seeded
    shuffle) only measures it."""
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(features))
    x_all = hand_inputs(features[order])
    m_all = margins[order]
    n = len(x_all) - int(len(x_all) * held_out)
    flat = x_all[:n].reshape(-1, INPUTS)
    mu, sd = flat.mean(0), flat.std(0) + 1e-6
    x = (x_all - mu) / sd
    z = (m_all - m_all.max(1, keepdims=True)) / MARGIN_TEMPERATURE
    target = np.exp(z) / np.exp(z).sum(1, keepdims=True)
    w1 = rng.normal(0, 1 / np.sqrt(INPUTS), (INPUTS, HIDDEN))
    b1 = np.zeros(HIDDEN)
    w2 = rng.normal(0, 1 / np.sqrt(HIDDEN), HIDDEN)
    params = [w1, b1, w2]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    step = 0
    for _ in range(epochs):
        shuffled = rng.permutation(n)
        for start in range(0, n, batch):
            take = shuffled[start:start + batch]
            xb, tb = x[take], target[take]
            h = xb @ w1 + b1
            a = np.maximum(h, 0.0)
            s = a @ w2
            s = s - s.max(1, keepdims=True)
            p = np.exp(s)
            p /= p.sum(1, keepdims=True)
            ds = (p - tb) / len(xb)
            dh = ds[:, :, None] * w2 * (h > 0)
            grads = [np.einsum("nkd,nkh->dh", xb, dh), dh.sum((0, 1)),
                     np.einsum("nkh,nk->h", a, ds)]
            step += 1
            for param, grad, m1, m2 in zip(params, grads, first, second):
                m1 *= 0.9
                m1 += 0.1 * grad
                m2 *= 0.999
                m2 += 0.001 * grad * grad
                param -= lr * (m1 / (1 - 0.9 ** step)) / (np.sqrt(m2 / (1 - 0.999 ** step)) + 1e-8)
    folded_w1 = w1 / sd[:, None]
    folded_b1 = b1 - (mu / sd) @ w1
    test_scores = np.maximum(x_all[n:] @ folded_w1 + folded_b1, 0.0) @ w2
    chosen = m_all[n:][np.arange(len(test_scores)), test_scores.argmax(1)]
    best = m_all[n:].max(1)
    return FitResult(folded_w1, folded_b1, w2.copy(),
                     float((chosen >= best - 1e-9).mean()) if len(best) else float("nan"),
                     float((best - chosen).mean()) if len(best) else float("nan"), n)


def train(folder: str, out: str, positions: Dict[int, int], seed: int = 1, jobs: int = 1,
          epochs: int = 60, report: Callable[[str], None] = lambda line: None,
          progress: Optional[Callable[[str, int, int], None]] = None,
          node_roots: int = 0) -> FirstCardModel:
    """Examples (kept in `folder`) and one fit per hand size of `positions` ({cards: count}
    of seeded roots), with the new nodes met by searches of `node_roots` seeded roots
    (node_examples) beside them; the weights written to `out`. Deterministic for a seed."""
    nodes = {}
    if node_roots:
        step = None if progress is None else (lambda d, t: progress("nodes", d, t))
        nodes = node_examples(folder, node_roots, seed, jobs, step)
    levels = sorted(set(positions) | set(nodes))
    top = max(levels)
    w1 = np.zeros((top + 1, INPUTS, HIDDEN))
    b1 = np.zeros((top + 1, HIDDEN))
    w2 = np.zeros((top + 1, HIDDEN))
    for cards in levels:
        parts = [nodes[cards]] if cards in nodes else []
        if positions.get(cards):
            step = None if progress is None else (lambda d, t, c=cards: progress(c, d, t))
            parts.append(examples(folder, cards, positions[cards], seed, jobs, step))
        features = np.concatenate([f for f, _ in parts])
        margins = np.concatenate([m for _, m in parts])
        result = fit(features, margins, epochs, seed)
        w1[cards], b1[cards], w2[cards] = result.w1, result.b1, result.w2
        report(f"{cards} cards: {result.examples} training hands, held-out top card has the"
               f" largest margin in {result.accuracy:.1%}, {result.regret:.2f} bullheads"
               f" below it on average")
    model = FirstCardModel(w1, b1, w2, min(FROM_CARDS, min(levels)))
    model.save(out)
    return model
