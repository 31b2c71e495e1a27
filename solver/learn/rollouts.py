"""Policy targets from rollouts of the true deal: one step of policy iteration for the network.

A learner network plays rounds against tables of other models (itself, or one of the
`opponents` in every other seat). At each of its decisions every card of its hand is played
out to the end of the round from the round's true deal, every seat by its own model (its
likeliest card; a too-low card takes the cheapest row), the other seats' cards of this turn
being the ones they actually play. The bullheads the seat takes from there, card by card,
make the target: a softmax of minus those bullheads at `target_temperature` (a card that
costs 1 bullhead more gets e^-1 times the share).

Why the true deal and not sampled worlds: the deal of a round is a draw from what the seat
cannot see, given everything it saw, under the table's real players; a student that sees
only the seat's view, trained on many such draws, learns each card's mean over them. The
rollouts need no model of the hidden hands, and each seat in them acts on its own view, so
no seat's play uses what it could not know. What the target measures is "this card, then
the table's models": the student learns the answers to the tables it was trained at.

The learner's own cards in the rounds themselves are drawn from its policy at `temperature`
(the rounds visit what it would play, and a little more); the other seats play their
likeliest card, as the bot `net` does. Chunks are written and resumed as `data.generate`
writes a teacher's; a round's deal, seats and models depend only on the seed and its number,
the cards drawn on the seed and the chunk.
"""
from dataclasses import asdict, dataclass
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..core.deal import deal
from ..core.rules import HAND_SIZE, GameConfig
from ..errors import ConfigError
from .data import check_rounds, round_start
from .features import RawViews, encode
from .lockstep import Tables, sample_slots
from .model import load_cached, others_model

VIEW_COST_SAMPLES = 128      # the sampled-cost draws of the rounds' own views (as `net` plays)
ROLLOUT_COST_SAMPLES = 32    # ... and of the rollouts' views (as `nsearch`'s worlds)


@dataclass(frozen=True)
class RolloutConfig:
    """`rounds` rounds with the learner `network` ('' for the shipped weights) in every seat
    (a share `self_share` of them) or in one seat of a table of one of `opponents` (weights
    files, shipped names or `sampler`), seat counts drawn from `players` (weights
    `shares`)."""
    network: str = ""
    opponents: Tuple[str, ...] = ("net-v3.npz", "net-v2.npz", "net-v1.npz", "sampler")
    self_share: float = 0.5
    temperature: float = 0.5
    target_temperature: float = 1.0
    others_temperature: float = 0.0    # the other seats' cards in the rounds (0: likeliest)
    rollout_temperature: float = 0.0   # every seat's cards in the rollouts (0: likeliest)
    prior: float = 0.0                 # the learner's log-policy's weight in the target
    rounds: int = 1000
    chunk_rounds: int = 50
    seed: int = 0
    players: Tuple[int, ...] = (4,)
    shares: Tuple[float, ...] = (1.0,)

    def check(self) -> None:
        load_cached(self.network or None)
        for name in self.opponents:
            others_model(name)
        if not self.opponents and self.self_share < 1:
            raise ConfigError("no opponents: every table has to be the learner's own"
                              " (a self share of 1)")
        if not 0 <= self.self_share <= 1:
            raise ConfigError("the self share must be 0..1")
        if not (0.01 <= self.temperature <= 100 and 0.01 <= self.target_temperature <= 100):
            raise ConfigError("temperature and target temperature must be 0.01..100")
        for value in (self.others_temperature, self.rollout_temperature):
            if not (value == 0 or 0.01 <= value <= 100):
                raise ConfigError("the others' and the rollouts' temperatures must be 0 (their"
                                  " likeliest card) or 0.01..100")
        if not 0 <= self.prior <= 100:
            raise ConfigError("the prior must be 0..100")
        check_rounds(self.rounds, self.chunk_rounds, self.players, self.shares)

    def settings(self) -> Dict:
        settings = asdict(self)
        settings.pop("rounds")
        settings["kind"] = "rollouts"
        return settings

    def play(self, first: int, count: int) -> Dict[str, np.ndarray]:
        return rollout_rounds(self, first, count)


def _logits(models: Sequence, seat_model: np.ndarray, views: RawViews,
            cost_samples: int) -> np.ndarray:
    """[P * n, 10]: each seat's logits by its own model (`seat_model` [P, n] indexes
    `models`)."""
    encoded = encode(views, cost_samples)
    flat = seat_model.reshape(-1)
    out = np.empty((len(flat), HAND_SIZE), dtype=np.float32)
    for m in np.unique(flat):
        rows = np.flatnonzero(flat == m)
        out[rows] = models[m].logits(encoded.subset(rows))
    return out


def _likeliest(logits: np.ndarray, size: int) -> np.ndarray:
    return np.argmax(logits[:, :size], axis=1)         # ties: the lower card


def _cards(logits: np.ndarray, size: int, temperature: float, gen: np.random.Generator,
           u: Optional[np.ndarray] = None) -> np.ndarray:
    """Each row's slot: the likeliest at temperature 0, else drawn (`u`: shared draws)."""
    if temperature == 0:
        return _likeliest(logits, size)
    return sample_slots(logits, size, gen, temperature, u)


def card_outcomes(tables: Tables, choice: np.ndarray, table: np.ndarray, seat: np.ndarray,
                  models: Sequence, seat_model: np.ndarray, temperature: float = 0.0,
                  gen: Optional[np.random.Generator] = None) -> np.ndarray:
    """[D, size]: the bullheads seat `seat[d]` of round `table[d]` takes from this turn to
    the end of the round if it plays each card of its hand (in hand order), the others
    playing their slot of `choice` [P, n] now and their model's likeliest card after (or
    drawn at `temperature`, the copies of a decision with the same random numbers)."""
    size, n, count = tables.size, tables.players, len(table)
    rounds = np.repeat(table, size)
    copies = tables.subset(rounds)
    before = copies.penalties.copy()
    index = choice[rounds]
    index[np.arange(count * size), np.repeat(seat, size)] = np.tile(np.arange(size), count)
    models_of = seat_model[rounds]
    copies.play(index)
    while copies.size > 1:
        logits = _logits(models, models_of, copies.views(), ROLLOUT_COST_SAMPLES)
        u = None if temperature == 0 else np.repeat(gen.random((count, n)), size, axis=0)
        slots = _cards(logits, copies.size, temperature, gen, None if u is None else u.ravel())
        copies.play(slots.reshape(copies.count, n))
    copies.play(np.zeros((copies.count, n), dtype=np.int64))     # the last cards
    taken = copies.penalties - before
    return taken[np.arange(count * size), np.repeat(seat, size)].reshape(count, size)


def targets(outcomes: np.ndarray, temperature: float, prior: float = 0.0,
            logits: Optional[np.ndarray] = None) -> np.ndarray:
    """[D, 10]: the softmax of minus each card's bullheads / temperature (0 after the hand),
    plus `prior` times the learner's logits (a step from its policy, not a jump)."""
    z = -(outcomes - outcomes.min(axis=1, keepdims=True)) / temperature
    if prior:
        z = z + prior * logits[:, :outcomes.shape[1]]
    z -= z.max(axis=1, keepdims=True)
    shares = np.exp(z)
    out = np.zeros((len(outcomes), HAND_SIZE), dtype=np.float32)
    out[:, :outcomes.shape[1]] = shares / shares.sum(axis=1, keepdims=True)
    return out


def _tables_of(config: RolloutConfig, first: int, count: int
               ) -> Dict[int, List[Tuple[int, object, List[int]]]]:
    """Each round's deal and its seats' models (0 the learner, k the k-th opponent), by seat
    count."""
    groups: Dict[int, List[Tuple[int, object, List[int]]]] = {}
    for index in range(first, first + count):
        rng, players = round_start(config.seed, index, config.players, config.shares)
        position = deal(GameConfig(players=players), rng)
        if rng.random() < config.self_share:
            seats = [0] * players
        else:
            seat, other = rng.randrange(players), 1 + rng.randrange(len(config.opponents))
            seats = [0 if k == seat else other for k in range(players)]
        groups.setdefault(players, []).append((index, position, seats))
    return groups


def rollout_rounds(config: RolloutConfig, first: int, count: int) -> Dict[str, np.ndarray]:
    """Rounds `first` .. `first + count - 1`: the learner's decisions with more than one card
    in hand, each with its target and the bullheads every seat took from then on."""
    models = [load_cached(config.network or None)] + [others_model(o) for o in config.opponents]
    gen = np.random.default_rng([config.seed, first])
    parts, shares, outcomes, rounds = [], [], [], []
    for players, group in sorted(_tables_of(config, first, count).items()):
        tables = Tables.dealt(players, [position for _, position, _ in group])
        seat_model = np.array([seats for _, _, seats in group])
        index = np.array([i for i, _, _ in group])
        learner = seat_model.reshape(-1) == 0
        decision = np.flatnonzero(learner)
        table, seat = decision // players, decision % players
        steps = []
        while tables.size > 1:
            size, views = tables.size, tables.views()
            logits = _logits(models, seat_model, views, VIEW_COST_SAMPLES)
            drawn = sample_slots(logits, size, gen, config.temperature)
            others = _cards(logits, size, config.others_temperature, gen)
            choice = np.where(learner, drawn, others).reshape(tables.count, players)
            outcome = card_outcomes(tables, choice, table, seat, models, seat_model,
                                    config.rollout_temperature, gen)
            target = targets(outcome, config.target_temperature, config.prior,
                             logits[decision])
            steps.append((views.subset(decision), target, tables.penalties.copy()))
            tables.play(choice)
        tables.play(np.zeros((tables.count, players), dtype=np.int64))     # the last cards
        for views, target, before in steps:
            taken = tables.relative(tables.penalties - before)
            parts.append(views)
            shares.append(target)
            outcomes.append(taken[decision])
            rounds.append(index[table])
    raw = RawViews.concat(parts)
    out = dict(raw.arrays())
    out.update(target=np.concatenate(shares), outcome=np.concatenate(outcomes).astype(np.int16),
               round=np.concatenate(rounds).astype(np.int32))
    return out
