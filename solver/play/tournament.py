"""Tournaments: whole games between bots, seats rotated, with per-bot statistics.

Game g seats the bots in the order given, shifted by g (the list is cycled if there are more
seats than bots), so every bot sits everywhere. Each game has its own seed derived from the
tournament seed and g: games are independent and the result is determined by the seed, the
same whatever the number of worker processes (`jobs`): games are added up in their order.
(A bot with a budget in seconds, such as `mcts:seconds=1`, is not reproducible by nature.)
"""
import multiprocessing
import random
import signal
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .. import errors
from ..core.rules import GameConfig
from ..errors import ConfigError
from ..limits import MAX_GAMES, MAX_JOBS
from ..stats import mean_ci95
from .bots import make_bot
from .runner import GameResult, play_game


@dataclass
class BotStats:
    name: str
    round_penalties: List[int] = field(default_factory=list)   # one per (seat, round) played
    game_scores: List[int] = field(default_factory=list)       # one per (seat, game) played
    wins: float = 0.0                                          # a win shared by k seats counts 1/k

    def summary(self) -> Dict[str, Any]:
        mean, lo, hi = mean_ci95(self.round_penalties)
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


def lineup(names: Sequence[str], players: int, game: int) -> List[str]:
    """Bots of game `game`, seat by seat: the list cycled and shifted by the game number."""
    return [names[(game + k) % len(names)] for k in range(players)]


def game_seed(seed: Any, game: int) -> str:
    return f"{seed}/{game}"


def play_tournament_game(config: GameConfig, names: Sequence[str], seed: Any,
                         game: int) -> GameResult:
    """Game number `game` of a tournament: the bots and the deals come from `seed` and `game`."""
    rng = random.Random(game_seed(seed, game))
    seats = lineup(names, config.players, game)
    players = [make_bot(name, rng.getrandbits(64)) for name in seats]
    return play_game(config, players, rng.getrandbits(64))


@dataclass
class GameSummary:
    """What a tournament keeps of a game (small, to come back from a worker process)."""
    round_penalties: List[Tuple[int, ...]]
    scores: Tuple[int, ...]
    winners: List[int]

    @property
    def rounds(self) -> List[Tuple[int, ...]]:
        return self.round_penalties


def _game_summary(task) -> Tuple[int, GameSummary]:
    config, names, seed, g = task
    result = play_tournament_game(config, names, seed, g)
    return g, GameSummary([r.penalties for r in result.rounds], result.scores, result.winners)


def run_tournament(config: GameConfig, names: Sequence[str], games: int, seed: Any = 0,
                   progress: Optional[Callable[[int], None]] = None,
                   jobs: int = 1) -> Dict[str, Any]:
    """Play `games` whole games in `jobs` processes; per-bot mean bullheads per round (with
    95% CI), win rates. `progress(games done)` after each game."""
    if not names:
        raise ConfigError("a tournament needs at least one bot")
    if not (errors.is_integer(games) and 1 <= games <= MAX_GAMES):
        raise ConfigError(f"games must be an integer 1..{MAX_GAMES}, got {errors.quote(games)}")
    if not (errors.is_integer(jobs) and 1 <= jobs <= MAX_JOBS):
        raise ConfigError(f"jobs must be an integer 1..{MAX_JOBS}, got {errors.quote(jobs)}")
    stats = {name: BotStats(name) for name in names}
    tasks = [(config, list(names), seed, g) for g in range(games)]
    results: Dict[int, GameSummary] = {}
    if jobs == 1:
        for task in tasks:
            g, summary = _game_summary(task)
            results[g] = summary
            if progress:
                progress(len(results))
    else:
        with multiprocessing.get_context("fork").Pool(min(jobs, games),
                                                      initializer=_worker_start) as pool:
            for g, summary in pool.imap_unordered(_game_summary, tasks):
                results[g] = summary
                if progress:
                    progress(len(results))
    rounds = 0
    for g in range(games):                  # in game order: the same sums whatever `jobs`
        _record_game(stats, lineup(names, config.players, g), results[g])
        rounds += len(results[g].rounds)
    return {
        "players": config.players, "deck": config.deck, "threshold": config.threshold,
        "games": games, "rounds": rounds, "seed": seed,
        "bots": [s.summary() for s in stats.values()],
    }


def _worker_start() -> None:
    """A worker process ignores Ctrl-C: the parent stops on it and ends the pool (otherwise
    every worker would print its own traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _record_game(stats: Dict[str, BotStats], seats: Sequence[str], result: GameSummary) -> None:
    winners = result.winners
    for k, name in enumerate(seats):
        bot = stats[name]
        bot.round_penalties.extend(r[k] for r in result.rounds)
        bot.game_scores.append(result.scores[k])
        if k in winners:
            bot.wins += 1 / len(winners)
