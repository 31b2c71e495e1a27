"""One ply of expectimax over sampled worlds, with the network (the bot `nsearch`).

For a card decision with more than one card in hand:

1. `worlds` times, deal the cards the seat has not seen to the other hands (uniformly, the
   right hand sizes: a world consistent with what the seat knows); with `belief` = C, draw
   them instead from C such deals, each weighed by how likely the others' model makes the
   cards every other seat played this round, from its hands of that world (tempered);
2. in each world every other seat picks its card by sampling the network's policy on its own
   view of that world (its hand, the public table), all views of all worlds in one batch. The
   others' cards are drawn once per world and reused for every candidate card of ours: the
   moves are simultaneous, so they cannot depend on our choice;
3. each of our cards is resolved against them by the C rules (where ours is too low, on the
   row of least bullheads plus the value head's of the state after the turn, as we shall
   choose it knowing the turn's cards; the others' too-low cards take the cheapest row);
   its score in the world is the bullheads we take
   this turn (`Reward.OWN`, or that less the mean of the others', `Reward.RELATIVE`) plus a
   leaf value of the state after the turn, for our seat, seen from our seat (our hand without
   the card, the rows after the turn): the network's value head (`Leaf.NET`, all (world,
   card) states in one batch: our bullheads from then to the end of the round), nothing
   (`Leaf.ZERO`: this turn alone), a heuristic playout of the world to the end of the
   round by the C core (`Leaf.ROLLOUT`), or a playout of the world in which every seat, ours
   too, samples the network's policy on its own view (`Leaf.PLAYOUT`: all the playouts of a
   decision step by step, one batch per turn; slower, and it improves with more worlds
   where the value head's error does not; with `plan` = K our own card of the first turn
   played out is chosen against K draws of the others' cards instead of drawn);
4. with a time budget (`seconds`), steps 1-3 are repeated with fresh worlds (and fresh
   candidates) while the budget holds one more batch of the mean batch's time;
5. the card with the least mean score over the worlds is played (ties: the lower card);
   with `prior` > 0 each card's score first grows by prior * -log(the policy's probability
   of the card), so the search departs from the policy only where it sees a clear gain.

The randomness (the worlds, the others' draws) comes from the `random.Random` given: the same
seed gives the same card. In the 24-card 2-player game nothing is hidden, so every world holds
the same hands; only the other seat's sampled card differs between worlds.
"""
from dataclasses import dataclass
from enum import Enum
from random import Random
from threading import Event
from time import perf_counter
from typing import Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from .._rules import c_play_turn, play_turns
from .._sim import finish_round
from ..core.player import PlayerView
from ..core.rules import HAND_SIZE, ROWS
from ..errors import ConfigError, quote
from ..limits import MAX_SECONDS
from .features import RawViews, encode, raw_views, rows_array, seat_relative
from .lockstep import Tables, sample_slots
from .model import PolicyNet

MAX_WORLDS = 4096
MAX_PLAN = 64          # draws of the others' cards for our planned card (`plan`)
BELIEF_POWER = 0.5      # the likelihood's tempering in belief_weights
WORLD_COST_SAMPLES = 32    # draws of the sampled-cost feature in the views of sampled
                           # worlds (past views, the others' draws, playouts): a quarter

Hands = Tuple[Tuple[int, ...], ...]      # one world: every seat's hand (ours as it is)
Models = Union[None, PolicyNet, Sequence[PolicyNet]]   # the others' model(s)


class Reward(str, Enum):
    """What this turn's bullheads count as."""
    OWN = "own"              # our own bullheads
    RELATIVE = "relative"    # ours less the mean of the others'


class Leaf(str, Enum):
    """How the state after the turn is valued (our bullheads from then to the round's end)."""
    NET = "net"              # the network's value head
    ZERO = "zero"            # not at all: this turn's bullheads only
    ROLLOUT = "rollout"      # a heuristic playout of the world by the C core
    PLAYOUT = "playout"      # a playout of the world with every seat sampling the network


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
    depth: int = HAND_SIZE     # Leaf.PLAYOUT: turns played out before the value head
    temperature: float = 1.0   # of the others' cards drawn from the policy
    prior: float = 0.0         # bullheads per nat of -log(policy) added to a card's score
    belief: int = 0            # candidate worlds weighed by the others' past plays (0: off)
    power: float = BELIEF_POWER   # the tempering of belief's likelihood
    plan: int = 0              # Leaf.PLAYOUT: our first card played out chosen, not drawn,
                               # against this many draws of the others' (0: drawn)
    seconds: float = 0.0       # a time budget: batches of `worlds` worlds, each from its own
                               # candidates, while it lasts (0: one batch, reproducible)

    def __post_init__(self):
        if not 1 <= self.worlds <= MAX_WORLDS:
            raise ConfigError(f"worlds must be 1..{MAX_WORLDS}, got {self.worlds}")
        if not 1 <= self.depth <= HAND_SIZE:
            raise ConfigError(f"depth must be 1..{HAND_SIZE}, got {self.depth}")
        if not 0.01 <= self.temperature <= 100:
            raise ConfigError(f"temperature must be 0.01..100, got {self.temperature}")
        if not 0 <= self.prior <= 100:
            raise ConfigError(f"prior must be 0..100, got {self.prior}")
        if not (self.belief == 0 or 1 <= self.belief <= MAX_WORLDS):
            raise ConfigError(f"belief must be 0 (off) or 1..{MAX_WORLDS}, got {self.belief}")
        if not 0 <= self.plan <= MAX_PLAN:
            raise ConfigError(f"plan must be 0..{MAX_PLAN}, got {self.plan}")
        if not 0 <= self.power <= 1:
            raise ConfigError(f"power must be 0..1, got {self.power}")
        if not 0 <= self.seconds <= MAX_SECONDS:
            raise ConfigError(f"seconds must be 0 (one batch of worlds) or up to"
                              f" {MAX_SECONDS:g}, got {self.seconds}")
        object.__setattr__(self, "reward", _mode(Reward, self.reward, "reward"))
        object.__setattr__(self, "leaf", _mode(Leaf, self.leaf, "value"))
        # both shape the playouts only: elsewhere they would be accepted and do nothing
        if self.leaf is not Leaf.PLAYOUT:
            if self.plan:
                raise ConfigError(f"plan needs value=playout, got value={self.leaf.value}")
            if self.depth != HAND_SIZE:
                raise ConfigError(f"depth needs value=playout, got value={self.leaf.value}")


def sample_worlds(view: PlayerView, worlds: int, rng: Random) -> List[Hands]:
    """`worlds` deals of the unseen cards to the other seats, each as every seat's hand
    (one shuffle of the unseen cards a world, all worlds in one numpy call)."""
    unseen = np.array(view.unseen(), dtype=np.int64)
    size = len(view.hand)
    others = [k for k in range(view.players) if k != view.seat]
    gen = np.random.default_rng(rng.getrandbits(63))
    drawn = gen.permuted(np.tile(unseen, (worlds, 1)), axis=1)[:, :size * len(others)]
    drawn = np.sort(drawn.reshape(worlds, len(others), size), axis=2).tolist()
    mine = tuple(sorted(view.hand))
    out = []
    for world in drawn:
        hands: List[Tuple[int, ...]] = [mine] * view.players
        for k, cards in zip(others, world):
            hands[k] = tuple(cards)
        out.append(tuple(hands))
    return out


def past_views(view: PlayerView) -> Tuple[RawViews, List[Tuple[int, int]]]:
    """Every other seat's raw view at each earlier turn of the round (turn by turn, seats in
    order), its hand left empty, and the (turn, seat) of each: the moments whose plays say
    something about the hidden hands. The rows and penalties are replayed from the start
    rows, the cards and the row choices the whole table saw (the penalties before the first
    of them, and its turn number, are what the view's own leave: a record may start mid-round)."""
    rows = [list(r) for r in view.start_rows]
    before: List[Tuple[Tuple[Tuple[int, ...], ...], List[int]]] = []   # rows, bullheads taken
    taken_since = [0] * view.players
    for t, cards in enumerate(view.played):
        before.append((tuple(map(tuple, rows)), taken_since))
        choices = view.row_choices[t] if t < len(view.row_choices) else (None,) * len(cards)
        rows, taken = c_play_turn(rows, list(cards), list(choices))
        taken_since = [a + b for a, b in zip(taken_since, taken)]
    first_turn = view.turn - len(view.played)
    at_start = [p - q for p, q in zip(view.penalties, taken_since)]
    views, moments = [], []
    for t, (rows_t, taken_before) in enumerate(before):
        penalties = tuple(a + b for a, b in zip(at_start, taken_before))
        for k in range(view.players):
            if k != view.seat:
                views.append(PlayerView(view.config, k, rows_t, (), view.start_rows,
                                        view.played[:t], penalties, view.scores, first_turn + t,
                                        row_choices=view.row_choices[:t],
                                        out_of_play=view.out_of_play))
                moments.append((t, k))
    return raw_views(views), moments


def log_likelihoods(net: PolicyNet, view: PlayerView, worlds: Sequence[Hands]) -> np.ndarray:
    """[W]: for each world, the log-probability under `net`'s policy of the cards every other
    seat played this round, each from its hand of that moment in that world (its hand now and
    the cards it played since): how well the world explains the others' play."""
    return models_log_likelihoods([net], view, worlds)[0]


def models_log_likelihoods(nets: Sequence[PolicyNet], view: PlayerView,
                           worlds: Sequence[Hands]) -> np.ndarray:
    """[M, W]: `log_likelihoods` under each of `nets`, the views encoded once for all."""
    if not view.played or not worlds:
        return np.zeros((len(nets), len(worlds)))
    base, moments = past_views(view)
    count = len(worlds) * len(moments)
    raw = base.subset(np.tile(np.arange(len(moments)), len(worlds)))   # world by world
    hidden = np.array(worlds, dtype=np.int64)                 # [W, seats, cards in hand]
    hand = raw.hand.reshape(len(worlds), len(moments), -1)
    slots = np.zeros((len(worlds), len(moments)), dtype=np.int64)
    for j, (t, k) in enumerate(moments):
        # seat k's hand at turn t: its hand now and the cards it played since
        since = np.array([view.played[u][k] for u in range(t, len(view.played))])
        cards = np.sort(np.concatenate(
            [hidden[:, k, :], np.broadcast_to(since, (len(worlds), len(since)))], axis=1), axis=1)
        hand[:, j, :cards.shape[1]] = cards
        slots[:, j] = (cards < view.played[t][k]).sum(axis=1)
    slots = slots.reshape(-1)
    encoded = encode(raw, WORLD_COST_SAMPLES)
    out = np.zeros((len(nets), len(worlds)))
    for m, net in enumerate(nets):
        logits = net.logits(encoded)
        chosen = log_softmax(logits)[np.arange(count), slots]
        out[m] = chosen.reshape(len(worlds), len(moments)).sum(axis=1)
    return out


def log_softmax(logits: np.ndarray) -> np.ndarray:
    """Each row's log-probabilities (float64; empty slots at -1e9 get none)."""
    z = logits.astype(np.float64)
    z = z - z.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def belief_weights(nets: Sequence[PolicyNet], view: PlayerView, candidates: int, rng: Random,
                   power: float = BELIEF_POWER) -> Tuple[List[Hands], np.ndarray]:
    """`candidates` uniform deals and the weights (summing to 1) of the deals paired with each
    of the others' models `nets` (pair i: deal i % candidates, model i // candidates; the
    models equally likely before the play): each pair weighed by its likelihood of the
    others' play to the power `power` (below 1: tempered, the model of the others is not
    exact), so the table's play says which deals, and which model, fit it. `resample` draws
    the worlds from them."""
    pool = sample_worlds(view, candidates, rng)
    ll = power * models_log_likelihoods(nets, view, pool).reshape(-1)
    w = np.exp(ll - ll.max())
    return pool, w / w.sum()


def resample(pool: Sequence[Hands], w: np.ndarray, worlds: int,
             rng: Random) -> List[Tuple[Hands, int]]:
    """`worlds` (deal, model) pairs drawn by systematic resampling with the weights `w`."""
    picks = np.searchsorted(np.cumsum(w), (rng.random() + np.arange(worlds)) / worlds)
    return [(pool[i % len(pool)], i // len(pool))
            for i in np.minimum(picks, len(w) - 1)]


def effective_worlds(w: np.ndarray, worlds: int) -> float:
    """How many independent worlds `worlds` draws from weights `w` are worth: at most the
    candidates' effective number (Kish: 1 / sum of squared weights), which is small when
    the table's play leaves few deals likely."""
    return min(float(worlds), 1.0 / float(np.sum(np.square(w))))


def _relative_rows(values: Sequence[int], players: int) -> np.ndarray:
    """[players, 10]: row k is `values` seen from seat k (that seat first, then in turn)."""
    return np.array([seat_relative(values, k) for k in range(players)])


def _repeat(raw: RawViews, count: int) -> dict:
    """The arrays of one raw view, `count` times."""
    return {k: np.repeat(v, count, axis=0) for k, v in raw.arrays().items()}


def others_views(view: PlayerView, parent: RawViews, worlds: Sequence[Hands]) -> RawViews:
    """Every other seat's raw view of this moment in every world (world by world, seats in
    order): the public table is the seat's own, only the hand and the seat differ. Built
    from the deciding seat's raw view `parent`, as `raw_views` would build each."""
    seats = [k for k in range(view.players) if k != view.seat]
    a = _repeat(parent, len(worlds) * len(seats))
    a["hand"][:] = 0
    a["hand"][:, :len(view.hand)] = [hands[k] for hands in worlds for k in seats]
    a["penalties"] = np.tile(_relative_rows(view.penalties, view.players)[seats],
                             (len(worlds), 1))
    if view.scores:
        a["scores"] = np.tile(_relative_rows(view.scores, view.players)[seats],
                              (len(worlds), 1))
    return RawViews(**a)


def others_cards(net: PolicyNet, view: PlayerView, worlds: Sequence[Hands], rng: Random,
                 parent: Optional[RawViews] = None, temperature: float = 1.0
                 ) -> List[Dict[int, int]]:
    """Per world, each other seat's card, drawn from the network's policy on its view at
    `temperature` (below 1: nearer its most likely card; one batch for every seat of every
    world). `parent`: the seat's raw view, if made already."""
    seats = [k for k in range(view.players) if k != view.seat]
    parent = raw_views([view]) if parent is None else parent
    logits = net.logits(encode(others_views(view, parent, worlds), WORLD_COST_SAMPLES))
    index = sample_slots(logits, len(view.hand), np.random.default_rng(rng.getrandbits(63)),
                         temperature)
    out, i = [], 0
    for hands in worlds:
        picks = {}
        for k in seats:
            picks[k] = hands[k][int(index[i])]        # hands are sorted, as the logits
            i += 1
        out.append(picks)
    return out


def next_views(view: PlayerView, parent: RawViews, slots: np.ndarray, cards: np.ndarray,
               taken: np.ndarray, rows: np.ndarray) -> RawViews:
    """The deciding seat's raw view after each of T turns given as arrays: its card's slot
    in the sorted hand [T], the turn's cards by seat [T, n], the bullheads taken by seat
    [T, n] and the rows after [T, 4, 5] (as `play_turns` leaves them), as `raw_views`
    would build the views of the next turn."""
    n, seat = view.players, view.seat
    hand = sorted(view.hand)
    a = _repeat(parent, len(slots))
    a["turn"] = a["turn"] + 1
    rest = np.zeros((len(hand), len(a["hand"][0])), dtype=a["hand"].dtype)
    for j in range(len(hand)):
        rest[j, :len(hand) - 1] = hand[:j] + hand[j + 1:]
    a["hand"] = rest[np.asarray(slots)]
    np.put_along_axis(a["seen"], np.asarray(cards, dtype=np.int64), True, axis=1)
    order = [(seat + i) % n for i in range(n)]
    a["penalties"][:, :n] += np.asarray(taken, dtype=np.int16)[:, order]
    a["rows"] = np.asarray(rows, dtype=np.int8).copy()
    return RawViews(**a)


@dataclass(frozen=True)
class CardScore:
    """One card of the hand as the search sees it."""
    card: int
    expected: float      # mean bullheads over the worlds: this turn plus the leaf value
    spread: float        # their standard deviation over the worlds
    probability: float   # the policy's probability of the card (1.0 when not computed)
    score: float         # what the card is chosen by (least): expected + prior * -log(p)
    samples: float = 1.0  # the worlds' worth as independent draws (effective_worlds)


def card_scores(net: PolicyNet, view: PlayerView, options: NetSearchOptions,
                rng: Random, others_net: Models = None,
                drawn_models: Optional[List[int]] = None) -> Dict[int, float]:
    """Each card of the hand's score (lower is better): `analyse_cards`' `score`."""
    return {e.card: e.score
            for e in analyse_cards(net, view, options, rng, others_net, drawn_models)}


def analyse_cards(net: PolicyNet, view: PlayerView, options: NetSearchOptions,
                  rng: Random, others_net: Models = None,
                  drawn_models: Optional[List[int]] = None,
                  stop: Optional[Event] = None) -> List[CardScore]:
    """Each card of the hand (ascending) with its mean score over the sampled worlds
    (`card_totals`, whose arguments these are)."""
    hand = tuple(sorted(view.hand))
    totals, samples = card_totals(net, view, options, rng, others_net, drawn_models, stop)
    means = totals.mean(axis=0)
    spreads = totals.std(axis=0)
    surprise = np.zeros(len(hand))
    if options.prior > 0:
        # the policy's own say: an unlikely card pays prior * -log(its probability)
        logits = net.logits(encode(raw_views([view])))
        surprise = -log_softmax(logits[0, :len(hand)])
    scores = means + options.prior * surprise
    return [CardScore(card, float(means[j]), float(spreads[j]), float(np.exp(-surprise[j])),
                      float(scores[j]), samples) for j, card in enumerate(hand)]


def card_totals(net: PolicyNet, view: PlayerView, options: NetSearchOptions, rng: Random,
                others_net: Models = None, drawn_models: Optional[List[int]] = None,
                stop: Optional[Event] = None) -> Tuple[np.ndarray, float]:
    """Each sampled world's bullheads of each card of the hand, ascending ([worlds, cards]:
    this turn's plus the leaf's; every card on the same worlds), and what the worlds are
    worth as independent draws. `others_net`: the network whose policy draws the others'
    cards (default `net`), or several: each world then has one of them for every other
    seat, weighed with the deal by the others' play under `belief`, else taken in turn;
    `drawn_models`, if given, gets each world's model (an index into them), batch by batch.
    `stop`, once set, ends a time budget's batches early (after the first)."""
    hand = tuple(sorted(view.hand))
    models = _models(others_net, net)
    parent = raw_views([view])
    # with a time budget, another batch while the budget holds one more of the mean batch
    start, parts, samples = perf_counter(), [], 0.0
    while True:
        totals, batch_samples = _world_totals(net, view, options, rng, others_net, models,
                                              parent, hand, drawn_models)
        parts.append(totals)
        samples += batch_samples
        spent = perf_counter() - start
        if (spent * (len(parts) + 1) / len(parts) > options.seconds
                or (stop is not None and stop.is_set())):
            break
    return np.concatenate(parts), samples


def draw_worlds(view: PlayerView, options: NetSearchOptions, models: List[PolicyNet],
                rng: Random) -> Tuple[List[Hands], np.ndarray, float]:
    """`options.worlds` worlds of `view` and each one's model of the others (an index into
    `models`): with `belief`, drawn with their models by the others' play, else uniform
    with the models in turn; and how many independent worlds they are worth."""
    if options.belief:
        pool, w = belief_weights(models, view, options.belief, rng, options.power)
        pairs = resample(pool, w, options.worlds, rng)
        return ([h for h, _ in pairs], np.array([m for _, m in pairs]),
                effective_worlds(w, options.worlds))
    worlds = sample_worlds(view, options.worlds, rng)
    return worlds, np.arange(len(worlds)) % len(models), float(len(worlds))


def _world_totals(net: PolicyNet, view: PlayerView, options: NetSearchOptions, rng: Random,
                  others_net: Models, models: List[PolicyNet], parent: RawViews,
                  hand: Tuple[int, ...], drawn_models: Optional[List[int]]
                  ) -> Tuple[np.ndarray, float]:
    """One batch of `analyse_cards`: each of `options.worlds` worlds' score of each card
    [worlds, cards], and how many independent worlds they are worth."""
    worlds, model_of, samples = draw_worlds(view, options, models, rng)
    if drawn_models is not None:
        drawn_models.extend(int(m) for m in model_of)
    picks: List[Dict[int, int]] = [{} for _ in worlds]
    for m, model in enumerate(models):
        group = np.flatnonzero(model_of == m)
        if len(group):
            drawn = others_cards(model, view, [worlds[w] for w in group], rng, parent,
                                 options.temperature)
            for w, cards in zip(group, drawn):
                picks[w] = cards
    n, seat = view.players, view.seat
    # every (world, card of ours) turn in one C call: our card against the world's draws
    cards = np.array([[card if k == seat else theirs[k] for k in range(n)]
                      for theirs in picks for card in hand], dtype=np.int64)    # [W * H, n]
    slots = np.tile(np.arange(len(hand)), len(worlds))     # our card's, world by world
    choices = np.full(cards.shape, -1, dtype=np.int64)    # -1: a too-low card's cheapest row
    if options.leaf is not Leaf.ZERO:
        choices[:, seat] = _our_rows(net, view, parent, cards, slots)
    rows = np.repeat(rows_array([view.rows]), len(cards), axis=0)
    taken = play_turns(rows, cards, choices)                 # rows: now after the turn
    own = taken[:, seat].astype(np.float64)
    if options.reward is Reward.RELATIVE:
        own -= (taken.sum(axis=1) - taken[:, seat]) / (n - 1)
    immediate = own.reshape(len(worlds), len(hand))
    leaf = np.zeros_like(immediate)
    if options.leaf is Leaf.NET:
        values = net.values(encode(next_views(view, parent, slots, cards, taken, rows),
                                   WORLD_COST_SAMPLES))
        leaf = values.astype(np.float64).reshape(immediate.shape)
    elif options.leaf in (Leaf.ROLLOUT, Leaf.PLAYOUT):
        # every seat's hand after the turn: ours without the card, theirs without theirs
        left = np.repeat(np.array(worlds, dtype=np.int64), len(hand), axis=0)   # [T, n, size]
        left = np.where(left == cards[:, :, None], 0, left)
        if options.leaf is Leaf.ROLLOUT:
            seed = rng.getrandbits(63)
            leaf = np.array([finish_round([[int(c) for c in row if c] for row in rows[i]],
                                          [[int(c) for c in h if c] for h in left[i]],
                                          seed + i, "heuristic")[1][seat]
                             for i in range(len(cards))],
                            dtype=np.float64).reshape(immediate.shape)
        else:
            leaf = playouts(net, view, parent, rows, left, cards, taken, rng, options.depth,
                            models if others_net is not None else None, shared=len(hand),
                            model_of=np.repeat(model_of, len(hand)), plan=options.plan,
                            prior=options.prior).reshape(immediate.shape)
    return immediate + leaf, samples


def _our_rows(net: PolicyNet, view: PlayerView, parent: RawViews, cards: np.ndarray,
              slots: np.ndarray) -> np.ndarray:
    """[T]: the row our card takes in each of T turns (`cards` [T, n], our card's slot in
    the hand `slots` [T]), -1 where it is not too low (the cheapest row then, unused). We
    shall choose a too-low card's row knowing the turn's cards, so in the look-ahead it is
    the row of least bullheads plus the value head's of the state after the turn: a choice
    by a number without sampling noise (the least of four noisy playouts would flatter every
    too-low card), the card then scored on that row as any other."""
    seat = view.seat
    ours = cards[:, seat]
    low = np.flatnonzero((ours == cards.min(axis=1))
                         & (ours < min(row[-1] for row in view.rows)))
    out = np.full(len(cards), -1, dtype=np.int64)
    if not len(low) or len(view.hand) == 1:          # a last card: nothing after the turn
        return out
    trial = np.repeat(cards[low], ROWS, axis=0)             # each too-low turn, each row
    choices = np.full(trial.shape, -1, dtype=np.int64)
    choices[:, seat] = np.tile(np.arange(ROWS), len(low))
    rows = np.repeat(rows_array([view.rows]), len(trial), axis=0)
    taken = play_turns(rows, trial, choices)
    values = net.values(encode(next_views(view, parent, np.repeat(slots[low], ROWS), trial,
                                          taken, rows), WORLD_COST_SAMPLES))
    scores = (taken[:, seat] + values.astype(np.float64)).reshape(len(low), ROWS)
    out[low] = np.argmin(scores, axis=1)
    return out


def row_scores(net: PolicyNet, view: PlayerView, card: int, options: NetSearchOptions,
               rng: Random, others_net: Models = None) -> List[float]:
    """A too-low `card`'s four rows, each scored (lower is better) by the bullheads it takes
    plus our mean bullheads from the next turn over sampled worlds, as a card's: the rest of
    the turn is known (`view.revealed`; every other card is higher, so none is too low), the
    worlds are deals of the unseen cards after it (with `belief`, weighed by the others'
    play, this turn's cards included), each played out `depth` turns by the policies (the
    world's model for the others), then the value head. Every row on the same worlds and
    random numbers. Reward `own`; `plan` and `seconds` are not used here: one batch."""
    n, seat = view.players, view.seat
    cards = list(view.turn_cards())
    outcomes = []
    for r in range(ROWS):
        choices = [r if k == seat else None for k in range(n)]
        rows, taken = c_play_turn(view.rows, cards, choices)
        outcomes.append((rows, taken, tuple(choices)))
    own = [float(taken[seat]) for _, taken, _ in outcomes]
    if not view.hand:
        return own
    rows0, _, choices0 = outcomes[0]
    # the next turn's view (the rows do not change who holds what, nor the worlds' weights)
    after = PlayerView(view.config, seat, tuple(map(tuple, rows0)), view.hand, view.start_rows,
                       view.played + (tuple(cards),), view.penalties, view.scores,
                       view.turn + 1, row_choices=view.row_choices + (choices0,),
                       out_of_play=view.out_of_play)
    worlds, model_of, _ = draw_worlds(after, options, _models(others_net, net), rng)
    # world by world, the rows in each: the starts of `playouts` (each hand with a 0 for
    # the card of the turn, which it drops)
    held = np.array(worlds, dtype=np.int64)
    left = np.repeat(np.concatenate([held, np.zeros(held.shape[:2] + (1,), np.int64)], axis=2),
                     ROWS, axis=0)
    rows = np.tile(rows_array([o[0] for o in outcomes]), (len(worlds), 1, 1))
    taken = np.tile([o[1] for o in outcomes], (len(worlds), 1))
    turn = np.tile(cards, (len(left), 1))
    later = playouts(net, view, raw_views([view]), rows, left, turn, taken, rng, options.depth,
                     others_net, shared=ROWS, model_of=np.repeat(model_of, ROWS))
    means = later.reshape(len(worlds), ROWS).mean(axis=0)
    return [own[r] + float(means[r]) for r in range(ROWS)]


def playouts(net: PolicyNet, view: PlayerView, parent: RawViews, rows: np.ndarray,
             left: np.ndarray, cards: np.ndarray, taken: np.ndarray,
             rng: Random, depth: int = HAND_SIZE,
             others_net: Models = None, shared: int = 1,
             model_of: Optional[np.ndarray] = None, plan: int = 0,
             prior: float = 0.0) -> np.ndarray:
    """Our bullheads from each of T starts (just after our candidate turn: the rows [T, 4,
    5], every seat's hand [T, n, size] with 0 for the card played, the turn's cards and
    bullheads [T, n]) to the end of the round, every seat playing
    the card it samples from the network's policy on its own view (the other seats from
    `others_net`'s if given; of several, start i's from `others_net[model_of[i]]`); a
    too-low card takes the cheapest row. After `depth` turns the
    network's value of our view ends the playout (the rest of the round). All playouts
    advance together: one batch per turn. Each block of `shared` consecutive playouts (the
    cards of one world) draws with the same uniform numbers, seat by seat and turn by turn:
    common random numbers, so that the differences between the cards are less noisy than
    the playouts.

    With `plan` = K > 0 our card of the first turn played out is not drawn but chosen: each
    card of ours is played against K draws of the others' cards (the same K for every card
    of ours) and played out from there, and the start's value is that of the card with the
    least mean (plus `prior` times the policy's surprise at it, as at the root)."""
    n, seat, count = view.players, view.seat, len(rows)
    gen = np.random.default_rng(rng.getrandbits(63))
    hands = np.zeros((count, n, HAND_SIZE), dtype=np.int8)
    size = left.shape[2] - 1
    # each hand ascending without its played card (the 0 sorts first: drop it)
    hands[:, :, :size] = np.sort(left, axis=2)[:, :, 1:]
    seen = np.repeat(parent.seen, count, axis=0)
    np.put_along_axis(seen, np.asarray(cards, dtype=np.int64), True, axis=1)
    penalties = np.array([view.penalties] * count) + taken
    scores = np.array([view.scores or (0,) * n] * count)
    tables = Tables(n, view.config.deck, view.turn + 1, rows.copy(), hands, seen, penalties,
                    scores)
    models = _models(others_net, net) if others_net is not None else None
    of = np.zeros(count, dtype=np.int64) if model_of is None else np.asarray(model_of)
    if plan and size > 1 and depth >= 1:
        return _planned(tables, net, models, of, seat, depth, gen, shared, plan, prior)
    return _play_on(tables, net, models, of, seat, depth, gen, shared)


def _seat_logits(tables: Tables, net: PolicyNet, models: Optional[List[PolicyNet]],
                 of: np.ndarray, seat: int) -> np.ndarray:
    """[count * n, 10]: the logits of every seat's view of every table, ours by `net`, the
    others' by their table's model (`models[of[i]]`; None: `net` for every seat)."""
    n, count = tables.players, tables.count
    encoded = encode(tables.views(), WORLD_COST_SAMPLES)
    if models is None:
        return net.logits(encoded)
    mine = np.arange(count) * n + seat
    theirs = np.ones(count * n, dtype=bool)
    theirs[mine] = False
    by_row = np.repeat(of, n)                      # each row's table's model
    logits = np.empty((count * n, HAND_SIZE), dtype=np.float32)
    logits[mine] = net.logits(encoded.subset(mine))
    for m, model in enumerate(models):
        rows = np.flatnonzero(theirs & (by_row == m))
        if len(rows):
            logits[rows] = model.logits(encoded.subset(rows))
    return logits


def _play_on(tables: Tables, net: PolicyNet, models: Optional[List[PolicyNet]],
             of: np.ndarray, seat: int, depth: int, gen: np.random.Generator,
             shared: int) -> np.ndarray:
    """`playouts` from `tables` as they are: our bullheads to the round's end, or to `depth`
    turns and the value head."""
    n, count, size = tables.players, tables.count, tables.size
    ours = np.zeros(count)
    mine = np.arange(count) * n + seat              # our seat's rows in a batch of every seat
    for step in range(size):
        if step == depth:
            return ours + net.values(encode(tables.views().subset(mine), WORLD_COST_SAMPLES))
        if tables.size > 1:
            logits = _seat_logits(tables, net, models, of, seat)
            u = np.repeat(gen.random((count // shared, 1, n)), shared, axis=1)
            index = sample_slots(logits, tables.size, gen, u=u.reshape(-1)).reshape(count, n)
        else:
            index = np.zeros((count, n), dtype=np.int64)
        ours += tables.play(index)[:, seat]
    return ours


def _planned(tables: Tables, net: PolicyNet, models: Optional[List[PolicyNet]],
             of: np.ndarray, seat: int, depth: int, gen: np.random.Generator, shared: int,
             plan: int, prior: float) -> np.ndarray:
    """`playouts` with our first card chosen (`plan` draws of the others' cards)."""
    n, count, size = tables.players, tables.count, tables.size
    logits = _seat_logits(tables, net, models, of, seat).reshape(count, n, HAND_SIZE)
    u = np.repeat(gen.random((count // shared, 1, plan, n)), shared, axis=1)
    draws = sample_slots(np.repeat(logits, plan, axis=0).reshape(-1, HAND_SIZE), size, gen,
                         u=u.reshape(-1)).reshape(count, plan, n)
    index = np.repeat(draws[:, :, None, :], size, axis=2)     # [start, draw, our card, seat]
    index[:, :, :, seat] = np.arange(size)
    expanded = tables.repeat(plan * size)
    taken = expanded.play(index.reshape(-1, n))[:, seat]
    rest = _play_on(expanded, net, models, np.repeat(of, plan * size), seat, depth - 1, gen,
                    size)
    means = (taken + rest).reshape(count, plan, size).mean(axis=1)
    surprise = -log_softmax(logits[:, seat, :size])
    choice = np.argmin(means + prior * surprise, axis=1)
    return means[np.arange(count), choice]


def _models(others: Models, net: PolicyNet) -> List[PolicyNet]:
    """The others' models as a list: `net` itself when none is given."""
    if others is None:
        return [net]
    return list(others) if isinstance(others, (list, tuple)) else [others]


def score_order(card: int, score: float) -> Tuple[float, int]:
    """The order cards are preferred in: least score first, the lower card on a tie."""
    return round(score, 9), card


def best_scored(scores: Dict[int, float]) -> int:
    """The card of least mean score (ties: the lower card)."""
    return min(scores, key=lambda c: score_order(c, scores[c]))
