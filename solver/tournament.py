"""Tournaments: whole games between bots, seats rotated, with per-bot statistics.

Game g seats the bots in the order given, shifted by g (the list is cycled if there are more
seats than bots), so every bot sits everywhere. Each game has its own seed derived from the
tournament seed and g: games are independent and the result is determined by the seed, the
same whatever the number of worker processes (`jobs`): games are added up in their order.
(A bot with a budget in seconds, such as `mcts:seconds=1`, is not reproducible by nature.)
"""
import math
import multiprocessing
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, TextIO, Tuple

from .bots import make_bot
from . import errors
from .errors import ConfigError
from .game import GameResult, play_game
from .limits import MAX_GAMES, MAX_JOBS
from .rules import GameConfig

Z95 = 1.959964  # normal quantile for a two-sided 95% interval


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


def mean_ci95(values: Sequence[float]):
    """Mean and its normal-approximation 95% confidence interval."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, mean, mean
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


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
        with multiprocessing.get_context("fork").Pool(min(jobs, games)) as pool:
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


def _record_game(stats: Dict[str, BotStats], seats: Sequence[str], result: GameSummary) -> None:
    winners = result.winners
    for k, name in enumerate(seats):
        bot = stats[name]
        bot.round_penalties.extend(r[k] for r in result.rounds)
        bot.game_scores.append(result.scores[k])
        if k in winners:
            bot.wins += 1 / len(winners)


def format_table(summary: Dict[str, Any]) -> str:
    """The tournament summary as a markdown table."""
    lines = [f"{summary['games']} games, {summary['rounds']} rounds, {summary['players']} players,"
             f" deck {summary['deck']}, threshold {summary['threshold']}, seed {summary['seed']}",
             "",
             "| bot | seat-games | bullheads/round | 95% CI | mean score | win rate |",
             "|---|---:|---:|---|---:|---:|"]
    for bot in summary["bots"]:
        lo, hi = bot["ci95"]
        lines.append(f"| {bot['name']} | {bot['seat_games']} | {bot['mean_penalty_per_round']:.2f}"
                     f" | [{lo:.2f}, {hi:.2f}] | {bot['mean_score']:.1f}"
                     f" | {100 * bot['win_rate']:.1f}% |")
    return "\n".join(lines)


def bar(fraction: float, width: int = 30) -> str:
    """`[#######.......]`: a progress bar `fraction` (0..1) of the way."""
    filled = int(width * min(1.0, max(0.0, fraction)))
    return f"[{'#' * filled}{'.' * (width - filled)}]"


class ProgressBar:
    """`[#######.........]  12/40 games  3.1 s  ETA 7 s` on stderr, redrawn in place (a new
    line per tenth of the way when stderr is not a terminal)."""
    WIDTH = 30

    def __init__(self, total: int, label: str = "games", stream: Optional[TextIO] = None):
        self.total, self.label = total, label
        self.stream = stream if stream is not None else sys.stderr
        self.start = time.perf_counter()
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.last_tenth = -1

    def __call__(self, done: int) -> None:
        elapsed = time.perf_counter() - self.start
        tenth = 10 * done // self.total
        if not self.tty and tenth == self.last_tenth and done < self.total:
            return
        self.last_tenth = tenth
        eta = elapsed / done * (self.total - done) if done else 0.0
        line = (f"{bar(done / self.total, self.WIDTH)} {done:>{len(str(self.total))}}"
                f"/{self.total} {self.label}  {elapsed:.1f} s  ETA {eta:.0f} s")
        self.stream.write(("\r" + line) if self.tty else line + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()
