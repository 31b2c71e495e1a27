"""`nimmt review`: what each play of a recorded round cost, turn by turn, as data.

A record (docs/formats.md, "Game records") is replayed through `core.record`; each turn's
position before the turn is then reviewed in one of two ways:

- exact: the 2-player 24-card game, where every card is dealt and each player knows the
  other's hand. The position is solved (`exact.Engine`, one engine and table for the whole
  round: later positions are subtrees of earlier ones) and a card's loss is what it gives
  away against the opponent's equilibrium strategy, `Solution.card_losses` (player 1:
  v - M[i,:]·y*; player 2: M[:,j]·x* - v; in bullheads, >= 0). A too-low card's row choice
  costs the chosen row's outcome against the best row's, the rest of the round solved.
- estimated: 3+ players, any other deck (hands are hidden in play), or a 2-player turn whose
  exact solve is not expected within the time limit or was stopped by it. The bullheads each
  card of the player's hand costs to the end of the round are estimated from what that
  player saw: with hidden hands by the network search (`REVIEWER`, a `belief` bot given
  more worlds: `learn.search.card_totals`, every card on the same worlds, seeded), the
  strongest player measured, from the player's view of the round so far (the others' plays
  weigh the deals of their hands); in a 2-player 24-card turn, or when asked for, by the
  search player (`mcts.analyse`, a fixed number of iterations, seeded). The loss is the
  played card's estimate minus the lowest, with an interval. A too-low card's row choice is
  estimated by the search player's playouts from each row (`mcts.player.row_estimates`),
  and on the last turn, where only its bullheads count, exactly.

Marks (`mark_of`) grade a play's loss like a chess engine's game review.
"""
import math
import time
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import errors
from .advice import DEFAULT_SEARCH_ITERATIONS, NETWORK_PLAYERS, finite
from .core.position import Position
from .core.record import record_view, replay_steps
from .core.rules import row_bullheads, two_player_variant
from .core.turn import TurnOutcome
from .errors import SearchLimitError
from .exact import Engine
from .exact.solution import LOSS_TOLERANCE, no_noise
from .limits import Limit
from .mcts import CardEstimate, analyse
from .mcts.player import derive_seed, row_estimates

DEFAULT_TIME_LIMIT = 10.0     # seconds per turn: 8-card turns solve in about 5 s on one core
# Marks, by a play's loss in bullheads (docs/formats.md, "Reviews"). 0.5 is about what the
# search player's root strategy loses per decision at 50,000 iterations (docs/search-player.md);
# 2 is more than the median loss of a card outside the equilibrium (1.4 bullheads, measured
# on 180 positions of 4-6 cards, whose mean |value| was 3.7).
MISTAKE_FROM = 0.5
BLUNDER_FROM = 2.0
# An exact solve of this many cards a hand is not tried under a smaller time limit: no solve
# that fast was measured on one core (docs/benchmarks.md: full deals 103 s and more; 9 cards
# about a minute).
LEAST_EXACT_SECONDS = {9: 20.0, 10: 100.0}
# The estimator of hidden-hand turns: the default player of `best` and `play` (measured the
# strongest), four times its worlds and candidate deals for a steadier estimate; "mcts" the
# search player. Measured against rollouts of the true deal in docs/search-player.md.
REVIEWER = "belief:worlds=64:belief=384"
SEARCH_PLAYER = "mcts"


class Mark(Enum):
    FORCED = "forced"            # one card left and no row to choose
    BEST = "best"                # loses nothing (up to 1e-9)
    GOOD = "good"                # estimated: a loss whose 95% interval holds nothing lost
    INACCURACY = "inaccuracy"    # loses less than MISTAKE_FROM
    MISTAKE = "mistake"          # loses less than BLUNDER_FROM
    BLUNDER = "blunder"          # loses BLUNDER_FROM or more


LOSSES = (Mark.INACCURACY, Mark.MISTAKE, Mark.BLUNDER)


class Method(Enum):
    EXACT = "exact"
    ESTIMATED = "estimated"


class Why(Enum):
    """Why a turn was estimated, not solved."""
    GAME = "game"                # 3+ players or a deck not all dealt: hands are hidden
    TOO_LONG = "too_long"        # the hand is too large for the time limit: not tried
    STOPPED = "stopped"          # the exact solve was stopped by the time limit


def mark_of(loss: Optional[float], forced: bool = False) -> Optional[Mark]:
    """The mark of a play's loss (None: not known)."""
    if loss is None:
        return None
    if loss <= LOSS_TOLERANCE:
        return Mark.FORCED if forced else Mark.BEST
    if loss < MISTAKE_FROM:
        return Mark.INACCURACY
    if loss < BLUNDER_FROM:
        return Mark.MISTAKE
    return Mark.BLUNDER


@dataclass(frozen=True)
class PlayReview:
    """One player's play of one turn: the card, its row choice, and what they cost."""
    player: int                              # seat, 0-based
    card: int
    best_cards: Tuple[int, ...]              # exact: cards losing nothing; estimated: the
                                             # card of the lowest estimate
    card_loss: Optional[float]               # None: the card was not tried by the search
    card_interval: Optional[Tuple[Optional[float], Optional[float]]] = None  # estimated
    card_value: Optional[float] = None       # exact: the card against the opponent's strategy
    expected: Optional[float] = None         # estimated: the card's bullheads to the end
    best_expected: Optional[float] = None    # estimated: the lowest estimate
    row: Optional[int] = None                # the row taken by choice (too-low card)
    best_rows: Tuple[int, ...] = ()          # the rows losing nothing
    row_loss: Optional[float] = None         # None: no choice, or not reviewed
    row_interval: Optional[Tuple[Optional[float], Optional[float]]] = None  # estimated
    row_expected: Optional[List[float]] = None   # estimated: each row's bullheads to the end
    forced: bool = False                     # one card in hand: no card to choose

    @property
    def loss(self) -> Optional[float]:
        """The card's loss plus the row choice's."""
        if self.card_loss is None:
            return None
        return self.card_loss + (self.row_loss or 0.0)

    @property
    def loss_interval(self) -> Optional[Tuple[Optional[float], Optional[float]]]:
        """Estimated plays: the card's interval plus the row choice's loss."""
        if self.card_interval is None:
            return None
        row = self.row_interval or (self.row_loss or 0.0,) * 2
        return tuple(None if a is None or b is None else a + b
                     for a, b in zip(self.card_interval, row))

    @property
    def mark(self) -> Optional[Mark]:
        mark = mark_of(self.loss, self.forced and not self.row_loss)
        interval = self.loss_interval
        if interval is None:
            return mark
        if mark in LOSSES and (interval[0] is None or interval[0] <= LOSS_TOLERANCE) \
                or mark is Mark.BEST and self.card not in self.best_cards:
            # the estimate cannot tell it from the best card (a loss of 0 is a difference
            # measured at most 0 on the other half's worlds, not the lowest estimate)
            return Mark.GOOD
        return mark


@dataclass(frozen=True)
class TurnReview:
    """One turn: its position, how it was reviewed, and each player's play."""
    number: int                              # 0-based
    position: Position                       # before the turn
    method: Method
    plays: Tuple[PlayReview, ...]
    seconds: float
    why: Optional[Why] = None                # estimated turns
    value: Optional[float] = None            # exact: the equilibrium value (player 1's side)
    strategies: Optional[Tuple[Dict[int, float], ...]] = None     # exact
    bounds: Optional[Tuple[Optional[float], Optional[float]]] = None   # stopped: proven
    iterations: Optional[int] = None         # estimated by the search: its, per player
    worlds: Optional[int] = None             # estimated by the network search: per player
    exact_limit: Optional[float] = None      # seconds the exact solve was given (None: not
                                             # tried, or no limit)

    @property
    def hand_size(self) -> int:
        return self.position.hand_size


@dataclass(frozen=True)
class PlayerTotal:
    player: int
    loss: Optional[float]         # every turn whose loss is known; None when exact and
                                  # estimated turns mix (a value's loss and one's own bullheads)
    exact_loss: float
    estimated_loss: float
    estimated_interval: Tuple[Optional[float], Optional[float]]   # sums of the intervals
    exact_turns: int
    estimated_turns: int
    marks: Dict[Mark, int]


@dataclass(frozen=True)
class Review:
    start: Position
    turns: Tuple[TurnReview, ...]
    time_limit: float
    iterations: int
    seed: int
    reviewer: str = REVIEWER      # of hidden-hand turns: a network search's spec, or "mcts"
    seats: Optional[Tuple[int, ...]] = None   # the players reviewed (0-based); None: all

    @property
    def reviewed(self) -> Tuple[int, ...]:
        return self.seats if self.seats is not None else tuple(range(self.start.players))

    def totals(self) -> List[PlayerTotal]:
        return [player_total(self.turns, k) for k in self.reviewed]


    def to_dict(self) -> Dict[str, Any]:
        """The JSON of `nimmt review --json` (docs/formats.md, "Reviews")."""
        return {
            "position": self.start.to_text(), "players": self.start.players,
            "deck": self.start.deck, "time_limit": self.time_limit,
            "iterations": self.iterations, "seed": self.seed, "reviewer": self.reviewer,
            "reviewed": [k + 1 for k in self.reviewed],
            "marks": {"mistake_from": MISTAKE_FROM, "blunder_from": BLUNDER_FROM,
                      "best_within": LOSS_TOLERANCE},
            "turns": [turn_dict(turn) for turn in self.turns],
            "totals": [total_dict(total) for total in self.totals()],
        }


def turn_dict(turn: TurnReview) -> Dict[str, Any]:
    bounds = None if turn.bounds is None else {"lower": turn.bounds[0], "upper": turn.bounds[1]}
    strategies = None if turn.strategies is None else [
        [{"card": c, "probability": p} for c, p in sorted(s.items())] for s in turn.strategies]
    return {"turn": turn.number + 1, "position": turn.position.to_text(),
            "cards": turn.hand_size, "method": turn.method.value,
            "why": None if turn.why is None else turn.why.value, "value": turn.value,
            "strategies": strategies, "bounds": bounds, "exact_limit": turn.exact_limit,
            "iterations": turn.iterations, "worlds": turn.worlds,
            "players": [play_dict(play) for play in turn.plays], "seconds": turn.seconds}


def play_dict(play: PlayReview) -> Dict[str, Any]:
    return {"player": play.player + 1, "card": play.card, "best_cards": list(play.best_cards),
            "card_loss": play.card_loss,
            "card_interval": None if play.card_interval is None else list(play.card_interval),
            "loss_interval": None if play.loss_interval is None else list(play.loss_interval),
            "card_value": play.card_value, "expected_bullheads": play.expected,
            "best_expected_bullheads": play.best_expected, "row": play.row,
            "best_rows": list(play.best_rows), "row_loss": play.row_loss,
            "row_interval": None if play.row_interval is None else list(play.row_interval),
            "row_expected_bullheads": play.row_expected, "loss": play.loss,
            "mark": None if play.mark is None else play.mark.value}


def total_dict(total: "PlayerTotal") -> Dict[str, Any]:
    return {"player": total.player + 1, "loss": total.loss, "exact_loss": total.exact_loss,
            "exact_turns": total.exact_turns, "estimated_loss": total.estimated_loss,
            "estimated_interval": list(total.estimated_interval),
            "estimated_turns": total.estimated_turns,
            "marks": {mark.value: n for mark, n in total.marks.items()}}


def player_total(turns: Sequence[TurnReview], k: int) -> PlayerTotal:
    exact = [p for t in turns if t.method is Method.EXACT for p in t.plays if p.player == k]
    estimated = [p for t in turns if t.method is Method.ESTIMATED
                 for p in t.plays if p.player == k]
    known = [p for p in estimated if p.loss is not None]
    low = high = 0.0
    for p in known:
        lo, hi = p.loss_interval or (p.loss, p.loss)
        low = low + lo if lo is not None and low is not None else None
        high = high + hi if hi is not None and high is not None else None
    exact_loss = sum((p.loss for p in exact if p.loss is not None), 0.0)
    estimated_loss = sum((p.loss for p in known), 0.0)
    marks = {mark: 0 for mark in Mark}
    for p in exact + estimated:
        if p.mark is not None:
            marks[p.mark] += 1
    mixed = bool(exact) and bool(estimated)
    return PlayerTotal(k, None if mixed else exact_loss + estimated_loss, exact_loss,
                       estimated_loss, (low, high), len(exact), len(estimated), marks)


class ReviewEvents:
    """What a review reports while it runs (the text layer draws it); does nothing here."""

    def turn(self, number: int, turns: int, hand_size: int) -> None:
        pass

    def exact(self, nodes: int, bounds, seconds: float) -> None:
        pass

    def search(self, fraction: float, iterations: int, seconds: float) -> None:
        pass


def exact_game(position: Position) -> bool:
    """The 2-player 24-card game: every card is dealt, each player knows the other's hand."""
    return two_player_variant(position.players, position.deck)


def review_record(data: Any, time_limit: float = DEFAULT_TIME_LIMIT,
                  iterations: int = DEFAULT_SEARCH_ITERATIONS, seed: int = 0,
                  tt_mb: Optional[float] = None,
                  progress: Optional[ReviewEvents] = None,
                  reviewer: str = REVIEWER,
                  players: Optional[Sequence[int]] = None) -> Review:
    """Review every turn of a record (a dict, validated and replayed first, so a bad record
    is refused before any search; a hidden hand that the 2-player 24-card game's cards
    determine is filled in). `time_limit`: seconds per 2-player 24-card turn (0: none):
    the exact solve gets them less the longest estimated turn so far (at most half), so that
    a solve that stops and the estimate replacing it fit in them;
    `iterations`, `seed`: the search player's budget per estimated decision (and per row
    choice) and the seed of every estimate; `tt_mb`: the exact solver's table (default by
    the hand size of the first turn solved); `reviewer`: the estimator of hidden-hand turns,
    a `belief` or `nsearch` spec (`check_reviewer`), or "mcts" for the search player;
    `players`: the seats (0-based) whose plays are reviewed, default all (the others' turns
    are replayed, not judged)."""
    Limit(seconds=time_limit, iterations=iterations)          # checks both
    reviewer = check_reviewer(reviewer)
    if math.isinf(time_limit):
        time_limit = 0.0                                     # no limit, as 0 (and JSON)
    start, outcomes = replay_steps(data)
    known, seat = start.deduced()        # 2 players, 24 cards: a hidden hand may be known
    if seat is not None:
        data = dict(data, hands=[list(hand) for hand in known.hands])
        start, outcomes = replay_steps(data)
    hidden = [k for k, hand in enumerate(start.hands) if hand is None]
    if hidden and len(outcomes) == start.hand_size:
        # a whole round shows every card of every hand: a hidden one is the cards it played
        data = dict(data, hands=[sorted(o.turn.cards[k] for o in outcomes) if hand is None
                                 else list(hand) for k, hand in enumerate(start.hands)])
        start, outcomes = replay_steps(data)
        hidden = []
    if hidden:
        hint = (' (in the 24-card game, a "played" list of the cards out of play makes it'
                ' known)' if two_player_variant(start.players, start.deck) else "")
        raise errors.RecordError(f"a review needs every hand (it judges each player's cards):"
                                 f" player {hidden[0] + 1}'s is hidden in the record, which"
                                 f" stops after {len(outcomes)} of {start.hand_size}"
                                 f" turns{hint}")
    if players is not None:
        wrong = [k for k in players if not (errors.is_integer(k) and 0 <= k < start.players)]
        if wrong or not players:
            raise errors.ConfigError(f"the players to review must be 1..{start.players}, got"
                                     f" {[k + 1 if errors.is_integer(k) else k for k in wrong]}")
    seats = None if players is None else tuple(sorted(set(players)))
    judged = tuple(range(start.players)) if seats is None else seats
    progress = progress or ReviewEvents()
    exact = exact_game(start)
    seen = set(start.played) | {c for row in start.rows for c in row}
    engine: Optional[Engine] = None
    turns = []
    estimate_seconds = 0.0         # the longest estimated turn so far
    try:
        position = start
        for t, outcome in enumerate(outcomes):
            progress.turn(t, len(outcomes), position.hand_size)
            began = time.perf_counter()
            review, why, bounds, allowed = None, Why.GAME, None, None
            if exact and not too_long(position.hand_size, time_limit):
                if engine is None:
                    engine = Engine(position, tt_mb)
                # the solve leaves time for the estimate that replaces it if it stops
                allowed = time_limit - min(estimate_seconds, time_limit / 2)
                try:
                    review = exact_turn(engine, t, position, outcome, allowed, progress, judged)
                except SearchLimitError as exc:
                    if exc.interrupted:
                        raise errors.Interrupted() from None
                    why, bounds = Why.STOPPED, exc.bounds
            elif exact:
                why = Why.TOO_LONG
            if review is None:
                played = sorted(seen - {c for row in position.rows for c in row})
                searched = time.perf_counter()
                if exact or reviewer == SEARCH_PLAYER:
                    review = estimated_turn(t, position, outcome, played, exact, iterations,
                                            seed, why, bounds, progress, judged)
                else:
                    review = network_turn(t, position, start, outcomes[:t], outcome, played,
                                          reviewer, iterations, seed, judged)
                estimate_seconds = max(estimate_seconds, time.perf_counter() - searched)
            turns.append(replace(review, seconds=round(time.perf_counter() - began, 3),
                                 exact_limit=round(allowed, 3) if allowed else None))
            seen.update(outcome.turn.cards)
            position = outcome.position
    finally:
        if engine is not None:
            engine.close()
    return Review(start, tuple(turns), time_limit, iterations, seed,
                  SEARCH_PLAYER if exact else reviewer, seats)


def check_reviewer(spec: str) -> str:
    """A reviewer of hidden-hand turns, as given less spaces around it: "mcts" (its budget
    is --iterations), or a network search bot that can score every card (`belief`,
    `nsearch`, with options)."""
    from .play.bots import make_bot, parse_bot_spec
    name, options = parse_bot_spec(spec)
    if name == SEARCH_PLAYER and not options:
        return SEARCH_PLAYER
    if name == SEARCH_PLAYER:
        raise errors.ConfigError(f"reviewer {errors.quote(spec)}: the search player takes its"
                                 " budget from --iterations")
    if name not in NETWORK_PLAYERS:
        raise errors.ConfigError(f"bot {errors.quote(spec)} cannot review: use belief,"
                                 " nsearch or mcts")
    make_bot(spec, 0)                        # its options' values, before any search
    return spec.strip()


def too_long(hand_size: int, time_limit: float) -> bool:
    return 0 < time_limit < LEAST_EXACT_SECONDS.get(hand_size, 0.0)


# exact turns -------------------------------------------------------------------------------
def exact_turn(engine: Engine, t: int, position: Position, outcome: TurnOutcome,
               time_limit: float, progress: ReviewEvents, seats: Sequence[int] = (0, 1)
               ) -> TurnReview:
    """The turn solved within `time_limit` seconds (SearchLimitError when it stops first,
    or when a played card's value could not be computed in it); the plays of `seats`."""
    began = time.perf_counter()
    limit = Limit(seconds=time_limit)
    solution = engine.solve(position, limit, progress.exact, card_values=True)
    if engine.interrupted:
        raise errors.Interrupted()
    losses = solution.card_losses()
    cards = outcome.turn.cards
    if any(losses[k][cards[k]] is None for k in range(2)):
        raise SearchLimitError("the played cards' values were not computed within the limit",
                               bounds=(solution.value, solution.value))
    rows = row_reviews(engine, position, outcome, remaining(time_limit, began))
    plays = []
    for k in seats:
        best = tuple(sorted(c for c, loss in losses[k].items()
                            if loss is not None and loss <= LOSS_TOLERANCE))
        plays.append(PlayReview(k, cards[k], best, losses[k][cards[k]],
                                card_value=solution.card_values[k][cards[k]],
                                forced=position.hand_size == 1, **rows.get(k, {})))
    return TurnReview(t, position, Method.EXACT, tuple(plays), 0.0, value=solution.value,
                      strategies=tuple(solution.strategies))


def remaining(time_limit: float, began: float) -> Optional[float]:
    """Seconds left of the turn's limit (None: no limit)."""
    if not time_limit:
        return None
    return time_limit - (time.perf_counter() - began)


def row_reviews(engine: Engine, position: Position, outcome: TurnOutcome,
                seconds: Optional[float]) -> Dict[int, Dict[str, Any]]:
    """For the player whose card was too low: the row taken, the best rows and the loss,
    each row's outcome with the rest of the round solved. Left unreviewed (row_loss None)
    when the turn's time is spent first."""
    out: Dict[int, Dict[str, Any]] = {}
    for k, row in enumerate(outcome.chosen_rows):
        if row is None:
            continue
        out[k] = {"row": row}
        if seconds is not None and seconds <= 0:
            continue
        cards = outcome.turn.cards
        sign = 1 if k == 0 else -1          # player 1 maximizes the value, player 2 minimizes
        try:
            values = [sign * v for v in engine.run(lambda: engine.row_values(position, cards),
                                                   Limit(seconds=seconds or 0))]
        except SearchLimitError:            # the turn's time ran out: left unreviewed
            values = None
        if engine.interrupted:
            raise errors.Interrupted()
        if values is None:
            continue
        best = max(values)
        out[k].update(best_rows=tuple(r for r in range(4) if best - values[r] <= LOSS_TOLERANCE),
                      row_loss=no_noise(best - values[row]))
    return out


# estimated turns ---------------------------------------------------------------------------
def forced_play(position: Position, k: int, card: int, row: Optional[int]) -> PlayReview:
    """A play of the last turn: no card to choose, only a too-low card's row (exact)."""
    return PlayReview(k, card, (card,), 0.0, forced=True, **last_row_review(position, row))


def last_row_review(position: Position, row: Optional[int]) -> Dict[str, Any]:
    """A row choice of the last turn, exactly: only the lowest card of a turn can be too low,
    so it takes a row of the position before the turn, and with no card left its owner takes
    nothing more: the loss is the chosen row's bullheads minus the cheapest row's."""
    if row is None:
        return {}
    bulls = [row_bullheads(r) for r in position.rows]
    return {"row": row, "best_rows": tuple(r for r in range(4) if bulls[r] == min(bulls)),
            "row_loss": float(bulls[row] - min(bulls))}


def view_of(position: Position, k: int, played: Sequence[int], exact: bool) -> Position:
    """What player k sees before the turn: their hand, and the other hands unless every card
    was dealt to 2 players (then each knows the other's); `played`, the cards seen out of play
    since the record's start, are never dealt to a hidden hand."""
    if exact:
        return position
    hands = [list(hand) if j == k else None for j, hand in enumerate(position.hands)]
    return Position.create([list(r) for r in position.rows], hands, list(position.penalties),
                           position.deck,
                           {"viewer": k + 1, "played": list(played)})


def estimated_turn(t: int, position: Position, outcome: TurnOutcome, played: Sequence[int],
                   exact: bool, iterations: int, seed: int, why: Why, bounds,
                   progress: ReviewEvents, seats: Sequence[int]) -> TurnReview:
    """The play of each player of `seats` by the search, from their view (`view_of`), seeded
    by the seed, the turn and the player: the same review of a record gives the same
    estimates."""
    plays = []
    for k in seats:
        card, row = outcome.turn.cards[k], outcome.chosen_rows[k]
        if position.hand_size == 1:
            plays.append(forced_play(position, k, card, row))
            continue
        view = view_of(position, k, played, exact)
        analysis = analyse(view, Limit(iterations=iterations), derive_seed(seed, t, k),
                           viewer=k, progress=progress.search)
        tried = {e.card: e for e in analysis.cards if e.visits}
        best = min(tried.values(), key=lambda e: (e.mean, e.card))
        mine = tried.get(card)
        if mine is None:                 # never tried: no estimate, no loss
            plays.append(PlayReview(k, card, (best.card,), None, best_expected=best.mean,
                                    row=row))
            continue
        loss, interval = estimated_loss(mine, best)
        rows = {} if row is None else estimated_row_review(
            view, k, outcome.turn.cards, row, iterations, derive_seed(seed, t, k, "row"))
        plays.append(PlayReview(k, card, (best.card,), loss, interval, expected=mine.mean,
                                best_expected=best.mean, **rows))
    return TurnReview(t, position, Method.ESTIMATED, tuple(plays), 0.0, why=why, bounds=bounds,
                      iterations=iterations if position.hand_size > 1 else None)


def network_turn(t: int, position: Position, start: Position, before: Sequence[TurnOutcome],
                 outcome: TurnOutcome, played: Sequence[int], reviewer: str, iterations: int,
                 seed: int, seats: Sequence[int]) -> TurnReview:
    """The play of each player of `seats` by the network search `reviewer`, from their view
    of the round so far (`record_view`: their hand, every card and row choice of the earlier
    turns), seeded by the seed, the turn and the player. Every card is played on the same
    worlds; a card not best loses `split_loss` (against the best card of the other half of
    the worlds), its interval that of the difference, world by world."""
    from .learn.search import card_totals
    from .play.bots import make_bot
    plays = []
    worlds = None
    for k in seats:
        card, row = outcome.turn.cards[k], outcome.chosen_rows[k]
        if position.hand_size == 1:
            plays.append(forced_play(position, k, card, row))
            continue
        bot = make_bot(reviewer, derive_seed(seed, t, k))
        totals, samples = card_totals(bot.net, record_view(start, before, k), bot.options,
                                      bot.rng, bot.others_net)
        worlds = len(totals)
        hand = sorted(position.hands[k])
        means = totals.mean(axis=0)
        best = int(np.argmin(means))                 # the lower card of equal means
        mine = hand.index(card)
        best_cards = tuple(c for c, m in zip(hand, means) if m - means[best] <= LOSS_TOLERANCE)
        if card in best_cards:
            loss, interval = 0.0, (0.0, 0.0)
        else:
            loss, interval = split_loss(totals, mine, samples)
        rows = {} if row is None else estimated_row_review(
            view_of(position, k, played, False), k, outcome.turn.cards, row, iterations,
            derive_seed(seed, t, k, "row"))
        plays.append(PlayReview(k, card, best_cards, loss, interval,
                                expected=float(means[mine]), best_expected=float(means[best]),
                                **rows))
    return TurnReview(t, position, Method.ESTIMATED, tuple(plays), 0.0, why=Why.GAME,
                      worlds=worlds)


def split_loss(totals: np.ndarray, mine: int, samples: float
               ) -> Tuple[float, Tuple[float, float]]:
    """Card `mine`'s loss over the worlds `totals` ([worlds, cards]) and its 95% interval,
    each half of the worlds scoring the best card of the other half: the plain difference
    to the lowest mean is biased high (the noise that makes a card look best is counted
    against the play). At least 0; `samples`: what the worlds are worth as independent
    draws."""
    halves = totals[0::2], totals[1::2]
    diffs = []
    for pick, score in ((halves[0], halves[1]), (halves[1], halves[0])):
        best = int(np.argmin(pick.mean(axis=0)))
        diffs.append(score[:, mine] - score[:, best])
    d = np.concatenate(diffs)
    loss = float(d.mean())
    half = 1.96 * float(d.std()) / math.sqrt(samples)
    return max(0.0, loss), (loss - half, loss + half)


def estimated_loss(mine: CardEstimate, best: CardEstimate):
    """An estimate's loss against the best one, and its interval: the one's 95% interval less
    the other's, end against opposite end (wider than the difference's own interval)."""
    if mine is best:
        return 0.0, (0.0, 0.0)
    return mine.mean - best.mean, (finite(mine.ci95[0] - best.ci95[1]),
                                   finite(mine.ci95[1] - best.ci95[0]))


def estimated_row_review(view: Position, k: int, cards: Sequence[int], row: int,
                         iterations: int, seed: int) -> Dict[str, Any]:
    """A too-low card's row choice before the last turn, estimated: each row's bullheads to
    the end of the round by the search player's playouts (as it chooses its own rows), the
    chosen row's against the lowest."""
    rows = row_estimates(view, k, cards, iterations, seed)
    best = min(rows, key=lambda e: (e.mean, e.card))
    ties = tuple(e.card for e in rows if e.mean - best.mean <= LOSS_TOLERANCE)
    loss, interval = (0.0, (0.0, 0.0)) if row in ties else estimated_loss(rows[row], best)
    return {"row": row, "best_rows": ties, "row_loss": loss, "row_interval": interval,
            "row_expected": [e.mean for e in rows]}
