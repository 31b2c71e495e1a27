"""How much of a stopped exact solve its progress file keeps (`--progress-file`,
solver/exact/progress.py). Each position is solved whole, then again stopped at a share of
those nodes with a progress file, then started again from the file; the nodes of the second
start against the whole solve's (1.0: nothing kept, 0: nothing left to do), and the values
checked equal. One thread, so node counts repeat from run to run.

    python -m benchmarks.bench_resume [--sizes 8] [--count 3] [--seed 0] [--stops 0.5 0.9]
        [--only I]

Positions are bench_solver's (mid-round, seeded by size and seed; 10: full deals).
"""
import argparse
import os
import tempfile
from typing import List

from solver.errors import SearchLimitError
from solver.exact.engine import Engine
from solver.limits import Limit

from ._common import natural_int, positive_int
from .bench_solver import positions


def resumed_share(position, stop: float, path: str) -> tuple:
    """(whole solve's nodes, entries kept, nodes after the restart / whole)."""
    with Engine(position) as engine:
        whole = engine.solve(position, card_values=False)
    nodes = whole.stats.nodes
    if os.path.exists(path):
        os.remove(path)
    with Engine(position, progress_file=path) as engine:
        try:
            engine.solve(position, Limit(nodes=max(1, int(nodes * stop))), card_values=False)
        except SearchLimitError:
            pass
    with Engine(position, progress_file=path) as engine:
        kept = engine.loaded
        again = engine.solve(position, card_values=False)
    if abs(again.value - whole.value) > 1e-9:
        raise SystemExit(f"values differ on {position.to_text()}: {whole.value} and"
                         f" {again.value}")
    return nodes, kept, again.stats.nodes / nodes


def main(argv: List[str] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=positive_int, nargs="+", default=[8])
    parser.add_argument("--count", type=positive_int, default=3)
    parser.add_argument("--seed", type=natural_int, default=0)
    parser.add_argument("--stops", type=float, nargs="+", default=[0.5, 0.9],
                        help="shares of the whole solve's nodes where the first run stops")
    parser.add_argument("--only", type=int, default=None,
                        help="only the position of this index (the first --count otherwise)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "work.npz")
        for size in args.sizes:
            count = args.count if args.only is None else args.only + 1
            chosen = list(enumerate(positions(args.seed, size, count)))
            for i, position in chosen if args.only is None else chosen[-1:]:
                for stop in args.stops:
                    nodes, kept, share = resumed_share(position, stop, path)
                    print(f"{size} cards, position {i}: {nodes:,} nodes whole; stopped at"
                          f" {stop:.0%}, {kept:,} entries kept, the restart needs"
                          f" {share:.2f} of the whole", flush=True)


if __name__ == "__main__":
    main()
