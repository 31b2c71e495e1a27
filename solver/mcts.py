"""The search player: information-set Monte Carlo tree search with determinization.

For every position the exact solver does not cover (3..10 players, hidden hands, the
104-card game). The tree and the playouts run in C (`solver._sim`, on the rules core of
cext/rules.pxd); this module builds a search from what a seat may know, runs it under a
budget, and reads the answer.

How it searches (details in cext/sim.pyx):
- Determinization: each iteration deals the cards the viewer has not seen (deck minus rows,
  its hand, every card played this round) at random to the other hands, each the size of the
  viewer's hand; the rest stays in the box. A card visible anywhere is never dealt.
- Simultaneous moves, decoupled: at each node of the tree (a public history of joint turns)
  every seat picks its card with its own UCB1 bandit over the cards it holds in this
  determinization (availability counts for the cards of hidden hands).
- Row choices: a too-low card's row is a decision of its owner in the tree (a UCB1 bandit over
  the 4 rows, knowing the turn's cards). In the playouts it takes the cheapest row. When the
  player itself must take a row in a game, it tries all 4 rows on the same determinizations
  and playouts (common random numbers) and takes the one that costs it least to the end of
  the round (`choose_row`).
- Playouts (`policy`): uniformly random cards ("random"), or the heuristic policy (the least
  dangerous card, one time in 5 a random card: "heuristic"). The default ("auto") is random
  from 3 players on (better against `sampler` at 4 and 5 players, and 1.2x to 2x the
  iterations per second: README), the heuristic at 2 players (where the quality against the
  exact equilibrium was measured with it).
- Selection (`selection`): "ucb" (UCB1 as above) or "rm": regret matching per
  seat at each node with `gamma` uniform exploration (SM-MCTS with regret matching); its
  strategy is the average strategy over the iterations, not the visit counts; "rm+":
  regret matching+ with linear averaging (cext/sim.pyx).
- Reward: minus the bullheads each seat takes from the root to the end of the round
  (`reward="own"`), or minus that less the mean of the others' (`reward="relative"`).
- The default ("auto" for both) is regret matching+ on the relative reward at 2 players (a
  zero-sum game: regret matching's average strategy tends to its equilibrium, UCB's visit
  counts do not), UCB on the own reward from 3 players on (exploiting how the others
  actually play pays more there): benchmarks/bench_mcts_quality.py and the tournaments in
  the README.
- Opponents (`opponents`): at the root the other seats pick their cards with their bandits
  ("bandit"), or as careful players ("careful"): each plays, at random, one of the cards of
  its determinized hand that take at most CAREFUL_MARGIN bullheads more this turn than its
  cheapest, the costs measured once per decision by sampling the turn (`immediate_costs`);
  under UCB selection only (regret matching keeps the bandits). The default ("auto") is
  careful under UCB, so from 3 players on (21.5% fewer bullheads than `sampler` at 5
  players where the bandits take 14.2%: README).
- Budget: `iterations` (deterministic for a seed) or `seconds` (a wall-clock budget, so not
  reproducible). `jobs` > 1 runs that many independent trees in threads (root parallelism,
  both cores) and adds their root statistics; deterministic for a seed and a jobs count.
- The card played is the one the root visited most (under "rm"/"rm+": the largest share of the
  average strategy); `analyse` gives every card's mean bullheads to the end of the round
  with a 95% confidence interval (for `nimmt best`).
- Exact hand-over: a 2-player position where the player can deduce the other hand (the
  24-card game: every unseen card is in the opponent's hand) and hands of at most
  `exact_max_cards` cards goes to the exact solver (`solver.exact.solve`): the player samples
  its card from the equilibrium strategy. `exact_handover=False` switches that off.
"""
import math
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence

from . import errors
from ._sim import Determinizer, Search, immediate_costs, row_values
from .game import Player, PlayerView
from .position import Position
from .limits import MAX_ITERATIONS, MAX_JOBS, MAX_SECONDS
from .rules import HAND_SIZE, ROWS, cheapest_row

Z95 = 1.959964
DEFAULT_ITERATIONS = 5000
DEFAULT_C = 8.0          # UCB exploration, in bullheads: the best of 2..32 against `sampler`
SELECTIONS = ("auto", "ucb", "rm", "rm+")
POLICIES = ("auto", "random", "heuristic")
REWARDS = ("auto", "own", "relative")
OPPONENTS = ("auto", "bandit", "careful")
CAREFUL_SAMPLES = 256    # draws per card of the careful-opponent model
CAREFUL_MARGIN = 0.3     # bullheads: a careful opponent plays any card this close to its cheapest
CHUNK_SECONDS = 0.05     # a timed search checks progress and the clock this often


def derive_seed(*parts: Any) -> int:
    """A 64-bit seed from any parts (stable across runs and platforms)."""
    return random.Random("/".join(map(str, parts))).getrandbits(64)


@dataclass
class CardEstimate:
    card: int
    visits: int
    mean: float              # bullheads taken from now to the end of the round
    ci95: List[float]        # normal-approximation interval of that mean
    share: Optional[float] = None   # regret matching: the card's average-strategy share

    def to_dict(self) -> Dict[str, Any]:
        out = {"card": self.card, "visits": self.visits, "mean_bullheads": self.mean,
               "ci95": self.ci95}
        if self.share is not None:
            out["share"] = self.share
        return out


@dataclass
class Analysis:
    """The search's answer for one seat: its cards, best first (most visited)."""
    viewer: int                                   # seat, 0-based
    cards: List[CardEstimate]
    iterations: int
    seconds: float
    stats: Dict[str, Any] = field(default_factory=dict)

    @property
    def best(self) -> int:
        return self.cards[0].card

    def to_dict(self) -> Dict[str, Any]:
        return {"viewer": self.viewer + 1, "best": self.best, "iterations": self.iterations,
                "seconds": self.seconds, "cards": [c.to_dict() for c in self.cards],
                "stats": self.stats}


def estimate(visits: int, total: float, squares: float) -> CardEstimate:
    if visits == 0:
        return CardEstimate(0, 0, math.nan, [math.nan, math.nan])
    mean = total / visits
    if visits < 2:
        return CardEstimate(0, visits, mean, [-math.inf, math.inf])
    var = max(0.0, (squares - visits * mean * mean) / (visits - 1))
    half = Z95 * math.sqrt(var / visits)
    return CardEstimate(0, visits, mean, [mean - half, mean + half])


class Budget:
    """How long a decision may search: `iterations` (total over the jobs) or `seconds`."""

    def __init__(self, iterations: Optional[int] = None, seconds: Optional[float] = None):
        if iterations is not None and seconds is not None:
            raise errors.ConfigError("give a budget in iterations or in seconds, not both")
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        if iterations is not None and not (errors.is_integer(iterations)
                                           and 1 <= iterations <= MAX_ITERATIONS):
            raise errors.ConfigError(f"iterations must be an integer in 1..{MAX_ITERATIONS:,},"
                                     f" got {errors.quote(iterations)}")
        if seconds is not None and not 0 < seconds <= MAX_SECONDS:      # nan too
            raise errors.ConfigError(f"seconds must be more than 0 and at most {MAX_SECONDS:,g},"
                                     f" got {errors.quote(seconds)}")
        self.iterations, self.seconds = iterations, seconds


def run_search(make_det: Callable[[], Determinizer], viewer: int, budget: Budget, seed: Any,
               jobs: int = 1, c: float = DEFAULT_C, policy: str = "random",
               progress: Optional[Callable[[float, int, float], None]] = None,
               reward: str = "own", selection: str = "ucb", gamma: float = 0.1,
               careful: Optional[Dict[int, float]] = None):
    """Run `jobs` independent trees (threads) and add their root statistics of `viewer`.
    Returns ({card: (visits, sum, sum of squares)}, iterations, seconds, trees).
    `progress(fraction, iterations, seconds)` is called from this thread while it runs.
    `careful`: the other seats' card costs of the careful-opponent model (None: bandits)."""
    check_options(selection, reward, gamma, jobs=jobs, c=c)
    trees = [Search(make_det(), viewer, seed=derive_seed(seed, "tree", j), c=c, policy=policy,
                    reward=reward, selection=selection, gamma=gamma) for j in range(jobs)]
    if careful is not None:
        for tree in trees:
            tree.set_careful_opponents(careful, CAREFUL_MARGIN)
    start = time.perf_counter()
    if budget.iterations is not None:
        shares = [budget.iterations // jobs + (j < budget.iterations % jobs) for j in range(jobs)]
    else:
        shares = [0] * jobs
    errors_seen: List[BaseException] = []

    def work(tree: Search, share: int) -> None:
        try:
            if budget.iterations is not None:
                step = max(64, share // 20) if progress else share
                done = 0
                while done < share:
                    done += tree.run(iterations=min(step, share - done))
            else:
                deadline = start + budget.seconds
                while True:
                    left = deadline - time.perf_counter()
                    if left <= 0:
                        break
                    tree.run(seconds=min(CHUNK_SECONDS, left))
        except BaseException as exc:          # reported by the caller's thread
            errors_seen.append(exc)

    if jobs == 1 and progress is None:
        work(trees[0], shares[0])
    else:
        threads = [threading.Thread(target=work, args=(t, s), daemon=True)
                   for t, s in zip(trees, shares)]
        for t in threads:
            t.start()
        while any(t.is_alive() for t in threads):
            for t in threads:
                t.join(0.1)
            if progress:
                done = sum(t.iterations for t in trees)
                elapsed = time.perf_counter() - start
                fraction = (done / budget.iterations if budget.iterations
                            else elapsed / budget.seconds)
                progress(min(1.0, fraction), done, elapsed)
    if errors_seen:
        raise errors_seen[0]
    return (merged_root_stats(trees, viewer), sum(t.iterations for t in trees),
            time.perf_counter() - start, trees)


def check_options(selection: str, reward: str, gamma: float, policy: str = "auto",
                  jobs: int = 1, c: float = DEFAULT_C) -> None:
    if policy not in POLICIES:
        raise errors.ConfigError(f"policy must be auto, random or heuristic, got {policy!r}")
    if selection not in SELECTIONS:
        raise errors.ConfigError(f"selection must be auto, ucb, rm or rm+, got {selection!r}")
    if reward not in REWARDS:
        raise errors.ConfigError(f"reward must be auto, own or relative, got {reward!r}")
    if not 0 < gamma <= 1:
        raise errors.ConfigError(f"gamma must be in (0, 1], got {gamma!r}")
    if not (errors.is_integer(jobs) and 1 <= jobs <= MAX_JOBS):
        raise errors.ConfigError(f"jobs must be an integer in 1..{MAX_JOBS},"
                                 f" got {errors.quote(jobs)}")
    if not (c >= 0 and math.isfinite(c)):
        raise errors.ConfigError(f"c must be a finite number >= 0, got {errors.quote(c)}")


def settle_auto(players: int, selection: str, reward: str, policy: str = "auto"):
    """The (selection, reward, policy) "auto" stands for at this many players (module
    docstring)."""
    if policy == "auto":
        policy = "heuristic" if players == 2 else "random"
    if selection == "auto":
        selection = "rm+" if players == 2 else "ucb"
    if reward == "auto":
        reward = "relative" if players == 2 else "own"
    return selection, reward, policy


def settle_opponents(opponents: str, selection: str) -> str:
    """The opponent model "auto" stands for under this (settled) selection: careful players
    under UCB, bandits under regret matching (which has no careful model)."""
    if opponents not in OPPONENTS:
        raise errors.ConfigError(f"opponents must be auto, bandit or careful, got {opponents!r}")
    if selection != "ucb":
        return "bandit"
    return "careful" if opponents == "auto" else opponents


def careful_costs(rows, hands: Sequence[Optional[Sequence[int]]], pool: Sequence[int],
                  viewer: int, seed: int) -> Dict[int, float]:
    """The careful-opponent model's costs: what each card another seat may hold (`pool`, the
    unseen cards, and the other visible hands) takes this turn, each played against random
    cards of the others, who may hold the viewer's cards too (they do not see its hand)."""
    cards = set(pool).union(*(h for k, h in enumerate(hands) if k != viewer and h is not None))
    others = sorted(cards.union(hands[viewer]))
    return immediate_costs([list(r) for r in rows], sorted(cards), others, len(hands) - 1,
                           CAREFUL_SAMPLES, seed)


def root_shares(trees: Sequence[Search], seat: int, hand: Sequence[int]) -> Dict[int, float]:
    """`seat`'s root strategy over `hand`, the trees added: the average strategy of regret
    matching, or the share of the visits under UCB."""
    weights: Dict[int, float] = {}
    for tree in trees:
        for card, w in tree.root_policy(seat).items():
            weights[card] = weights.get(card, 0.0) + w
    total = sum(weights.get(card, 0.0) for card in hand)
    return {card: (weights.get(card, 0.0) / total if total else 1 / len(hand)) for card in hand}


def merged_root_stats(trees: Sequence[Search], seat: int) -> Dict[int, List[float]]:
    """`seat`'s root statistics added over the trees: {card: [visits, sum, sum of squares]}."""
    merged: Dict[int, List[float]] = {}
    for tree in trees:
        for card, (n, s, q) in tree.root_stats(seat).items():
            acc = merged.setdefault(card, [0, 0.0, 0.0])
            acc[0] += n
            acc[1] += s
            acc[2] += q
    return merged


def rank_cards(hand: Sequence[int], stats: Dict[int, Sequence[float]],
               shares: Optional[Dict[int, float]] = None) -> List[CardEstimate]:
    """The hand's cards, most visited first (ties: the lower mean, then the lower card); with
    `shares` (regret matching's average strategy), the largest share first."""
    out = []
    for card in hand:
        e = estimate(*stats.get(card, (0, 0.0, 0.0)))
        e.card = card
        if shares is not None:
            e.share = shares.get(card, 0.0)
        out.append(e)
    out.sort(key=lambda e: (-(e.share or 0.0), -e.visits, e.mean if e.visits else math.inf,
                            e.card))
    return out


# positions (nimmt best) ---------------------------------------------------------------------
def viewer_of(position: Position) -> int:
    """The seat whose view a position is: the optional `viewer` key (player number, 1-based),
    else the first visible hand."""
    viewer = position.extra.get("viewer", position.extra.get("to_move"))
    if viewer is not None:
        if not (errors.is_integer(viewer) and 1 <= viewer <= position.players):
            raise errors.PositionError(f"viewer must be a player number 1..{position.players},"
                                       f" got {errors.quote_json(viewer)}")
        if position.hands[viewer - 1] is None:
            raise errors.PositionError(f"the viewer's hand (player {viewer}) must be visible")
        return viewer - 1
    return next(k for k, h in enumerate(position.hands) if h is not None)


def unseen_pool(position: Position) -> List[int]:
    """Cards the hidden hands may hold: the deck minus rows, visible hands and `played`."""
    seen = {c for row in position.rows for c in row}
    seen.update(c for h in position.hands if h is not None for c in h)
    seen.update(position.played)
    return [c for c in range(1, position.deck + 1) if c not in seen]


def analyse(position: Position, iterations: Optional[int] = None,
            seconds: Optional[float] = None, seed: Any = 0, jobs: int = 1, c: float = DEFAULT_C,
            policy: str = "auto", viewer: Optional[int] = None,
            progress: Optional[Callable[[float, int, float], None]] = None,
            reward: str = "auto", selection: str = "auto", gamma: float = 0.1,
            opponents: str = "auto") -> Analysis:
    """Each card of the viewer's hand with its estimated bullheads to the end of the round
    (mean, 95% CI), by the search; best first (under selection="rm" each card also has its
    share of the average strategy, the largest first). For any position with the viewer's hand
    visible (other hands visible or `null`). The exact answer of a 2-player position with
    both hands visible is `solver.exact.solve`'s."""
    viewer = viewer_of(position) if viewer is None else viewer
    check_options(selection, reward, gamma, policy, jobs, c)
    selection, reward, policy = settle_auto(len(position.hands), selection, reward, policy)
    opponents = settle_opponents(opponents, selection)
    size = position.hand_size
    if size == 0:
        raise errors.PositionError("the hands are empty: the round is over")
    pool = unseen_pool(position)
    hidden = sum(h is None for h in position.hands)
    if len(pool) < hidden * size:
        raise errors.PositionError(f"{hidden} hidden hands of {size} cards need"
                                   f" {hidden * size} unseen cards; only {len(pool)} are left")
    hands = [None if h is None else list(h) for h in position.hands]

    def make_det() -> Determinizer:
        return Determinizer([list(r) for r in position.rows], hands, pool, size,
                            list(position.penalties))

    careful = (careful_costs(position.rows, hands, pool, viewer, derive_seed(seed, "careful"))
               if opponents == "careful" else None)
    stats, done, elapsed, trees = run_search(make_det, viewer, Budget(iterations, seconds),
                                             seed, jobs, c, policy, progress, reward,
                                             selection, gamma, careful)
    shares = root_shares(trees, viewer, hands[viewer]) if selection != "ucb" else None
    info = {"trees": len(trees), "nodes": sum(t.node_count for t in trees),
            "policy": policy, "c": c, "opponents": opponents}
    if selection != "ucb" or reward != "own":
        info.update(selection=selection, reward=reward, gamma=gamma)
    return Analysis(viewer, rank_cards(hands[viewer], stats, shares), done, elapsed, info)


def root_strategies(position: Position, iterations: Optional[int] = None,
                    seconds: Optional[float] = None, seed: Any = 0, jobs: int = 1,
                    c: float = DEFAULT_C, policy: str = "auto", reward: str = "auto",
                    selection: str = "auto",
                    gamma: float = 0.1) -> List[Optional[Dict[int, float]]]:
    """The search's root mixed strategy of every seat with a visible hand ({card: share of the
    root visits}, or under selection="rm" of the average strategy of regret matching; None
    for a hidden hand): how the search player would play here, as one
    strategy (for measuring it against the exact equilibrium of a 2-player position). The
    viewer of the tree is the first visible hand; with every hand visible the tree is the
    same whatever the viewer."""
    viewer = viewer_of(position)
    check_options(selection, reward, gamma, policy, jobs, c)
    selection, reward, policy = settle_auto(len(position.hands), selection, reward, policy)
    hands = [None if h is None else list(h) for h in position.hands]

    def make_det() -> Determinizer:
        return Determinizer([list(r) for r in position.rows], hands, unseen_pool(position),
                            position.hand_size, list(position.penalties))

    _, _, _, trees = run_search(make_det, viewer, Budget(iterations, seconds), seed, jobs, c,
                                policy, reward=reward, selection=selection, gamma=gamma)
    return [None if hand is None else root_shares(trees, k, hand)
            for k, hand in enumerate(hands)]


def visit_shares(hand: Sequence[int], stats: Dict[int, Sequence[float]]) -> Dict[int, float]:
    visits = {card: stats.get(card, (0,))[0] for card in hand}
    total = sum(visits.values())
    return {card: (n / total if total else 1 / len(hand)) for card, n in visits.items()}


# the player --------------------------------------------------------------------------------
class SearchPlayer(Player):
    """The ISMCTS player (module docstring). Bot name `mcts`; options as in
    `mcts:iterations=2000`, `mcts:seconds=1`, `mcts:jobs=2`, `mcts:c=8`,
    `mcts:policy=random`, `mcts:exact=0`, `mcts:selection=rm`, `mcts:gamma=0.1`,
    `mcts:reward=relative`, `mcts:opponents=bandit`."""
    name = "mcts"

    def __init__(self, seed=None, iterations: Optional[int] = None,
                 seconds: Optional[float] = None, jobs: int = 1, c: float = DEFAULT_C,
                 policy: str = "auto", exact_handover: bool = True,
                 exact_max_cards: int = 7, row_share: float = 0.25,
                 selection: str = "auto", reward: str = "auto", gamma: float = 0.1,
                 opponents: str = "auto"):
        self.budget = Budget(iterations, seconds)
        check_options(selection, reward, gamma, policy, jobs, c)
        settle_opponents(opponents, "ucb")      # a bad name is refused here, not at a decision
        self.opponents = opponents
        if not (errors.is_integer(exact_max_cards) and 0 <= exact_max_cards <= HAND_SIZE):
            raise errors.ConfigError(f"exact_max_cards must be an integer in 0..{HAND_SIZE},"
                                     f" got {errors.quote(exact_max_cards)}")
        self.selection, self.reward, self.gamma = selection, reward, gamma
        self.rng = random.Random(seed)
        self.jobs, self.c, self.policy = jobs, c, policy
        self.exact_handover, self.exact_max_cards = exact_handover, exact_max_cards
        self.row_share = row_share        # budget of a row choice, relative to a card's
        self.last: Optional[Analysis] = None

    # cards
    def choose_card(self, view: PlayerView) -> int:
        if len(view.hand) == 1:
            return view.hand[0]
        if self._exact_applies(view):
            return self._exact_card(view)
        hands = [list(view.hand) if k == view.seat else None for k in range(view.players)]
        pool = view.unseen()

        def make_det() -> Determinizer:
            return Determinizer([list(r) for r in view.rows], hands, pool, len(view.hand),
                                list(view.penalties))

        selection, reward, policy = settle_auto(view.players, self.selection, self.reward,
                                                self.policy)
        careful = (careful_costs(view.rows, hands, pool, view.seat, self.rng.getrandbits(64))
                   if settle_opponents(self.opponents, selection) == "careful" else None)
        stats, done, elapsed, trees = run_search(make_det, view.seat, self.budget,
                                                 self.rng.getrandbits(64), self.jobs,
                                                 self.c, policy, reward=reward,
                                                 selection=selection, gamma=self.gamma,
                                                 careful=careful)
        shares = root_shares(trees, view.seat, view.hand) if selection != "ucb" else None
        self.last = Analysis(view.seat, rank_cards(view.hand, stats, shares), done, elapsed)
        return self.last.best

    def _exact_applies(self, view: PlayerView) -> bool:
        return (self.exact_handover and view.players == 2
                and len(view.unseen()) == len(view.hand) <= self.exact_max_cards)

    def _opponent_position(self, view: PlayerView, rows, hand, other) -> Position:
        hands = [list(hand), list(other)] if view.seat == 0 else [list(other), list(hand)]
        return Position.create([list(r) for r in rows], hands, deck=view.config.deck)

    def _exact_card(self, view: PlayerView) -> int:
        from .exact import solve
        position = self._opponent_position(view, view.rows, view.hand, view.unseen())
        strategy = solve(position).strategies[view.seat]
        cards = sorted(strategy)
        return self.rng.choices(cards, weights=[strategy[c] for c in cards])[0]

    # rows
    def choose_row(self, view: PlayerView, card: int) -> int:
        rest = [c for c in view.hand if c != card]
        if not rest:                       # the last turn: only this turn's bullheads count
            return self._row_this_turn(view, card)
        hands = [rest if k == view.seat else None for k in range(view.players)]
        pool = view.unseen()
        det = Determinizer([list(r) for r in view.rows], hands, pool, len(rest),
                           list(view.penalties))
        seed = self.rng.getrandbits(64)
        if self.budget.iterations is not None:
            n = max(64, int(self.budget.iterations * self.row_share) // ROWS)
            values = row_values(det, list(view.revealed), view.seat, n, seed,
                                self._playout_policy(view))
        else:
            values = self._timed_rows(det, view, seed)
        means = [s / n if n else math.inf for n, s, _ in values]
        return min(range(ROWS), key=lambda r: (means[r], r))

    def _timed_rows(self, det: Determinizer, view: PlayerView, seed: int):
        deadline = time.perf_counter() + self.budget.seconds * self.row_share
        totals = [[0, 0.0, 0.0] for _ in range(ROWS)]
        batch = 0
        while True:
            part = row_values(det, list(view.revealed), view.seat, 256,
                              derive_seed(seed, batch), self._playout_policy(view))
            for acc, (n, s, q) in zip(totals, part):
                acc[0] += n
                acc[1] += s
                acc[2] += q
            batch += 1
            if time.perf_counter() >= deadline:
                return totals

    def _playout_policy(self, view: PlayerView) -> str:
        return settle_auto(view.players, self.selection, self.reward, self.policy)[2]

    @staticmethod
    def _row_this_turn(view: PlayerView, card: int) -> int:
        return cheapest_row(view.rows)
