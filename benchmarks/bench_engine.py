"""Random-play rounds per second: the Cython core against the pure-Python reference.

Both play the same thing: a random deal, uniformly random cards, a too-low card takes the
cheapest row (`solver._rules.random_rounds` in C, `solver.game.random_round_penalties` in
Python on the reference rules of `solver.rules`). Both are measured in the same run, on one
core, for 2, 4 and 10 players; the output is a markdown table.

    python -m benchmarks.bench_engine [--seconds S]      (from the repository root)
"""
import argparse
import random

from benchmarks._common import machine_line, markdown_table, positive_float, rate
from solver._rules import random_rounds
from solver.play.runner import random_round_penalties
from solver.core.rules import GameConfig


def python_rounds(config: GameConfig, rng: random.Random):
    def play(batch: int) -> None:
        for _ in range(batch):
            random_round_penalties(config, rng)
    return play


def c_rounds(config: GameConfig, seed: int):
    def play(batch: int) -> None:
        random_rounds(config.players, batch, seed, config.deck)
    return play


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=positive_float, default=3.0, help="per measurement")
    args = parser.parse_args(argv)
    print(f"{machine_line()}, {args.seconds:g} s per measurement, best of 3\n")
    rows = []
    for players in (2, 4, 10):
        config = GameConfig(players=players)
        fast = rate(c_rounds(config, seed=players), 100_000, args.seconds)
        slow = rate(python_rounds(config, random.Random(players)), 100, args.seconds)
        rows.append((players, f"{fast:,.0f}", f"{slow:,.0f}", f"{fast / slow:,.0f}x"))
    print(markdown_table(["players", "Cython core (rounds/s)", "pure Python (rounds/s)", "ratio"],
                         rows, right=[True] * 4))


if __name__ == "__main__":
    main()
