"""The search player's options: modes as enums, checked once, and its budget.

`SearchOptions` holds how the search runs (docs/search-player.md); every mode may be "auto",
which `settled(players)` turns into the measured default for that many players. A budget is
a `Limit` of `iterations` (reproducible for a seed) or `seconds` (wall clock), not both.
"""
import math
from dataclasses import dataclass, replace
from enum import Enum
from typing import Optional, Type, TypeVar

from .. import errors
from ..limits import MAX_JOBS, MAX_SECONDS, Limit

DEFAULT_ITERATIONS = 5000
DEFAULT_C = 8.0          # UCB exploration, in bullheads: the best of 2..32 against `sampler`
DEFAULT_GAMMA = 0.1      # regret matching's uniform exploration


class Selection(str, Enum):
    """How each seat picks its card at a node of the tree."""
    AUTO = "auto"        # regret matching+ at 2 players, UCB from 3 on
    UCB = "ucb"          # UCB1 bandits; the answer is the most visited card
    RM = "rm"            # regret matching; the answer is the average strategy
    RM_PLUS = "rm+"      # regret matching+ with linear averaging


class Policy(str, Enum):
    """How the playouts below the tree play."""
    AUTO = "auto"            # heuristic at 2 players, random from 3 on
    RANDOM = "random"        # uniformly random cards
    HEURISTIC = "heuristic"  # the least dangerous card, one time in 5 a random one


class Reward(str, Enum):
    """What a seat maximizes."""
    AUTO = "auto"            # relative at 2 players, own from 3 on
    OWN = "own"              # minus its own bullheads to the end of the round
    RELATIVE = "relative"    # minus its own less the mean of the others'


class Opponents(str, Enum):
    """How the other seats pick their cards at the root."""
    AUTO = "auto"            # careful under UCB, bandits under regret matching
    BANDIT = "bandit"        # their own bandits, as at every other node
    CAREFUL = "careful"      # a random card among those close to their cheapest this turn


E = TypeVar("E", bound=Enum)


def parse_mode(kind: Type[E], value, what: str) -> E:
    """`value` (a member or its name) as a member of `kind`, or a one-line error."""
    try:
        return kind(value)
    except ValueError:
        names = ", ".join(m.value for m in kind)
        raise errors.ConfigError(f"{what} must be one of {names}, got {errors.quote(value)}") from None


@dataclass(frozen=True)
class SearchOptions:
    """How the search runs; every field checked here, once."""
    c: float = DEFAULT_C                  # UCB exploration, in bullheads
    policy: Policy = Policy.AUTO
    selection: Selection = Selection.AUTO
    reward: Reward = Reward.AUTO
    gamma: float = DEFAULT_GAMMA          # regret matching's exploration, in (0, 1]
    opponents: Opponents = Opponents.AUTO
    jobs: int = 1                         # independent trees in threads

    def __post_init__(self):
        for name, kind in (("policy", Policy), ("selection", Selection), ("reward", Reward),
                           ("opponents", Opponents)):
            object.__setattr__(self, name, parse_mode(kind, getattr(self, name), name))
        if not (isinstance(self.gamma, (int, float)) and 0 < self.gamma <= 1):
            raise errors.ConfigError(f"gamma must be in (0, 1], got {errors.quote(self.gamma)}")
        if not (errors.is_integer(self.jobs) and 1 <= self.jobs <= MAX_JOBS):
            raise errors.ConfigError(f"jobs must be an integer in 1..{MAX_JOBS},"
                                     f" got {errors.quote(self.jobs)}")
        if not (isinstance(self.c, (int, float)) and self.c >= 0 and math.isfinite(self.c)):
            raise errors.ConfigError(f"c must be a finite number >= 0, got {errors.quote(self.c)}")

    def settled(self, players: int) -> "SearchOptions":
        """The options with every "auto" replaced by what it stands for at `players` seats
        (the measured defaults: docs/search-player.md)."""
        two = players == 2
        policy = self.policy
        if policy is Policy.AUTO:
            policy = Policy.HEURISTIC if two else Policy.RANDOM
        selection = self.selection
        if selection is Selection.AUTO:
            selection = Selection.RM_PLUS if two else Selection.UCB
        reward = self.reward
        if reward is Reward.AUTO:
            reward = Reward.RELATIVE if two else Reward.OWN
        opponents = self.opponents
        if selection is not Selection.UCB:
            opponents = Opponents.BANDIT          # regret matching has no careful model
        elif opponents is Opponents.AUTO:
            opponents = Opponents.CAREFUL
        return replace(self, policy=policy, selection=selection, reward=reward,
                       opponents=opponents)


def check_seconds(seconds: float) -> None:
    """A search player's budget in seconds: more than 0, at most a day (a `Limit` also takes
    0, no limit, which a search player has no use for)."""
    if not 0 < seconds <= MAX_SECONDS:
        raise errors.ConfigError(f"seconds must be more than 0 and at most {MAX_SECONDS:,g},"
                                 f" got {errors.quote(seconds)}")


def search_budget(limit: Optional[Limit]) -> Limit:
    """The budget of a decision: `iterations` (default DEFAULT_ITERATIONS) or `seconds`
    (more than 0, at most a day); refuses both, and a node limit."""
    limit = limit or Limit()
    if limit.nodes:
        raise errors.ConfigError("the search player's budget is iterations or seconds, not nodes")
    if limit.iterations is not None and limit.seconds is not None:
        raise errors.ConfigError("give a budget in iterations or in seconds, not both")
    if limit.seconds is not None:
        check_seconds(limit.seconds)
    if limit.iterations is None and limit.seconds is None:
        return Limit(iterations=DEFAULT_ITERATIONS)
    return limit
