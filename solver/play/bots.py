"""Bots, and the registry the command line builds them from (`--bots random,greedy,mcts`).

- `random`: a uniformly random card, the cheapest row.
- `greedy`: the lowest immediate risk given the rows (a formula for the chance of being the
  6th card or of taking a row).
- `lowkeeper`: the seeds' advice: keep a very low card to take a cheap row on purpose.
- `safe`: avoid the 6th card: play a card that cannot be the 6th while there is one.
- `sampler`: the lowest immediate cost measured by sampling the other players' cards.
- `net`: the learned policy (solver/learn/): the card the network rates highest; options
  `net:weights=FILE` (other weights than the shipped ones), `net:rows=greedy|value` (a
  too-low card's row: the greedy weighing, or by the network's value).
- `nsearch`: one ply of expectimax with the network over sampled worlds (solver/learn/search.py):
  the others' cards drawn from the network's policy, each card of ours scored by this turn's
  bullheads plus the network's value of the state after it; options `nsearch:worlds=N`,
  `nsearch:reward=own|relative`, `nsearch:value=net|zero|rollout` (the state after the turn
  valued by the network, not at all, or by a heuristic playout), `weights` and `rows` as
  for `net`, or `rows=search` (a too-low card's row scored over the worlds as a card is).
  `belief` is `nsearch` with the settings docs/search-player.md measured strongest.
- `program`: another program, any language, asked over pipes (solver/play/program.py),
  `program:path=FILE:seconds=S`.
- `mcts`: the search player (solver/mcts/), options `mcts:iterations=N`, `mcts:seconds=S`,
  `mcts:jobs=J`, `mcts:c=C`, `mcts:policy=random|heuristic`, `mcts:exact=0`,
  `mcts:selection=auto|ucb|rm|rm+`, `mcts:gamma=G` (regret matching's exploration),
  `mcts:reward=auto|own|relative` ("auto": regret matching+ on the relative reward at 2
  players, UCB on the own reward from 3 on).

Every heuristic bot makes a considered row choice (see each class), never blindly the
cheapest row. The deterministic bots (`greedy`, `lowkeeper`, `safe`, `net`) and `random` say
their card's strategy (`card_strategy`); `sampler`'s comes from its random draws.
"""
import math
import random
import re
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .._rules import c_play_turn
from ..core.notation import INTEGER_TEXT
from ..core.player import Player, PlayerView
from ..core.position import close_key
from ..core.rules import (HAND_SIZE, ROW_LIMIT, ROWS, fewest_bullheads_chooser, play_turn,
                          row_bullheads, target_row)
from ..errors import ConfigError, quote
from ..learn.model import likeliest_cards, load_cached, others_model
from ..learn.search import (BELIEF_POWER, NetSearchOptions, best_scored, card_scores,
                            log_softmax, row_scores)
from ..limits import Limit
from ..mcts import SearchOptions, SearchPlayer
from ..mcts.options import check_seconds
from .program import ProgramBot

Rows = Sequence[Sequence[int]]


class RandomBot(Player):
    """Plays a card of its hand uniformly at random; takes the cheapest row (the default row choice)."""
    name = "random"

    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def choose_card(self, view: PlayerView) -> int:
        return self.rng.choice(view.hand)

    def card_strategy(self, view: PlayerView) -> Dict[int, float]:
        return {card: 1 / len(view.hand) for card in view.hand}


def binomial_pmf(trials: int, p: float, k: int) -> float:
    if not 0 <= k <= trials:
        return 0.0
    return math.comb(trials, k) * p ** k * (1 - p) ** (trials - k)


def card_risk(rows: Rows, card: int, unseen: Sequence[int], opponents: int) -> float:
    """Expected bullheads `card` takes this turn, if each opponent plays an unseen card at random.

    Every opponent card between the target row's end and `card` lands on that row first, so
    `card` is the 6th exactly when the row's free places are filled by such cards.
    """
    r = target_row(rows, card)
    if r is None:                      # too low: we take a row, at best the cheapest
        return min(row_bullheads(row) for row in rows)
    end = rows[r][-1]
    in_gap = sum(1 for c in unseen if end < c < card)
    p = in_gap / len(unseen) if unseen else 0.0
    free = ROW_LIMIT - len(rows[r])
    return binomial_pmf(opponents, p, free) * row_bullheads(rows[r])


def _gap(rows: Rows, card: int) -> int:
    r = target_row(rows, card)
    return card if r is None else card - rows[r][-1]


class GreedyBot(Player):
    """Plays the card with the lowest immediate risk (ties: the snuggest fit on its row).

    A row choice weighs the row's bullheads, what the rest of the turn makes the others take,
    and how safe its next card will be on the rows that result.
    """
    name = "greedy"
    spite = 0.5        # how much a bullhead taken by someone else is worth to us

    def __init__(self, seed=None):
        self.rng = random.Random(seed)   # unused: greedy is deterministic; kept for the registry

    def card_strategy(self, view: PlayerView) -> Optional[Dict[int, float]]:
        return {self.choose_card(view): 1.0}      # deterministic: its card, always

    def choose_card(self, view: PlayerView) -> int:
        unseen = view.unseen()
        opponents = view.players - 1
        return min(view.hand, key=lambda c: (round(card_risk(view.rows, c, unseen, opponents), 9),
                                             _gap(view.rows, c)))

    def choose_row(self, view: PlayerView, card: int) -> int:
        return min(range(ROWS), key=lambda r: (self._row_cost(view, card, r), r))

    def _row_cost(self, view: PlayerView, card: int, r: int) -> float:
        rows = [list(row) for row in view.rows]
        taken = row_bullheads(rows[r])
        rows[r] = [card]
        # the other cards of the turn are all higher than `card`: none of them is too low
        others = view.others_turn_cards()
        rows_after, others_taken = play_turn(rows, others, fewest_bullheads_chooser)
        unseen = view.unseen()
        hand = [c for c in view.hand if c != card]
        next_risk = min((card_risk(rows_after, c, unseen, view.players - 1) for c in hand),
                        default=0.0)
        return taken + next_risk - self.spite * sum(row_bullheads(t) for t in others_taken)


def _next_risk(rows: Rows, hand: Sequence[int], unseen: Sequence[int], opponents: int) -> float:
    """The risk of the safest card of `hand` on `rows` (0 with an empty hand)."""
    return min((card_risk(rows, c, unseen, opponents) for c in hand), default=0.0)


def _certainly_safe(rows: Rows, card: int, unseen: Sequence[int], opponents: int) -> bool:
    """`card` cannot be the 6th card this turn: fewer cards can come in front of it (unseen
    cards in the gap to its row end, at most one per opponent) than its row has free places,
    and it is not too low."""
    r = target_row(rows, card)
    if r is None:
        return False
    end = rows[r][-1]
    in_gap = sum(1 for c in unseen if end < c < card)
    return min(in_gap, opponents) < ROW_LIMIT - len(rows[r])


class LowKeeperBot(GreedyBot):
    """The seeds' advice: keep a very low card to take a cheap row on purpose.

    Plays like greedy but never spends its lowest card on a normal turn (while it has other
    cards). The low card is played on purpose when a cheap row is there to take: when it is
    lower than every row end and the cheapest row costs no more than `cheap` bullheads, or no
    more than the risk of the safest other card (then a known small cost beats a gamble).
    Row choice: the greedy weighing (row bullheads, what the others take this turn, the risk
    of its next card on the rows that result).
    """
    name = "lowkeeper"
    cheap = 2          # a row this cheap is worth taking on purpose

    def choose_card(self, view: PlayerView) -> int:
        hand = sorted(view.hand)
        if len(hand) == 1:
            return hand[0]
        unseen = view.unseen()
        opponents = view.players - 1
        low, others = hand[0], hand[1:]
        best = min(others, key=lambda c: (round(card_risk(view.rows, c, unseen, opponents), 9),
                                          _gap(view.rows, c)))
        best_risk = card_risk(view.rows, best, unseen, opponents)
        if target_row(view.rows, low) is None:
            cheapest = min(row_bullheads(row) for row in view.rows)
            # another player's still lower card may take a row first: the cost is then lower
            if cheapest <= self.cheap or cheapest <= best_risk:
                return low
        return best


class SafeBot(Player):
    """Avoid the 6th card: plays only cards that cannot be the 6th card this turn if it can.

    A card is certainly safe when fewer cards can land in front of it on its row (unseen cards
    between the row end and the card, at most one per opponent) than the row has free places.
    Among safe cards it plays the one with the most unseen cards in its gap (the one most
    likely to turn dangerous later; use it while it is safe). With no safe card, the lowest
    expected cost: a too-low card's cheapest row, or the risk of being the 6th card.
    Row choice: the bullheads taken, plus the risk of its safest next card on the rows that
    result, minus 2 bullheads per card of its remaining hand that is then certainly safe (a
    dearer row that makes the rest of the hand safe beats the cheapest one).
    """
    name = "safe"

    def __init__(self, seed=None):
        self.rng = random.Random(seed)   # unused: safe is deterministic; kept for the registry

    def card_strategy(self, view: PlayerView) -> Optional[Dict[int, float]]:
        return {self.choose_card(view): 1.0}      # deterministic: its card, always

    def choose_card(self, view: PlayerView) -> int:
        unseen = view.unseen()
        opponents = view.players - 1
        safe = [c for c in view.hand if _certainly_safe(view.rows, c, unseen, opponents)]
        if safe:
            def exposure(card: int) -> int:
                end = view.rows[target_row(view.rows, card)][-1]
                return sum(1 for c in unseen if end < c < card)
            return max(safe, key=lambda c: (exposure(c), -c))
        return min(view.hand, key=lambda c: (round(card_risk(view.rows, c, unseen, opponents), 9),
                                             _gap(view.rows, c)))

    def choose_row(self, view: PlayerView, card: int) -> int:
        unseen = view.unseen()
        hand = [c for c in view.hand if c != card]
        others = view.others_turn_cards()

        def score(r: int):
            rows = [list(row) for row in view.rows]
            taken = row_bullheads(rows[r])
            rows[r] = [card]
            rows_after, _ = play_turn(rows, others, fewest_bullheads_chooser)
            opponents = view.players - 1
            safe = sum(_certainly_safe(rows_after, c, unseen, opponents) for c in hand)
            # one safe card is worth about 2 bullheads: the price of a typical row taken later
            return taken + _next_risk(rows_after, hand, unseen, opponents) - 2 * safe, r
        return min(range(ROWS), key=score)


class SamplerBot(GreedyBot):
    """Lowest immediate risk, measured by sampling the turn instead of a formula.

    For each of `samples` draws, every opponent plays a random unseen card; each card of the
    hand is resolved with those cards by the rules (the C core), too-low cards included (a
    lower opponent card may start a row first). Plays the card with the lowest mean bullheads
    taken this turn plus `future` times the risk of its safest next card on the rows that
    result (so it does not walk into a trap for the next turn). Row choice: the greedy
    weighing, as for greedy.
    """
    name = "sampler"
    samples = 64
    future = 0.5

    def card_strategy(self, view: PlayerView) -> Optional[Dict[int, float]]:
        return None        # its card depends on its random draws: not greedy's pure strategy

    def choose_card(self, view: PlayerView) -> int:
        hand = list(view.hand)
        if len(hand) == 1:
            return hand[0]
        unseen = view.unseen()
        opponents = view.players - 1
        costs = {c: 0.0 for c in hand}
        for _ in range(self.samples):
            theirs = self.rng.sample(unseen, opponents)
            for card in hand:
                cards = [card] + theirs
                choices = [None] * len(cards)
                rows, taken = c_play_turn(view.rows, cards, choices)
                rest = [c for c in hand if c != card]
                costs[card] += taken[0] + self.future * _next_risk(rows, rest, unseen, opponents)
        return min(hand, key=lambda c: (round(costs[c], 9), _gap(view.rows, c)))


class NetBot(GreedyBot):
    """The learned policy alone: plays the card of its hand the network rates highest (the
    lower card on a tie: deterministic, no search). The network (solver/learn/model.py) has
    no row head yet: a too-low card's row is chosen by the greedy weighing (`rows="greedy"`),
    or (`rows="value"`) as the row whose bullheads plus the network's value of the next turn
    (the rest of this turn played out) is the least."""
    name = "net"
    row_modes: Tuple[str, ...] = ("greedy", "value")

    def __init__(self, seed=None, weights: str = "", rows: str = "greedy"):
        super().__init__(seed)
        if rows not in self.row_modes:
            raise ConfigError(f"rows must be {' or '.join(self.row_modes)}, got {quote(rows)}")
        self.net = load_cached(weights or None)
        self.rows = rows
        self.logits: Optional[Tuple[PlayerView, np.ndarray]] = None  # the last decision's

    def choose_card(self, view: PlayerView) -> int:
        if len(view.hand) == 1:
            return view.hand[0]
        logits, _ = self.net.policy([view])
        self.logits = (view, logits[0])       # kept for a teacher's target (learn/data.py)
        return likeliest_cards([view], logits)[0]

    def choose_row(self, view: PlayerView, card: int) -> int:
        if self.rows == "greedy" or not view.hand:
            return super().choose_row(view, card)
        others = view.others_turn_cards()
        taken, nexts = [], []
        for r in range(ROWS):
            rows = [list(row) for row in view.rows]
            taken.append(row_bullheads(rows[r]))
            rows[r] = [card]
            # the turn's other cards are all higher than `card`: none of them is too low
            after, _ = play_turn(rows, others, fewest_bullheads_chooser)
            nexts.append(PlayerView(view.config, view.seat, tuple(map(tuple, after)),
                                    view.hand, view.start_rows,
                                    view.played + (view.revealed,), view.penalties,
                                    view.scores, view.turn + 1,
                                    out_of_play=view.out_of_play))
        _, values = self.net.policy(nexts)
        return min(range(ROWS), key=lambda r: (taken[r] + float(values[r]), r))


class NetSearchBot(NetBot):
    """One ply of expectimax over sampled worlds with the network (solver/learn/search.py):
    the card with the least mean bullheads this turn plus the value of the state after it,
    plus `prior` (default 2) bullheads per nat of the policy's surprise at the card (with
    the net-v2 weights the search alone does worse than the policy: measured in
    docs/search-player.md). With `plan=K` our next card in the playouts is chosen against K
    draws of the others' instead of drawn (slower: `search.playouts`). With `confident=P`
    (0 < P <= 1) a decision where the policy gives one card a probability of at least P is
    not searched: that card is played (the prior makes any other card need a gain of at
    least prior * ln(P / (1 - P)) bullheads, 2.8 at prior 2 and P 0.8, which the search
    found in none of the decisions measured in docs/search-player.md). With `seconds=S` a
    searched decision draws batches of `worlds` worlds while S seconds hold one more (at
    least one; not reproducible). A too-low card's row: as for `net` (`rows=greedy|value`),
    or searched over the same kind of worlds (`rows=search`: `search.row_scores`)."""
    name = "nsearch"
    row_modes = ("greedy", "value", "search")

    def __init__(self, seed=None, weights: str = "", rows: str = "greedy", worlds: int = 32,
                 reward: str = "own", value: str = "net", depth: int = HAND_SIZE,
                 temperature: float = 1.0, prior: float = 2.0, others: str = "",
                 belief: int = 0, power: float = BELIEF_POWER, plan: int = 0,
                 confident: float = 0.0, seconds: float = 0.0):
        super().__init__(seed, weights, rows)
        self.options = NetSearchOptions(worlds, reward, value, depth, temperature, prior,
                                        belief, power, plan, seconds)
        if not 0 <= confident <= 1:
            raise ConfigError(f"confident must be 0 (off) or in (0, 1], got {confident}")
        self.confident = confident
        # the row searches draw apart from the cards: a row choice searched or not leaves
        # the later card decisions the same random numbers
        self.row_rng = random.Random(None if seed is None else f"rows/{seed}")
        self.last_rows: Optional[List[float]] = None     # the last searched row choice's
        # the others' model: another network's policy (a file, or a shipped name), `sampler`
        # (players of the cheapest card this turn), or several joined by '+' (each world
        # then has one, weighed by the table's play)
        models = tuple(others_model(name) for name in others.split("+")) if others else ()
        self.others_net = models[0] if len(models) == 1 else (models or None)
        self.last: Optional[Tuple[int, Dict[int, float]]] = None   # (seat, card scores)
        # of several models under belief: the round (seat, start rows) and the models still
        # in it; a model no world drew at a decision is out for the rest of the round
        self.in_play: Optional[Tuple[Any, Tuple[int, ...]]] = None

    def card_strategy(self, view: PlayerView) -> Optional[Dict[int, float]]:
        return None        # its card depends on its random worlds

    def choose_card(self, view: PlayerView) -> int:
        if len(view.hand) == 1:
            return view.hand[0]
        # one draw a decision, searched or not: a decision's worlds do not depend on which
        # decisions before it were searched
        rng = random.Random(self.rng.getrandbits(64))
        if self.confident:
            logits, _ = self.net.policy([view])
            if np.exp(log_softmax(logits[:, :len(view.hand)])).max() >= self.confident:
                self.last = None        # not searched: a teacher's target is the card
                return likeliest_cards([view], logits)[0]
        if not isinstance(self.others_net, tuple) or not self.options.belief:
            scores = card_scores(self.net, view, self.options, rng, self.others_net)
        else:
            scores = self._with_models_in_play(view, rng)
        self.last = (view.seat, scores)
        return best_scored(scores)

    def choose_row(self, view: PlayerView, card: int) -> int:
        if self.rows != "search" or not view.hand:
            return super().choose_row(view, card)
        others = self.others_net
        if isinstance(others, tuple):
            others = tuple(others[i] for i in self._models_in_play(view))
        rng = random.Random(self.row_rng.getrandbits(64))
        self.last_rows = row_scores(self.net, view, card, self.options, rng, others)
        return min(range(ROWS), key=lambda r: (round(self.last_rows[r], 9), r))

    def _with_models_in_play(self, view: PlayerView, rng: random.Random) -> Dict[int, float]:
        """Card scores with the models the round's play has not ruled out: once no world
        draws a model, the table's cards have made it unlikely beyond the worlds' reach, and
        its likelihood (the dearer part of a decision) is no longer computed this round."""
        kept = self._models_in_play(view)
        drawn: List[int] = []
        scores = card_scores(self.net, view, self.options, rng,
                             tuple(self.others_net[i] for i in kept), drawn)
        if view.played:
            self.in_play = (self.in_play[0], tuple(kept[i] for i in sorted(set(drawn))))
        return scores

    def _models_in_play(self, view: PlayerView) -> Tuple[int, ...]:
        """The others' models (indexes) this round's play has not ruled out; every one at
        the start of a round."""
        round_key = (view.seat, view.start_rows)
        if self.in_play is None or self.in_play[0] != round_key:
            self.in_play = (round_key, tuple(range(len(self.others_net))))
        return self.in_play[1]


class BeliefBot(NetSearchBot):
    """`nsearch` with the settings measured strongest at about 100 ms a decision at 4 players
    (docs/search-player.md): 16 worlds drawn from 96 candidates, each with one of two models
    of the others (net-v1, a model of careful search players, and net-v3, of a table of
    networks), weighed by how well the pair explains the others' play; each card's world
    played out two turns by the networks (the world's model for the others), then net-v3's
    value. A model no world draws is dropped for the rest of the round. Where the policy
    gives a card at least 0.9 that card is played unsearched (`confident`: the search played
    it in every such decision measured). A too-low card's row is searched over such worlds
    too (`rows=search`). The default player of `nimmt best` on hidden hands and of `nimmt
    play`."""
    name = "belief"

    def __init__(self, seed=None, weights: str = "", rows: str = "search", worlds: int = 16,
                 reward: str = "own", value: str = "playout", depth: int = 2,
                 temperature: float = 1.0, prior: float = 2.0,
                 others: str = "net-v1.npz+net-v3.npz", belief: int = 96,
                 power: float = BELIEF_POWER, plan: int = 0, confident: float = 0.9,
                 seconds: float = 0.0):
        super().__init__(seed, weights, rows, worlds, reward, value, depth, temperature,
                         prior, others, belief, power, plan, confident, seconds)


def _make_search_player(seed=None, iterations=None, seconds=None, exact_handover=True,
                        exact_max_cards=7, **options) -> SearchPlayer:
    """The search player of a spec's options: the budget, how it searches, the hand-over."""
    if seconds is not None:
        check_seconds(seconds)               # before the Limit, which takes 0 and words it apart
    return SearchPlayer(seed, Limit(seconds=seconds, iterations=iterations),
                        SearchOptions(**options), exact_handover, exact_max_cards)


BOTS: Dict[str, Callable[..., Player]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "lowkeeper": LowKeeperBot,
    "safe": SafeBot,
    "sampler": SamplerBot,
    "mcts": _make_search_player,
    "net": NetBot,
    "nsearch": NetSearchBot,
    "belief": BeliefBot,
    "program": ProgramBot,
}


def _switch(value: str) -> bool:
    """An on/off option's value: 1, true, yes, on or 0, false, no, off (a ValueError else)."""
    if value.lower() in ("1", "true", "yes", "on"):
        return True
    if value.lower() in ("0", "false", "no", "off"):
        return False
    raise ValueError(value)


def _integer(value: str) -> int:
    """An integer option (`INTEGER_TEXT`). A ValueError else."""
    if not INTEGER_TEXT.fullmatch(value):
        raise ValueError(value)
    return int(value)


def _number(value: str) -> float:
    """A decimal option (1, 0.5, 2e-3, -1; nan and inf too, for the option's own range check
    to refuse by name); not +1 (as an integer option), 1_0 or other scripts' digits. A
    ValueError else."""
    if not re.fullmatch(r"-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?|-?(nan|inf)",
                        value, re.IGNORECASE):
        raise ValueError(value)
    return float(value)


def _text(value: str) -> str:
    """A word or a file name; not empty (a ValueError)."""
    if not value:
        raise ValueError(value)
    return value


def _models(value: str) -> str:
    """Model names joined by '+' (`others=net-v1.npz+sampler`), none of them empty."""
    if not all(name.strip() for name in value.split("+")):
        raise ValueError(value)
    return value


# options a bot accepts in its spec (`mcts:iterations=2000:jobs=2`), with their types
OPTIONS: Dict[str, Dict[str, Callable[[str], Any]]] = {
    "mcts": {"iterations": _integer, "seconds": _number, "jobs": _integer, "c": _number,
             "policy": _text, "selection": _text, "reward": _text, "gamma": _number,
             "exact": _switch, "exact_max_cards": _integer, "opponents": _text},
    "net": {"weights": _text, "rows": _text},
    "nsearch": {"weights": _text, "rows": _text, "worlds": _integer, "reward": _text,
                "value": _text, "depth": _integer, "temperature": _number, "prior": _number,
                "others": _models, "belief": _integer, "power": _number, "plan": _integer,
                "confident": _number, "seconds": _number},
}
OPTIONS["belief"] = OPTIONS["nsearch"]
OPTIONS["program"] = {"path": _text, "seconds": _number}
OPTION_NAMES = {"exact": "exact_handover"}


def parse_bot_spec(spec: str):
    """'mcts:iterations=2000:seconds=1' -> ('mcts', {'iterations': 2000, 'seconds': 1.0})."""
    name, *parts = [p.strip() for p in spec.strip().split(":")]
    if name not in BOTS:
        close = close_key(name, sorted(BOTS))
        hint = f"did you mean {close!r}? " if close else ""
        raise ConfigError(f"unknown bot {quote(name)} ({hint}available:"
                          f" {', '.join(sorted(BOTS))})")
    allowed = OPTIONS.get(name, {})
    options: Dict[str, Any] = {}
    for part in parts:
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq and key in allowed:
            raise ConfigError(f"option {key!r} of bot {name!r} needs a value: write"
                              f" {name}:{key}=VALUE")
        if not eq or key not in allowed:
            known = ", ".join(sorted(allowed)) or "none"
            close = close_key(key, sorted(allowed))
            hint = f"did you mean {close!r}? " if close else ""
            raise ConfigError(f"bad option {quote(part)} for bot {name!r} ({hint}options:"
                              f" {known}; write {name}:KEY=VALUE)")
        if OPTION_NAMES.get(key, key) in options:
            raise ConfigError(f"option {key!r} given twice for bot {name!r}")
        try:
            options[OPTION_NAMES.get(key, key)] = allowed[key](value.strip())
        except ValueError:
            raise ConfigError(f"bad value {quote(value)} for option {key!r}"
                              f" of bot {name!r}") from None
    return name, options


def make_bot(spec: str, seed=None) -> Player:
    """A bot from its spec: a name, maybe with options (`mcts:seconds=1`)."""
    name, options = parse_bot_spec(spec)
    bot = BOTS[name](seed, **options)
    if options:
        bot.name = spec
    return bot


def parse_bot_names(text: str) -> List[str]:
    """'random,greedy,mcts:iterations=500' -> the specs, every one checked."""
    names = [n.strip() for n in text.split(",")]
    for name in names:
        make_bot(name)
    return names
