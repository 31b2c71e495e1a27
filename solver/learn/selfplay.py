"""Self-play rounds for the value head: the network's policy in every seat, many rounds at once.

A search teacher (`data.py`) costs tens of milliseconds a decision; the network alone, its
views batched over many rounds, a small fraction of that. These rounds give the value
head many more examples (the bullheads each seat takes from each turn to the round's end)
at no teacher's cost: their decisions carry no policy target (all zeros, which the training
reads as "value only"). Each seat samples its card from the network's policy at
`temperature` (below 1: nearer its most likely card); a too-low card takes the cheapest row.

Chunks are written as `data.generate` writes a teacher's, in the same format, and resume the
same way. A round's deal and seat count depend only on the seed and its number; the cards
drawn depend on the seed and the chunk (the chunk's rounds of one seat count are played
together, one batch per turn).
"""
from dataclasses import asdict, dataclass
from typing import Dict, List, Tuple

import numpy as np

from ..core.rules import HAND_SIZE, GameConfig
from ..errors import ConfigError
from ..core.deal import deal
from .data import check_rounds, round_start
from .features import RawViews, encode
from .lockstep import Tables, sample_slots
from .model import load_cached


@dataclass(frozen=True)
class SelfPlayConfig:
    """`rounds` rounds of the network `network` (a weights file; '' for the shipped one) in
    every seat, the seat count of each round drawn from `players` (weights `shares`)."""
    network: str = ""
    temperature: float = 0.5
    rounds: int = 1000
    chunk_rounds: int = 200
    seed: int = 0
    players: Tuple[int, ...] = (4,)
    shares: Tuple[float, ...] = (1.0,)

    def check(self) -> None:
        load_cached(self.network or None)
        if not 0.01 <= self.temperature <= 100:
            raise ConfigError("temperature must be 0.01..100")
        check_rounds(self.rounds, self.chunk_rounds, self.players, self.shares)

    def settings(self) -> Dict:
        settings = asdict(self)
        settings.pop("rounds")
        settings["kind"] = "selfplay"
        return settings

    def play(self, first: int, count: int) -> Dict[str, np.ndarray]:
        return selfplay_rounds(self, first, count)


def selfplay_rounds(config: SelfPlayConfig, first: int, count: int) -> Dict[str, np.ndarray]:
    """Rounds `first` .. `first + count - 1` as arrays (one row per card decision with more
    than one card in hand), grouped by seat count."""
    net = load_cached(config.network or None)
    gen = np.random.default_rng([config.seed, first])
    groups: Dict[int, List[Tuple[int, object]]] = {}
    for index in range(first, first + count):
        rng, players = round_start(config.seed, index, config.players, config.shares)
        groups.setdefault(players, []).append((index, deal(GameConfig(players=players), rng)))
    parts, outcomes, rounds = [], [], []
    for players, deals in sorted(groups.items()):
        tables = Tables.dealt(players, [position for _, position in deals])
        steps = []
        while tables.size > 1:
            views = tables.views()
            logits = net.logits(encode(views))
            index = sample_slots(logits, tables.size, gen, config.temperature)
            steps.append((views, tables.penalties.copy()))
            tables.play(index.reshape(tables.count, players))
        tables.play(np.zeros((tables.count, players), dtype=np.int64))     # the last cards
        for views, before in steps:
            taken = tables.penalties - before                                 # [P, n]
            parts.append(views)
            outcomes.append(tables.relative(taken))
            rounds.append(np.repeat([i for i, _ in deals], players))
    raw = RawViews.concat(parts)
    out = dict(raw.arrays())
    out.update(target=np.zeros((len(raw), HAND_SIZE), dtype=np.float32),
               outcome=np.concatenate(outcomes).astype(np.int16),
               round=np.concatenate(rounds).astype(np.int32))
    return out

