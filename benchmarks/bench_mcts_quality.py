"""How far the search player's root strategy is from the equilibrium, on 2-player positions.

Issue 4's target: on 2-player 24-card positions (complete information), with the hand-over
to the exact solver switched off, the search player's root strategy loses on average less
than 0.5 bullheads against the equilibrium. For each seeded position (tests/positions_gen.py
`random_midround`, h cards per hand):
- the exact value v and the root matrix M (solver.exact.rootgame: M[i, j] is the value of
  the round when player 1 plays its i-th card and player 2 its j-th, both then playing
  perfectly; player 1 maximizes player 2's bullheads minus its own);
- the search's root strategies x, y of both players (`solver.mcts.root_strategies`: the
  share of the root visits of each card, or with --selection rm the average strategy of
  regret matching; one tree, the given iterations, no hand-over);
- the loss (exploitability) of each: v − min_j x·M[:, j] for player 1, max_i M[i, :]·y − v
  for player 2; and the same for the card the search player actually plays (its most
  visited card, a pure strategy).
Prints a markdown table by hand size and budget, writes JSON to benchmarks/results/.

    python -m benchmarks.bench_mcts_quality [--sizes 4 5 6 7] [--positions 10]
        [--budgets 1000 10000 50000] [--seed 1] [--policy heuristic] [--c 4]
        [--reward relative|own] [--selection rm+|rm|ucb] [--gamma 0.1] [--json FILE]
    (from the repository root)
"""
import argparse
import os
import random
import sys
import time
from statistics import mean
from typing import Dict, List, Sequence

import numpy as np

from benchmarks._common import (machine_info, machine_line, markdown_table, natural_int,
                                positive_float, positive_int, write_json)
from solver.core.position import Position
from solver.exact.rootgame import as_vector, losses, root_game
from solver.limits import Limit
from solver.mcts import SearchOptions, root_strategies
from solver.mcts.options import DEFAULT_C
from solver.mcts.player import derive_seed
from tests.positions_gen import random_midround

HERE = os.path.dirname(os.path.abspath(__file__))

DEFAULT_JSON = os.path.join(HERE, "results", "bench_mcts_quality.json")
TARGET = 0.5


def positions(size: int, count: int, seed: int) -> List[Position]:
    """`count` mid-round positions with `size` cards per hand (not over: no forced plays)."""
    return [random_midround(random.Random(f"{seed}/{size}/{i}"), size) for i in range(count)]


def most_visited(strategy: Dict[int, float], hand: Sequence[int]) -> np.ndarray:
    best = max(hand, key=lambda card: (strategy[card], -card))
    return as_vector({best: 1.0}, hand)


def measure(position: Position, budgets: Sequence[int], seed: str, policy: str,
            c: float, reward: str, selection: str = "ucb", gamma: float = 0.1) -> dict:
    start = time.perf_counter()
    game = root_game(position)
    exact_seconds = time.perf_counter() - start
    hands = position.hands
    runs = []
    for budget in budgets:
        start = time.perf_counter()
        strategies = root_strategies(position, Limit(iterations=budget), seed=derive_seed(seed, budget), options=SearchOptions(policy=policy, c=c, reward=reward, selection=selection, gamma=gamma))
        seconds = time.perf_counter() - start
        x, y = (as_vector(s, h) for s, h in zip(strategies, hands))
        pure = list(losses(game, most_visited(strategies[0], hands[0]),
                           most_visited(strategies[1], hands[1])))
        runs.append({"iterations": budget, "seconds": seconds,
                     "loss": list(losses(game, x, y)), "loss_most_visited": pure,
                     "strategies": [{str(k): p for k, p in s.items()} for s in strategies]})
    return {"position": position.to_text(), "value": game.value, "exact_seconds": exact_seconds,
            "runs": runs}


def summary_rows(results: dict) -> List[list]:
    rows = []
    for size, items in results["sizes"].items():
        for b, budget in enumerate(results["options"]["budgets"]):
            runs = [item["runs"][b] for item in items]
            mixed = [loss for r in runs for loss in r["loss"]]
            pure = [loss for r in runs for loss in r["loss_most_visited"]]
            rows.append([size, f"{budget:,}", len(items),
                         f"{mean(r['loss'][0] for r in runs):.3f}",
                         f"{mean(r['loss'][1] for r in runs):.3f}",
                         f"{mean(mixed):.3f}", f"{max(mixed):.2f}", f"{mean(pure):.3f}",
                         f"{1000 * mean(r['seconds'] for r in runs):.0f}"])
    return rows


HEADERS = ["cards", "iterations", "positions", "loss P1", "loss P2", "mean loss", "max loss",
           "mean loss, most visited card", "ms per search"]


def overall(results: dict) -> List[list]:
    rows = []
    for b, budget in enumerate(results["options"]["budgets"]):
        mixed = [loss for items in results["sizes"].values() for item in items
                 for loss in item["runs"][b]["loss"]]
        rows.append([f"{budget:,}", f"{mean(mixed):.3f}",
                     "met" if mean(mixed) < TARGET else "NOT met"])
    return rows


def report(results: dict) -> None:
    o = results["options"]
    print(f"\n{machine_line(results['machine'])}")
    print(f"seed {o['seed']}, {o['positions']} positions per hand size, playouts {o['policy']},"
          f" c {o['c']}, reward {o['reward']}, selection {o.get('selection', 'ucb')}"
          f" (gamma {o.get('gamma', 0.1)}); loss in bullheads (exact value minus the worst case of the strategy)\n")
    print(markdown_table(HEADERS, summary_rows(results)))
    print(f"\nAll hand sizes (target: mean loss < {TARGET}):\n")
    print(markdown_table(["iterations", "mean loss", "target"], overall(results)))


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=positive_int, nargs="+", default=[4, 5, 6, 7])
    parser.add_argument("--positions", type=positive_int, default=10, help="per hand size")
    parser.add_argument("--budgets", type=positive_int, nargs="+", default=[1000, 10000, 50000])
    parser.add_argument("--seed", type=natural_int, default=1)
    parser.add_argument("--policy", default="heuristic", choices=["heuristic", "random"])
    parser.add_argument("--c", type=positive_float, default=DEFAULT_C,
                        help="UCB exploration (default: the search player's)")
    parser.add_argument("--reward", default="relative", choices=["own", "relative"],
                        help="what the search minimizes: own bullheads, or own minus the"
                             " opponent's (the exact solver's zero-sum game)")
    parser.add_argument("--selection", default="rm+", choices=["ucb", "rm", "rm+"],
                        help="the search's selection: UCB1 (strategy: visit shares) or regret"
                             " matching (strategy: the average strategy); rm+ is the search"
                             " player's default at 2 players")
    parser.add_argument("--gamma", type=positive_float, default=0.1,
                        help="regret matching: the uniform exploration mixed in")
    parser.add_argument("--json", default=DEFAULT_JSON, help="results file")
    return parser.parse_args(argv)


def main(argv=None) -> None:
    args = parse_args(argv)
    results = {"machine": machine_info(), "options": vars(args), "sizes": {}}
    start = time.perf_counter()
    for size in args.sizes:
        results["sizes"][str(size)] = [
            measure(p, args.budgets, f"{args.seed}/{size}/{i}", args.policy, args.c,
                    args.reward, args.selection, args.gamma)
            for i, p in enumerate(positions(size, args.positions, args.seed))]
        print(f"{size} cards: done, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    results["seconds"] = time.perf_counter() - start
    write_json(args.json, results)
    report(results)
    print(f"\n{results['seconds']:.0f} s in all; results in {os.path.relpath(args.json)}")


if __name__ == "__main__":
    main()
