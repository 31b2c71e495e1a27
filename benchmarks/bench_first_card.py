"""The exact search with and without its opening-card model (or with other weights). On the
same positions, one thread: matrix nodes and CPU seconds of each, alternated position by
position (the machine may be busy with other work, so the ratio of the same run is the
measure, not the seconds), and the values checked equal.

    python -m benchmarks.bench_first_card [--sizes 7 8] [--seeds 0 1 2] [--count 10]
        [--weights FILE] [--against FILE]

Positions are bench_solver's (mid-round, seeded by size and seed). `--weights` is the
candidate (default the shipped weights), `--against` the baseline (default no model).
"""
import argparse
import time
from typing import List, Optional

from solver.exact.engine import Engine
from solver.exact.firstcard import load

from ._common import natural_int, positive_int
from .bench_solver import positions


def solve(position, model) -> tuple:
    with Engine(position, first_card=model) as engine:
        start = time.process_time()
        solution = engine.solve(position, card_values=False, principal_line=False)
        return solution.value, solution.stats.nodes, time.process_time() - start


def compare(size: int, seeds: List[int], count: int, candidate, baseline) -> dict:
    nodes = [0, 0]
    seconds = [0.0, 0.0]
    for seed in seeds:
        for position in positions(seed, size, count):
            a = solve(position, candidate)
            b = solve(position, baseline)
            if abs(a[0] - b[0]) > 1e-9:
                raise SystemExit(f"values differ on {position.to_text()}: {a[0]} and {b[0]}")
            for side, result in enumerate((a, b)):
                nodes[side] += result[1]
                seconds[side] += result[2]
    return {"size": size, "positions": count * len(seeds), "nodes": nodes, "seconds": seconds}


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=positive_int, nargs="+", default=[7, 8])
    parser.add_argument("--seeds", type=natural_int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--count", type=positive_int, default=10, help="positions per size and seed")
    parser.add_argument("--weights", default=None, help="the candidate's weights")
    parser.add_argument("--against", default=None, help="the baseline's weights (none: no model)")
    args = parser.parse_args(argv)
    candidate = load(args.weights) if args.weights else True
    baseline = load(args.against) if args.against else False
    print("| Cards | Positions | Nodes, candidate | Nodes, baseline | Node ratio |"
          " CPU s, candidate | CPU s, baseline | Time ratio |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for size in args.sizes:
        r = compare(size, args.seeds, args.count, candidate, baseline)
        print(f"| {size} | {r['positions']} | {r['nodes'][0]:,} | {r['nodes'][1]:,} |"
              f" {r['nodes'][0] / r['nodes'][1]:.3f} | {r['seconds'][0]:.1f} |"
              f" {r['seconds'][1]:.1f} | {r['seconds'][0] / r['seconds'][1]:.3f} |", flush=True)


if __name__ == "__main__":
    main()
