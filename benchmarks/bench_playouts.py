"""Playouts per second of the simulation core (solver._sim, cext/sim.pxd), one core.

A playout here is a whole round from a fresh deal, standard 104-card game: random cards (a
too-low card takes the cheapest row) or the heuristic playout policy of the search player.
Also the search player's iterations per second with either playout policy (ISMCTS from the
first turn, one tree, one thread; random playouts are its default from 3 players on).
Output: a markdown table.

    python -m benchmarks.bench_playouts [--seconds S]      (from the repository root)
"""
import argparse
import random
import time

from benchmarks._common import machine_line, markdown_table, positive_float, rate
from solver._sim import Determinizer, Search, playout_rounds


def search_rate(players: int, policy: str, seconds: float) -> float:
    rng = random.Random(players)
    cards = list(range(1, 105))
    rng.shuffle(cards)
    hand = cards[:10]
    rows = [[c] for c in cards[10 * players:10 * players + 4]]
    pool = sorted(set(range(1, 105)) - set(hand) - {r[0] for r in rows})
    det = Determinizer(rows, [hand] + [None] * (players - 1), pool, 10)
    search = Search(det, 0, seed=1, policy=policy)
    start = time.perf_counter()
    done = search.run(seconds=seconds)
    return done / (time.perf_counter() - start)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=positive_float, default=3.0, help="per measurement")
    args = parser.parse_args(argv)
    print(f"{machine_line()}; {args.seconds:g} s per measurement, best of 3\n")
    rows = []
    for players in (2, 4, 5, 10):
        cells = [rate(lambda b, p=policy: playout_rounds(players, b, 1, 104, p), 2000, args.seconds)
                 for policy in ("random", "heuristic")]
        cells += [search_rate(players, policy, args.seconds) for policy in ("random", "heuristic")]
        rows.append([players] + [f"{c:,.0f}" for c in cells])
    print(markdown_table(["players", "random playouts/s", "heuristic playouts/s",
                          "ISMCTS iterations/s (random)", "ISMCTS iterations/s (heuristic)"],
                         rows, right=[True] * 5))


if __name__ == "__main__":
    main()
