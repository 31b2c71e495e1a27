"""The search player: information-set Monte Carlo tree search with determinization.

For every position the exact solver does not cover (3..10 players, hidden hands, the
104-card game). The tree and the playouts run in C (`solver._sim`, on the rules core of
cext/rules.pxd); this module builds a search from what a seat may know, runs it under a
budget, and reads the answer. docs/search-player.md describes the method and its options
(`options.SearchOptions`); in short:

- Determinization: each iteration deals the cards the viewer has not seen at random to the
  other hands; a card visible anywhere is never dealt.
- Simultaneous moves, decoupled: at each node every seat picks its card with its own bandit
  (`Selection`) over the cards it holds in this determinization; a too-low card's row is a
  decision of its owner. Playouts below the tree follow `Policy`.
- At the root the other seats are bandits or careful players (`Opponents`).
- Budget: a `Limit` of iterations (deterministic for a seed) or seconds; `jobs` trees in
  threads, their root statistics added (deterministic for a seed and a jobs count).
- The card played is the one the root visited most (under regret matching: the largest
  share of the average strategy). `analyse` gives every card's mean bullheads to the end
  of the round with a 95% interval (`nimmt best`).
- Exact hand-over: a 2-player position where the other hand is known (the 24-card game) of
  at most `exact_max_cards` cards goes to the exact solver, whose equilibrium strategy the
  player samples.
"""
import math
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence

from .. import errors
from .._sim import Determinizer, Search, immediate_costs, row_values
from ..core.player import Player, PlayerView
from ..core.position import Position
from ..core.rules import HAND_SIZE, ROWS, cheapest_row
from ..exact import Engine, solve
from ..limits import Limit
from ..stats import mean_ci95_of_sums
from .options import Opponents, SearchOptions, Selection, search_budget

CAREFUL_SAMPLES = 256    # draws per card of the careful-opponent model
CAREFUL_MARGIN = 0.3     # bullheads: a careful opponent plays any card this close to its cheapest
CHUNK_SECONDS = 0.05     # a timed search checks progress and the clock this often

# progress(fraction of the budget, iterations, seconds), called from the caller's thread
SearchProgress = Callable[[float, int, float], None]


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


def estimate(card: int, visits: int, total: float, squares: float) -> CardEstimate:
    mean, low, high = mean_ci95_of_sums(visits, total, squares)
    return CardEstimate(card, visits, mean, [low, high])


def run_search(make_det: Callable[[], Determinizer], viewer: int, budget: Limit, seed: Any,
               options: SearchOptions, progress: Optional[SearchProgress] = None,
               careful: Optional[Dict[int, float]] = None,
               stop: Optional[threading.Event] = None):
    """Run `options.jobs` independent trees (threads) and add their root statistics of
    `viewer`; `options` settled (no "auto" left), `budget` from `search_budget`.
    Returns ({card: (visits, sum, sum of squares)}, iterations, seconds, trees).
    `careful`: the other seats' card costs of the careful-opponent model (None: bandits).
    `stop`, once set, ends the search early (each tree within one chunk of its work)."""
    jobs = options.jobs
    trees = [Search(make_det(), viewer, seed=derive_seed(seed, "tree", j), c=options.c,
                    policy=options.policy.value, reward=options.reward.value,
                    selection=options.selection.value, gamma=options.gamma)
             for j in range(jobs)]
    if careful is not None:
        for tree in trees:
            tree.set_careful_opponents(careful, CAREFUL_MARGIN)
    start = time.perf_counter()
    if budget.iterations is not None:
        shares = [budget.iterations // jobs + (j < budget.iterations % jobs) for j in range(jobs)]
    else:
        shares = [0] * jobs
    errors_seen: List[BaseException] = []

    def stopped() -> bool:
        return stop is not None and stop.is_set()

    def work(tree: Search, share: int) -> None:
        try:
            if budget.iterations is not None:
                step = max(64, share // 20) if progress or stop else share
                done = 0
                while done < share and not stopped():
                    done += tree.run(iterations=min(step, share - done))
            else:
                deadline = start + budget.seconds
                while not stopped():
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
        e = estimate(card, *stats.get(card, (0, 0.0, 0.0)))
        if shares is not None:
            e.share = shares.get(card, 0.0)
        out.append(e)
    out.sort(key=lambda e: (-(e.share or 0.0), -e.visits, e.mean if e.visits else math.inf,
                            e.card))
    return out


# positions (nimmt best) ---------------------------------------------------------------------
def checked_pool(position: Position) -> List[int]:
    """`Position.unseen_cards`, refused when they cannot fill the hidden hands."""
    pool = position.unseen_cards()
    size = position.hand_size
    hidden = sum(h is None for h in position.hands)
    if len(pool) < hidden * size:
        raise errors.PositionError(f"{hidden} hidden hands of {size} cards need"
                                   f" {hidden * size} unseen cards; only {len(pool)} are left")
    return pool


def analyse(position: Position, limit: Optional[Limit] = None, seed: Any = 0,
            options: Optional[SearchOptions] = None, viewer: Optional[int] = None,
            progress: Optional[SearchProgress] = None,
            stop: Optional[threading.Event] = None) -> Analysis:
    """Each card of the viewer's hand with its estimated bullheads to the end of the round
    (mean, 95% CI), by the search; best first (under regret matching each card also has its
    share of the average strategy, the largest first). For any position with the viewer's
    hand visible (other hands visible or `null`). The exact answer of a 2-player position
    with both hands visible is `solver.exact.solve`'s. `stop`, once set, ends the search
    with the iterations done (`run_search`)."""
    viewer = position.viewer_seat if viewer is None else viewer
    budget = search_budget(limit)
    options = (options or SearchOptions()).settled(position.players)
    size = position.hand_size
    if size == 0:
        raise errors.PositionError("the hands are empty: the round is over")
    pool = checked_pool(position)
    hands = [None if h is None else list(h) for h in position.hands]

    def make_det() -> Determinizer:
        return Determinizer([list(r) for r in position.rows], hands, pool, size,
                            list(position.penalties))

    careful = (careful_costs(position.rows, hands, pool, viewer, derive_seed(seed, "careful"))
               if options.opponents is Opponents.CAREFUL else None)
    stats, done, elapsed, trees = run_search(make_det, viewer, budget, seed, options, progress,
                                             careful, stop)
    ucb = options.selection is Selection.UCB
    shares = None if ucb else root_shares(trees, viewer, hands[viewer])
    info = {"trees": len(trees), "nodes": sum(t.node_count for t in trees),
            "policy": options.policy.value, "c": options.c, "opponents": options.opponents.value}
    if not ucb or options.reward.value != "own":
        info.update(selection=options.selection.value, reward=options.reward.value,
                    gamma=options.gamma)
    return Analysis(viewer, rank_cards(hands[viewer], stats, shares), done, elapsed, info)


def row_estimates(position: Position, seat: int, cards: Sequence[int], iterations: int,
                  seed: Any = 0, options: Optional[SearchOptions] = None) -> List[CardEstimate]:
    """What each row would cost `seat` (its bullheads from this turn to the end of the round,
    mean and 95% interval; `card` is the row) if its card of `cards`, this turn's cards by
    seat, is too low and takes that row: the rows of `position` (before the turn; only the
    turn's lowest card can be too low, so it takes a row as they are), the hands after the
    turn (hidden ones dealt from the unseen cards), `iterations` deals each played out once
    per row by the playout policy, as `SearchPlayer.choose_row` does."""
    played = set(cards)
    hands = [None if h is None else [c for c in h if c not in played] for h in position.hands]
    pool = [c for c in position.unseen_cards() if c not in played]
    det = Determinizer([list(r) for r in position.rows], hands, pool, position.hand_size - 1,
                       list(position.penalties))
    policy = (options or SearchOptions()).settled(position.players).policy.value
    stats = row_values(det, list(cards), seat, iterations, seed, policy)
    return [estimate(row, *stats[row]) for row in range(ROWS)]


def root_strategies(position: Position, limit: Optional[Limit] = None, seed: Any = 0,
                    options: Optional[SearchOptions] = None) -> List[Optional[Dict[int, float]]]:
    """The search's root mixed strategy of every seat with a visible hand ({card: share of the
    root visits}, or under regret matching of its average strategy; None for a hidden hand):
    how the search player would play here, as one strategy (for measuring it against the
    exact equilibrium of a 2-player position). The viewer of the tree is the first visible
    hand; with every hand visible the tree is the same whatever the viewer. The root's other
    seats are bandits (no careful model)."""
    viewer = position.viewer_seat
    budget = search_budget(limit)
    options = (options or SearchOptions()).settled(position.players)
    hands = [None if h is None else list(h) for h in position.hands]

    def make_det() -> Determinizer:
        return Determinizer([list(r) for r in position.rows], hands, position.unseen_cards(),
                            position.hand_size, list(position.penalties))

    _, _, _, trees = run_search(make_det, viewer, budget, seed, options)
    return [None if hand is None else root_shares(trees, k, hand)
            for k, hand in enumerate(hands)]


# the player --------------------------------------------------------------------------------
class SearchPlayer(Player):
    """The ISMCTS player (module docstring), bot name `mcts`. `limit`: the budget of a
    decision (default 5,000 iterations); `options`: how it searches; `exact_handover`:
    whether a 2-player position with the other hand known and at most `exact_max_cards`
    cards goes to the exact solver; `row_share`: a row choice's budget, relative to a
    card's."""
    name = "mcts"

    def __init__(self, seed=None, limit: Optional[Limit] = None,
                 options: Optional[SearchOptions] = None, exact_handover: bool = True,
                 exact_max_cards: int = 7, row_share: float = 0.25):
        self.budget = search_budget(limit)
        self.options = options or SearchOptions()
        if not (errors.is_integer(exact_max_cards) and 0 <= exact_max_cards <= HAND_SIZE):
            raise errors.ConfigError(f"exact_max_cards must be an integer in 0..{HAND_SIZE},"
                                     f" got {errors.quote(exact_max_cards)}")
        self.rng = random.Random(seed)
        self.exact_handover, self.exact_max_cards = exact_handover, exact_max_cards
        self.row_share = row_share
        self.last: Optional[Analysis] = None

    # cards
    def choose_card(self, view: PlayerView) -> int:
        if len(view.hand) == 1:
            return view.hand[0]
        if self.exact_applies(view):
            return self._exact_card(view)
        hands = [list(view.hand) if k == view.seat else None for k in range(view.players)]
        pool = view.unseen()

        def make_det() -> Determinizer:
            return Determinizer([list(r) for r in view.rows], hands, pool, len(view.hand),
                                list(view.penalties))

        options = self.options.settled(view.players)
        careful = (careful_costs(view.rows, hands, pool, view.seat, self.rng.getrandbits(64))
                   if options.opponents is Opponents.CAREFUL else None)
        stats, done, elapsed, trees = run_search(make_det, view.seat, self.budget,
                                                 self.rng.getrandbits(64), options,
                                                 careful=careful)
        shares = (root_shares(trees, view.seat, view.hand)
                  if options.selection is not Selection.UCB else None)
        self.last = Analysis(view.seat, rank_cards(view.hand, stats, shares), done, elapsed)
        return self.last.best

    def exact_applies(self, view: PlayerView, playing: int = 0) -> bool:
        """Does `view` go to the exact solver: 2 players, the other hand known, at most
        exact_max_cards a hand (counting `playing`, a card on the table this turn)?"""
        return (self.exact_handover and view.players == 2
                and len(view.unseen()) == len(view.hand)
                and len(view.hand) + playing <= self.exact_max_cards)

    def _opponent_position(self, view: PlayerView, rows, hand, other) -> Position:
        hands = [list(hand), list(other)] if view.seat == 0 else [list(other), list(hand)]
        return Position.create([list(r) for r in rows], hands, deck=view.config.deck)

    def _exact_strategy(self, view: PlayerView) -> Dict[int, float]:
        position = self._opponent_position(view, view.rows, view.hand, view.unseen())
        return solve(position, principal_line=False).strategies[view.seat]

    def _exact_card(self, view: PlayerView) -> int:
        strategy = self._exact_strategy(view)
        cards = sorted(strategy)
        return self.rng.choices(cards, weights=[strategy[c] for c in cards])[0]

    def card_strategy(self, view: PlayerView) -> Optional[Dict[int, float]]:
        """Known on the exact hand-over (the equilibrium strategy it samples) and with one
        card; the search's card depends on its seed (None)."""
        if len(view.hand) == 1:
            return {view.hand[0]: 1.0}
        return self._exact_strategy(view) if self.exact_applies(view) else None

    # rows
    def choose_row(self, view: PlayerView, card: int) -> int:
        rest = [c for c in view.hand if c != card]
        if not rest:                       # the last turn: only this turn's bullheads count
            return cheapest_row(view.rows)
        if self.exact_applies(view, playing=1):     # the hands gave up this turn's cards
            return self._exact_row(view, card)
        hands = [rest if k == view.seat else None for k in range(view.players)]
        pool = view.unseen()
        det = Determinizer([list(r) for r in view.rows], hands, pool, len(rest),
                           list(view.penalties))
        seed = self.rng.getrandbits(64)
        policy = self.options.settled(view.players).policy.value
        if self.budget.iterations is not None:
            n = max(64, int(self.budget.iterations * self.row_share) // ROWS)
            values = row_values(det, list(view.turn_cards()), view.seat, n, seed, policy)
        else:
            values = self._timed_rows(det, view, seed, policy)
        means = [s / n if n else math.inf for n, s, _ in values]
        return min(range(ROWS), key=lambda r: (means[r], r))

    def _exact_row(self, view: PlayerView, card: int) -> int:
        """The exact solver's best row (the cheapest among the best), from the position
        before this turn: both hands with their cards of the turn back in."""
        other = view.turn_cards()[1 - view.seat]
        position = self._opponent_position(view, view.rows, sorted(view.hand + (card,)),
                                           sorted(view.unseen() + [other]))
        with Engine(position) as engine:
            choice = engine.row_choice(position, (card, other) if view.seat == 0
                                       else (other, card))
        return choice.row

    def _timed_rows(self, det: Determinizer, view: PlayerView, seed: int, policy: str):
        deadline = time.perf_counter() + self.budget.seconds * self.row_share
        totals = [[0, 0.0, 0.0] for _ in range(ROWS)]
        batch = 0
        while True:
            part = row_values(det, list(view.turn_cards()), view.seat, 256,
                              derive_seed(seed, batch), policy)
            for acc, (n, s, q) in zip(totals, part):
                acc[0] += n
                acc[1] += s
                acc[2] += q
            batch += 1
            if time.perf_counter() >= deadline:
                return totals
