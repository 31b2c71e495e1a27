"""Tournaments: whole games between bots, seats rotated, with per-bot statistics.

Game g seats the bots in the order given, shifted by g (the list is cycled if there are more
seats than bots), so every bot sits everywhere. Each game has its own seed derived from the
tournament seed and g: games are independent and the result is determined by the seed, the
same whatever the number of worker processes (`jobs`): games are added up in their order.
(A bot with a budget in seconds, such as `mcts:seconds=1`, is not reproducible by nature.)

A bot is a spec string of the registry (`bots.make_bot`: "greedy", "mcts:iterations=2000")
or, for a bot of your own, a pair `(name, factory)`: `factory(seed)` returns a new
`core.player.Player` seeded with `seed` (a 64-bit int), one per seat and game.
"""
import multiprocessing
import pickle
import random
from functools import partial
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from .. import errors
from ..core.rules import GameConfig
from ..errors import ConfigError
from ..limits import MAX_GAMES, MAX_JOBS
from ..stats import mean_ci95
from ..core.player import Player
from ..workers import Unwatched, run_workers
from .bots import make_bot, parse_bot_spec
from .runner import GameResult, close_all, play_game


@dataclass
class BotStats:
    name: str
    round_penalties: List[int] = field(default_factory=list)   # one per (seat, round) played
    game_scores: List[int] = field(default_factory=list)       # one per (seat, game) played
    wins: float = 0.0                                          # a win shared by k seats counts 1/k

    def summary(self) -> Dict[str, Any]:
        mean, lo, hi = mean_ci95(self.round_penalties)
        lo = max(0.0, lo)          # bullheads are never negative
        seats = len(self.game_scores)
        return {
            "name": self.name,
            "seat_games": seats,
            "rounds": len(self.round_penalties),
            "mean_penalty_per_round": mean,
            "ci95": [lo, hi],
            "mean_score": sum(self.game_scores) / seats if seats else 0.0,
            "win_rate": self.wins / seats if seats else 0.0,
        }


Factory = Callable[[Any], Player]
Bot = Union[str, Tuple[str, Factory]]      # a registry spec, or (name, factory(seed))


def bot_entries(bots: Sequence[Bot]) -> List[Tuple[str, Factory]]:
    """Each bot as (name, factory): a spec string is checked now and built by `make_bot`;
    a name stands for one bot (two different factories under one name are refused)."""
    entries: List[Tuple[str, Factory]] = []
    factories: Dict[str, Any] = {}
    for bot in bots:
        if isinstance(bot, str):
            parse_bot_spec(bot)
            name, factory, key = bot, _SpecFactory(bot), bot
        elif (isinstance(bot, tuple) and len(bot) == 2 and isinstance(bot[0], str)
              and callable(bot[1])):
            name, factory = bot
            key = factory
        else:
            raise ConfigError(f"a bot is a spec string or a pair (name, factory(seed)),"
                              f" got {errors.quote(bot)}")
        if factories.setdefault(name, key) != key:
            raise ConfigError(f"two different bots are named {errors.quote(name)}")
        entries.append((name, factory))
    return entries


class _SpecFactory:
    """The factory of a registry spec (a class, not a lambda: it pickles)."""

    def __init__(self, spec: str):
        self.spec = spec

    def __call__(self, seed: Any) -> Player:
        return make_bot(self.spec, seed)


def lineup(names: Sequence[Any], players: int, game: int) -> List[Any]:
    """Bots of game `game`, seat by seat: the list cycled and shifted by the game number."""
    return [names[(game + k) % len(names)] for k in range(players)]


MAX_DEATHS = 2        # workers that may die on one game before the tournament stops


def game_seed(seed: Any, game: int) -> str:
    return f"{seed}/{game}"


def play_tournament_game(config: GameConfig, bots: Sequence[Bot], seed: Any,
                         game: int) -> GameResult:
    """Game number `game` of a tournament: the bots (spec strings or (name, factory) pairs)
    and the deals come from `seed` and `game`."""
    rng = random.Random(game_seed(seed, game))
    seats = lineup(bot_entries(bots), config.players, game)
    players: List[Player] = []
    try:
        for name, factory in seats:
            player = factory(rng.getrandbits(64))
            if getattr(player, "name", Player.name) == Player.name:
                player.name = name           # a bot of one's own: its messages say its name
            players.append(player)
        return play_game(config, players, rng.getrandbits(64))
    finally:
        close_all(players)


@dataclass
class GameSummary:
    """What a tournament keeps of a game (small, to come back from a worker process)."""
    round_penalties: List[Tuple[int, ...]]
    scores: Tuple[int, ...]
    winners: List[int]
    records: Optional[List[Dict[str, Any]]] = None   # each round's game record (a file
                                                     # keeps them; the sums do not need them)

    @property
    def rounds(self) -> List[Tuple[int, ...]]:
        return self.round_penalties


def _game_summary(config: GameConfig, bots: Sequence[Bot], seed: Any,
                  g: int) -> Tuple[int, Union[GameSummary, Exception]]:
    """Game g's summary, or the error that stopped it (a bot's illegal answer, an exception
    of a bot of one's own): a worker process hands it back to be raised by the tournament,
    not lost with the worker (and taken for a worker that died)."""
    try:
        result = play_tournament_game(config, bots, seed, g)
    except Exception as exc:            # Ctrl-C (KeyboardInterrupt) is no game's result
        return g, exc
    seats = [name for name, _ in lineup(bot_entries(bots), config.players, g)]
    # the notes of `nimmt play --record`'s records: a record taken out of the file says who
    records = [dict(r.record, seats=seats, round=i + 1) for i, r in enumerate(result.rounds)]
    return g, GameSummary([r.penalties for r in result.rounds], result.scores, result.winners,
                          records)


def _portable_summary(config: GameConfig, bots: Sequence[Bot], seed: Any,
                      g: int) -> Tuple[int, Union[GameSummary, Exception]]:
    """`_game_summary` in a worker: an error that cannot cross to the parent (pickled) goes
    as a RuntimeError naming it."""
    g, summary = _game_summary(config, bots, seed, g)
    if isinstance(summary, Exception):
        try:
            pickle.loads(pickle.dumps(summary))
        except Exception:
            summary = RuntimeError(f"game {g}: {type(summary).__name__}: {summary}")
    return g, summary


def describe(config: GameConfig, names: Sequence[Bot], seed: Any) -> Dict[str, Any]:
    """What decides a tournament's games, whatever their number (a games file's first
    line)."""
    return {"players": config.players, "deck": config.deck, "threshold": config.threshold,
            "seed": seed, "bots": [name for name, _ in bot_entries(names)]}


def run_tournament(config: GameConfig, names: Sequence[Bot], games: int, seed: Any = 0,
                   progress: Optional[Callable[[int], None]] = None,
                   jobs: int = 1, done: Optional[Mapping[int, GameSummary]] = None,
                   on_game: Optional[Callable[[int, List[str], GameSummary], None]] = None
                   ) -> Dict[str, Any]:
    """Play `games` whole games in `jobs` processes; per-bot mean bullheads per round (with
    95% CI), win rates. `progress(games done)` after each game.

    `done`: games already played (by number, from a games file): not played again, summed
    up with the rest. `on_game(game, seats, summary)` in this process as each new game
    ends (seats: the bots' names by seat; the summary holds each round's game record), to
    keep it.

    `names`: the bots, each a registry spec string ("greedy", "mcts:iterations=500") or a
    pair `(name, factory)` for a bot of your own, where `factory(seed)` returns a new
    `Player` (seed: a 64-bit int from the tournament's seed); the summary names it `name`.
    With `jobs` > 1 the workers are forked: a factory needs no pickling (a lambda will do).
    A worker that dies (killed, out of memory) is replaced and its game played again by the
    new one (a second death on the same game stops the tournament with a NimmtError).
    """
    if not names:
        raise ConfigError("a tournament needs at least one bot")
    if not (errors.is_integer(games) and 1 <= games <= MAX_GAMES):
        raise ConfigError(f"games must be an integer 1..{MAX_GAMES}, got {errors.quote(games)}")
    if not (errors.is_integer(jobs) and 1 <= jobs <= MAX_JOBS):
        raise ConfigError(f"jobs must be an integer 1..{MAX_JOBS}, got {errors.quote(jobs)}")
    bots = list(names)
    labels = [name for name, _ in bot_entries(bots)]
    seated = config.players + games - 1          # the lineup shifts one seat a game
    if len(bots) > seated:
        raise ConfigError(f"{len(bots)} bots, but {games} game(s) of {config.players} seats"
                          f" seat only {seated} of them: give at least"
                          f" {len(bots) - config.players + 1} games")
    stats = {name: BotStats(name) for name in labels}
    results: Dict[int, GameSummary] = {g: s for g, s in (done or {}).items() if g < games}
    todo = [g for g in range(games) if g not in results]

    def finished(g: int, summary: Union[GameSummary, Exception]) -> None:
        if isinstance(summary, Exception):
            raise summary
        if on_game:
            on_game(g, lineup(labels, config.players, g), summary)
        results[g] = replace(summary, records=None)      # the sums need no records
        if progress:
            progress(len(results))

    if progress and results:
        progress(len(results))
    if jobs == 1 or len(todo) <= 1:
        for g in todo:
            finished(*_game_summary(config, bots, seed, g))
    else:
        pending = iter(todo)

        def died(g: int, code: Optional[int], worker: int, deaths: int) -> bool:
            if deaths < MAX_DEATHS:
                return True                              # once more, on a fresh worker
            raise errors.NimmtError(f"game {g}: {MAX_DEATHS} worker processes ended"
                                    f" unexpectedly on it (the last with exit status {code}:"
                                    f" out of memory?)")

        # forked: the bots (a factory may be a lambda) need no pickling
        run_workers(lambda: next(pending, None), min(jobs, len(todo)),
                    Unwatched(partial(_portable_summary, config, bots, seed)), "nimmt-tournament",
                    lambda g, result, worker: finished(*result), died,
                    multiprocessing.get_context("fork"))
    rounds = 0
    for g in range(games):                  # in game order: the same sums whatever `jobs`
        _record_game(stats, lineup(labels, config.players, g), results[g])
        rounds += len(results[g].rounds)
    return {
        "players": config.players, "deck": config.deck, "threshold": config.threshold,
        "games": games, "rounds": rounds, "seed": seed,
        "bots": [s.summary() for s in stats.values()],
    }


def _record_game(stats: Dict[str, BotStats], seats: Sequence[str], result: GameSummary) -> None:
    winners = result.winners
    for k, name in enumerate(seats):
        bot = stats[name]
        bot.round_penalties.extend(r[k] for r in result.rounds)
        bot.game_scores.append(result.scores[k])
        if k in winners:
            bot.wins += 1 / len(winners)
