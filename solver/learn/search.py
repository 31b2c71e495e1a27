"""One ply of expectimax over sampled worlds, with the network (the bot `nsearch`).

For a card decision with more than one card in hand:

1. `worlds` times, deal the cards the seat has not seen to the other hands (uniformly, the
   right hand sizes: a world consistent with what the seat knows);
2. in each world every other seat picks its card by sampling the network's policy on its own
   view of that world (its hand, the public table), all views of all worlds in one batch. The
   others' cards are drawn once per world and reused for every candidate card of ours: the
   moves are simultaneous, so they cannot depend on our choice;
3. each of our cards is resolved against them by the C rules (a too-low card of ours takes
   the cheapest row in this look-ahead); its score in the world is the bullheads we take
   this turn (`Reward.OWN`, or that less the mean of the others', `Reward.RELATIVE`) plus a
   leaf value of the state after the turn, for our seat, seen from our seat (our hand without
   the card, the rows after the turn): the network's value head (`Leaf.NET`, all (world,
   card) states in one batch: our bullheads from then to the end of the round), nothing
   (`Leaf.ZERO`: this turn alone), or a heuristic playout of the world to the end of the
   round by the C core (`Leaf.ROLLOUT`);
4. the card with the least mean score over the worlds is played (ties: the lower card).

The randomness (the worlds, the others' draws) comes from the `random.Random` given: the same
seed gives the same card. In the 24-card 2-player game nothing is hidden, so every world holds
the same hands; only the other seat's sampled card differs between worlds.
"""
from dataclasses import dataclass
from enum import Enum
from random import Random
from typing import Dict, List, Sequence, Tuple

import numpy as np

from .._rules import c_play_turn
from .._sim import finish_round
from ..core.player import PlayerView
from ..errors import ConfigError, quote
from .model import PolicyNet

MAX_WORLDS = 4096

Hands = Tuple[Tuple[int, ...], ...]      # one world: every seat's hand (ours as it is)


class Reward(str, Enum):
    """What this turn's bullheads count as."""
    OWN = "own"              # our own bullheads
    RELATIVE = "relative"    # ours less the mean of the others'


class Leaf(str, Enum):
    """How the state after the turn is valued (our bullheads from then to the round's end)."""
    NET = "net"              # the network's value head
    ZERO = "zero"            # not at all: this turn's bullheads only
    ROLLOUT = "rollout"      # a heuristic playout of the world by the C core


def _mode(kind, value, what: str):
    try:
        return kind(value)
    except ValueError:
        names = ", ".join(m.value for m in kind)
        raise ConfigError(f"{what} must be one of {names}, got {quote(value)}") from None


@dataclass(frozen=True)
class NetSearchOptions:
    worlds: int = 32
    reward: Reward = Reward.OWN
    leaf: Leaf = Leaf.NET

    def __post_init__(self):
        if not 1 <= self.worlds <= MAX_WORLDS:
            raise ConfigError(f"worlds must be 1..{MAX_WORLDS}, got {self.worlds}")
        object.__setattr__(self, "reward", _mode(Reward, self.reward, "reward"))
        object.__setattr__(self, "leaf", _mode(Leaf, self.leaf, "value"))


def sample_worlds(view: PlayerView, worlds: int, rng: Random) -> List[Hands]:
    """`worlds` deals of the unseen cards to the other seats, each as every seat's hand."""
    unseen = view.unseen()
    size = len(view.hand)
    others = [k for k in range(view.players) if k != view.seat]
    out = []
    for _ in range(worlds):
        drawn = rng.sample(unseen, size * len(others))
        hands: List[Tuple[int, ...]] = [()] * view.players
        hands[view.seat] = tuple(sorted(view.hand))
        for i, k in enumerate(others):
            hands[k] = tuple(sorted(drawn[i * size:(i + 1) * size]))
        out.append(tuple(hands))
    return out


def _seat_view(view: PlayerView, seat: int, hand: Tuple[int, ...]) -> PlayerView:
    """Seat `seat`'s view of the same moment with `hand`: the public table is shared."""
    return PlayerView(view.config, seat, view.rows, hand, view.start_rows, view.played,
                      view.penalties, view.scores, view.turn, None, view.row_choices)


def others_cards(net: PolicyNet, view: PlayerView, worlds: Sequence[Hands],
                 rng: Random) -> List[Dict[int, int]]:
    """Per world, each other seat's card, drawn from the network's policy on its view (one
    batch for every seat of every world)."""
    seats = [k for k in range(view.players) if k != view.seat]
    views = [_seat_view(view, k, hands[k]) for hands in worlds for k in seats]
    logits, _ = net.policy(views)
    logits = logits.astype(np.float64)
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    u = np.random.default_rng(rng.getrandbits(63)).random(len(views))
    # the first slot whose cumulative share passes u (clipped: rounding at the top)
    index = np.minimum((np.cumsum(p, axis=1) < u[:, None]).sum(axis=1), len(view.hand) - 1)
    out, i = [], 0
    for hands in worlds:
        picks = {}
        for k in seats:
            picks[k] = hands[k][int(index[i])]        # hands are sorted, as the logits
            i += 1
        out.append(picks)
    return out


def card_scores(net: PolicyNet, view: PlayerView, options: NetSearchOptions,
                rng: Random) -> Dict[int, float]:
    """Each card of the hand's mean score over the sampled worlds (lower is better)."""
    hand = tuple(sorted(view.hand))
    worlds = sample_worlds(view, options.worlds, rng)
    picks = others_cards(net, view, worlds, rng)
    n, seat = view.players, view.seat
    immediate = np.zeros((len(worlds), len(hand)))
    nexts: List[PlayerView] = []
    rollouts = []
    for w, (hands, theirs) in enumerate(zip(worlds, picks)):
        for j, card in enumerate(hand):
            cards = [card if k == seat else theirs[k] for k in range(n)]
            rows, taken = c_play_turn(view.rows, cards, [None] * n)
            own = taken[seat]
            if options.reward is Reward.RELATIVE:
                own -= (sum(taken) - own) / (n - 1)
            immediate[w, j] = own
            rest = tuple(c for c in hand if c != card)
            if options.leaf is Leaf.NET:
                penalties = tuple(p + t for p, t in zip(view.penalties, taken))
                nexts.append(PlayerView(view.config, seat, tuple(map(tuple, rows)), rest,
                                        view.start_rows, view.played + (tuple(cards),),
                                        penalties, view.scores, view.turn + 1))
            elif options.leaf is Leaf.ROLLOUT:
                left = [list(rest) if k == seat else [c for c in hands[k] if c != theirs[k]]
                        for k in range(n)]
                rollouts.append((rows, left))
    leaf = np.zeros_like(immediate)
    if options.leaf is Leaf.NET:
        _, values = net.policy(nexts)
        leaf = values.astype(np.float64).reshape(immediate.shape)
    elif options.leaf is Leaf.ROLLOUT:
        seed = rng.getrandbits(63)
        leaf = np.array([finish_round(rows, left, seed + i, "heuristic")[1][seat]
                         for i, (rows, left) in enumerate(rollouts)],
                        dtype=np.float64).reshape(immediate.shape)
    means = (immediate + leaf).mean(axis=0)
    return {card: float(means[j]) for j, card in enumerate(hand)}


def best_scored(scores: Dict[int, float]) -> int:
    """The card of least mean score (ties: the lower card)."""
    return min(scores, key=lambda c: (round(scores[c], 9), c))
