"""The exhaustive reference against the exact search, on 8- and 9-card positions.

For each position of `benchmarks.bench_solver.positions` (mid-round, deck 24): the value of
the exhaustive level-by-level solve (solver.exact.exhaustive) and of the search
(`solver.exact.solve(p, card_values=False, principal_line=False)`, one thread), whether they
agree to 1e-9, both times, and the canonical states of each stored level. Exits with status
1 on any disagreement.

    python -m benchmarks.bench_exhaustive [--eight N] [--nine M] [--seed S]
        [--threads T] [--lowest L]
"""
import argparse
import os
import sys
import time

from benchmarks._common import machine_line, markdown_table, natural_int, positive_int
from benchmarks.bench_solver import positions
from solver.exact import solve
from solver.exact.exhaustive import LOWEST_STORED, solve_exhaustive

AGREEMENT = 1e-9


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--eight", type=natural_int, default=20,
                        help="8-card positions (default 20; 0: none)")
    parser.add_argument("--nine", type=natural_int, default=3,
                        help="9-card positions (default 3; 0: none)")
    parser.add_argument("--seed", type=natural_int, default=0, help="seed of the positions (default 0)")
    parser.add_argument("--threads", type=positive_int, default=os.cpu_count() or 1,
                        help="threads of the exhaustive backward pass (default: every CPU)")
    parser.add_argument("--lowest", type=int, default=LOWEST_STORED,
                        help=f"lowest level stored; below it states are solved in place"
                             f" (default {LOWEST_STORED})")
    return parser.parse_args(argv)


def measure(position, args) -> dict:
    exhaustive = solve_exhaustive(position, lowest=args.lowest, threads=args.threads)
    start = time.perf_counter()
    searched = solve(position, card_values=False, principal_line=False)
    search_seconds = time.perf_counter() - start
    return {"position": position.to_text(), "cards": position.hand_size,
            "exhaustive": exhaustive.value, "search": searched.value,
            "difference": abs(exhaustive.value - searched.value),
            "exhaustive_seconds": exhaustive.seconds, "search_seconds": search_seconds,
            "states": exhaustive.states_per_level, "peak_mb": exhaustive.peak_bytes / 2 ** 20}


def states_text(states: dict) -> str:
    return " / ".join(f"{count:,}" for _, count in sorted(states.items(), reverse=True))


def main(argv=None) -> int:
    args = parse_args(argv)
    runs = []
    for size, count in ((8, args.eight), (9, args.nine)):
        for k, position in enumerate(positions(args.seed, size, count)):
            run = measure(position, args)
            runs.append(run)
            print(f"  {size} cards #{k}: exhaustive {run['exhaustive']:.9f} in"
                  f" {run['exhaustive_seconds']:.1f} s, search {run['search']:.9f} in"
                  f" {run['search_seconds']:.2f} s, states {states_text(run['states'])},"
                  f" peak {run['peak_mb']:.0f} MB", file=sys.stderr, flush=True)
    print(f"\n{machine_line()}")
    print(f"seed {args.seed}; exhaustive on {args.threads} thread(s), levels stored down to"
          f" {args.lowest} cards (below them solved in place); search on one thread\n")
    print(markdown_table(
        ["cards", "#", "exhaustive value", "search value", f"agree to {AGREEMENT:g}",
         "exhaustive s", "search s", "states per stored level (root first)", "peak MB"],
        [[r["cards"], k, f"{r['exhaustive']:.6f}", f"{r['search']:.6f}",
          "yes" if r["difference"] <= AGREEMENT else "NO", f"{r['exhaustive_seconds']:.1f}",
          f"{r['search_seconds']:.2f}", states_text(r["states"]), f"{r['peak_mb']:.0f}"]
         for k, r in enumerate(runs)]))
    bad = [r for r in runs if r["difference"] > AGREEMENT]
    print(f"\n{len(runs) - len(bad)}/{len(runs)} positions agree to {AGREEMENT:g}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
