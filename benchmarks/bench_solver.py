"""Exact solver benchmark: solve times, search statistics, ablations, node matrix games.

Everything is measured in one run, on one core (with --two-threads also on two), on
positions built from a seed by tests/positions_gen.py (deck 24, 2 players, both hands known):

- mid-round positions with 6, 7 and 8 cards per hand (`random_midround`) and full 10-card
  deals (`random_deal`): median and worst seconds to solve (the value and both equilibrium
  strategies; `nimmt solve --no-card-values`), matrix-game nodes and small (2-card) nodes,
  transposition hit rate, matrix games solved, fraction of children never evaluated. A
  position that hits the per-position time limit is reported as "not solved within N s" with
  the bounds proven so far, never as a result.
- with --two-threads, each solved position again on two threads (`--threads 2`): median
  seconds and the speedup over one thread, per position and in total.
- with --threads 1 2 [...], each position of 7+ cards solved on each of those thread counts,
  alternated (1, 2, 1, 2, ...) --repeats times, since the machine may be busy with other work:
  per position the median seconds on each count, and the speedups (median seconds on the
  first count / median on each other), as medians over the positions and in total; also the
  main thread's nodes (median), whose ratio to one thread's nodes says how the work was
  split, less sensitive to other work on the machine than the seconds.
- ablations on the 6- and 7-card positions: the same search without pruning (plain backward
  induction with the table), without canonical keys, with both off, and without the
  opening-card model; ratios against the full search of the same run.
- node matrix games: `solver._matgame.solve_matrix` against SciPy's HiGHS
  (`linprog(method="highs")`, one LP for the value and the row player's strategy) on the same
  matrices: the root matrices of the 6- and 7-card positions and random integer matrices.
- with --proof (and in --quick on the 6-card positions), search expansions against proof
  obligations per level (cards per hand) on the 6-, 7- and 8-card positions: the node
  expansions of a greedy proof of each root's value that knows every true value
  (benchmarks/proof.py), against the search's expansions (`expanded_by_cards`); the ratio
  says how much more the search does than such a proof. Also the search's exact nodes
  against the proof's states that need both bounds (at the value: exact).
- the critical path of the 7- and 8-card positions (and deals), from the one-thread solves:
  the work (matrix nodes) and the span (the nodes of the longest chain of dependent work if
  every group of tasks the threads may share ran at once: cext/context.pxd), work / span,
  and Brent's estimate of the speedup on P threads, work / (work / P + span), in three
  variants: the reply tests alone shared; also the restricted entries' refines and each
  test's first null-window pass; also the row choices of a too-low card. An estimate only:
  with real threads the work itself changes (a test that beats stops the others, and
  speculative work is wasted), and memory and the table are shared.
- a regression signature, like Stockfish's `bench`: the nodes searched (matrix-game nodes plus
  small nodes) over a fixed set of positions, independent of the options; identical across runs
  of the same build. Printed last, as `Nodes searched: N`.

    python -m benchmarks.bench_solver [--quick] [--seed S] [--sizes 6 7 8 10] [--count N]
        [--deals N] [--time-limit S] [--matrices N] [--two-threads] [--threads T [T ...]]
        [--repeats R] [--proof] [--no-ablations] [--json PATH]
    python -m benchmarks.bench_solver --from-json PATH     # the tables of a saved run

(from the repository root: benchmarks/ and tests/ are packages, imported from there)
"""
import argparse
import hashlib
import json
import os
import random
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from benchmarks._common import (machine_info, machine_line, markdown_table, natural_int,
                                per_call_seconds, positive_float, positive_int, write_json)
from benchmarks.proof import position_proof
import solver._search
from solver._matgame import solve_matrix, time_solve_batch
from solver.errors import SearchLimitError
from solver.exact.engine import Engine, proven_bounds
from solver.limits import Limit
from solver.core.position import Position
from tests.positions_gen import random_deal, random_midround
from tests.reference_solver import _lp_row_player as highs_row_player

HERE = os.path.dirname(os.path.abspath(__file__))

DEAL = 10                                 # a full deal: 10 cards per hand
ABLATION_SIZES = (6, 7)                   # small enough for the ablated searches to finish
ABLATIONS = {
    "no pruning": {"no_pruning": True},
    "no canonical keys": {"no_canonical": True},
    "both off": {"no_pruning": True, "no_canonical": True},
    "no opening-card model": {"first_card": False},
}
BACKWARD_INDUCTION = "both off"           # the issue's "plain backward induction"
PROOF_SIZES = (6, 7, 8)                   # proof obligations: a few minutes at 8 cards
SIGNATURE_SEED, SIGNATURE_SIZES, SIGNATURE_COUNT = 1, (6, 7), 4
MATRIX_SEED, RANDOM_MATRIX_SIZES, MATRIX_ENTRIES = 2016, range(2, 11), (-20, 20)
AGREEMENT = 1e-9                          # matgame and HiGHS values must agree this closely
TARGETS = {"backward_induction_ratio_7": 100, "highs_ratio": 300}
C_REPEATS = 2000            # solves per timing of the C routine
DEFAULT_JSON = os.path.join(HERE, "results", "bench_solver.json")
# a --quick smoke run writes elsewhere, so it never replaces the numbers of a full run
QUICK_JSON = os.path.join(HERE, "results", "bench_solver_quick.json")


# positions -----------------------------------------------------------------------------------
def positions(seed: int, size: int, count: int) -> List[Position]:
    """`count` positions with `size` cards per hand: full deals for 10, mid-round otherwise.
    A smaller count gives a prefix of a larger one."""
    rng = random.Random(1000 * seed + size)
    make = random_deal if size == DEAL else random_midround
    return [make(rng, size) for _ in range(count)]


# one solve -----------------------------------------------------------------------------------
@dataclass
class Run:
    position: str                         # text notation
    solved: bool
    value: Optional[float]
    bounds: Optional[Tuple[Optional[float], Optional[float]]]   # when not solved
    seconds: float
    stats: dict
    seconds_two_threads: Optional[float] = None     # with --two-threads, when solved
    span: Optional[List[int]] = None      # one thread: the critical paths (SPAN_VARIANTS)

    @property
    def all_nodes(self) -> int:
        return self.stats["nodes"] + self.stats["small_nodes"]


def solve_one(position: Position, time_limit: float, ablation: Dict[str, bool] = None,
              keep_matrix: Optional[list] = None, threads: int = 1) -> Run:
    """Solve (the value and the equilibrium strategies, "solve" as docs/rules.md means it; not the values of the
    cards outside the equilibrium) with a fresh engine (empty table); on success, optionally
    append the full root matrix to `keep_matrix` (computed after the timing)."""
    engine = Engine(position, threads=threads, **(ablation or {}))
    start = time.perf_counter()
    try:
        solution = engine.solve(position, Limit(seconds=time_limit), card_values=False)
    except SearchLimitError as limit:
        return Run(position.to_text(), False, None, limit.bounds,
                   time.perf_counter() - start, limit.stats.to_dict())
    seconds = time.perf_counter() - start
    span = engine.search.stats["span"] if threads == 1 else None
    if keep_matrix is not None:
        keep_matrix.append(engine.full_matrix(position))
    return Run(position.to_text(), True, solution.value, None, seconds, solution.stats.to_dict(),
               span=span)


def describe(run: Run, time_limit: float) -> str:
    """The value, or the honest statement of a limit hit and the bounds proven."""
    if run.solved:
        return f"{run.value:.6f}"
    bounds = proven_bounds(*(run.bounds or (None, None)))    # one side may be proven
    return f"not solved within {time_limit:g} s; {bounds or 'no bounds proven'}"


# per-size summary ----------------------------------------------------------------------------
def median(values: Sequence[float]) -> Optional[float]:
    return statistics.median(values) if values else None


def ratio(num: float, den: float) -> Optional[float]:
    return num / den if den else None


def summarize(runs: List[Run]) -> dict:
    """Times over the solved positions; statistics summed over every run (an unsolved run
    counts the work done until its limit)."""
    solved = [r for r in runs if r.solved]
    total = lambda key: sum(r.stats[key] for r in runs)           # noqa: E731
    return {
        "positions": len(runs),
        "solved": len(solved),
        "median_seconds": median([r.seconds for r in solved]),
        "worst_seconds": max((r.seconds for r in runs), default=None),
        "median_nodes": median([r.stats["nodes"] for r in runs]),
        "total_nodes": total("nodes"),
        "median_small_nodes": median([r.stats["small_nodes"] for r in runs]),
        "total_small_nodes": total("small_nodes"),
        "tt_hit_rate": ratio(total("tt_hits"), total("tt_probes")),
        "matrix_games": total("matrix_games"),
        "median_matrix_games": median([r.stats["matrix_games"] for r in runs]),
        "children_never_evaluated":
            1.0 - ratio(total("children_seen"), total("children_total") or 1),
        **two_thread_summary(solved),
    }


def two_thread_summary(solved: List[Run]) -> dict:
    """With --two-threads: the same positions on two threads, as ratios to one thread."""
    both = [r for r in solved if r.seconds_two_threads is not None]
    if not both:
        return {}
    return {"median_seconds_one_thread": median([r.seconds for r in both]),
            "median_seconds_two_threads": median([r.seconds_two_threads for r in both]),
            "median_speedup_two_threads": median([r.seconds / r.seconds_two_threads
                                                  for r in both]),
            "total_speedup_two_threads": ratio(sum(r.seconds for r in both),
                                               sum(r.seconds_two_threads for r in both))}


def size_row(size: int, s: dict, time_limit: float) -> list:
    worst = f"{s['worst_seconds']:.3f}"
    if s["solved"] < s["positions"]:
        worst = f"> {time_limit:g} (limit)"
    med = "-" if s["median_seconds"] is None else f"{s['median_seconds']:.3f}"
    return [f"{size}" + (" (deal)" if size == DEAL else ""), f"{s['solved']}/{s['positions']}",
            med, worst, f"{s['median_nodes']:,.0f}", f"{s['total_nodes']:,}",
            f"{s['median_small_nodes']:,.0f}", f"{s['total_small_nodes']:,}",
            f"{s['tt_hit_rate']:.1%}", f"{s['matrix_games']:,}",
            f"{s['children_never_evaluated']:.1%}"]


SIZE_HEADERS = ["cards", "solved", "median s", "worst s", "median nodes", "total nodes",
                "median small nodes", "total small nodes", "TT hit rate", "matrix games",
                "children never evaluated"]


TWO_THREAD_HEADERS = ["cards", "median s, one thread", "median s, two threads", "median speedup",
                      "total speedup"]


# the critical path ---------------------------------------------------------------------------
SPAN_SIZES = (7, 8, 9, DEAL)              # smaller roots take no threads (HELP_FROM)
SPAN_VARIANTS = ["reply tests", "+ entry refines, first null-window passes", "+ row choices"]
BRENT_THREADS = (2, 8, 16, 32, 64)


def brent(work: int, span: int, threads: int) -> float:
    """Brent's estimate of the speedup on `threads` threads: a greedy schedule takes at most
    work / P + span steps."""
    return work / (work / threads + span)


def span_summary(runs: List[Run]) -> Optional[dict]:
    """Per variant: the median of work / span and of each Brent estimate over the solved
    positions, and each position's numbers."""
    measured = [r for r in runs if r.solved and r.span]
    if not measured:
        return None
    variants = []
    for v, name in enumerate(SPAN_VARIANTS):
        per = [{"work": r.stats["nodes"], "span": r.span[v],
                "parallelism": r.stats["nodes"] / r.span[v],
                "brent": {str(p): brent(r.stats["nodes"], r.span[v], p) for p in BRENT_THREADS}}
               for r in measured]
        variants.append({"variant": name, "positions": per,
                         "median_parallelism": median([d["parallelism"] for d in per]),
                         "median_brent": {str(p): median([d["brent"][str(p)] for d in per])
                                          for p in BRENT_THREADS}})
    return {"positions": len(measured), "seconds": [r.seconds for r in measured],
            "variants": variants}


def span_rows(size: int, d: dict) -> List[list]:
    rows = []
    for v in d["variants"]:
        for k, one in enumerate(v["positions"]):
            rows.append([size, k, v["variant"], f"{one['work']:,}", f"{one['span']:,}",
                         f"{one['parallelism']:.1f}"]
                        + [f"{one['brent'][str(p)]:.2f}x" for p in BRENT_THREADS])
        rows.append([size, "median", v["variant"], "", "", f"{v['median_parallelism']:.1f}"]
                    + [f"{v['median_brent'][str(p)]:.2f}x" for p in BRENT_THREADS])
    return rows


SPAN_HEADERS = (["cards", "position", "shared", "work (nodes)", "span (nodes)", "work / span"]
                + [f"Brent, {p} threads" for p in BRENT_THREADS])


def deal_estimate(spans: Dict[str, dict]) -> Optional[List[dict]]:
    """Full deals from the 7- and 8-card medians, where no deal was measured: work / span
    grown by its 7-to-8 factor per card (an extrapolation, two more cards out)."""
    if "7" not in spans or "8" not in spans or str(DEAL) in spans:
        return None
    out = []
    for v7, v8 in zip(spans["7"]["variants"], spans["8"]["variants"]):
        growth = v8["median_parallelism"] / v7["median_parallelism"]
        parallelism = v8["median_parallelism"] * growth ** (DEAL - 8)
        out.append({"variant": v8["variant"], "growth_per_card": growth,
                    "parallelism": parallelism,
                    "brent": {str(p): p * parallelism / (parallelism + p)
                              for p in BRENT_THREADS}})
    return out


# ablations -----------------------------------------------------------------------------------
def compare(full: List[Run], ablated: List[Run]) -> dict:
    """Ratios ablated / full over the positions. If an ablated run hit its limit its counts
    are those at the limit, so the ratios are lower bounds (`complete` is False)."""
    node_ratios = [a.all_nodes / f.all_nodes for f, a in zip(full, ablated)]
    agree = all(abs(a.value - f.value) <= AGREEMENT for f, a in zip(full, ablated)
                if a.solved and f.solved)
    return {
        "solved": sum(a.solved for a in ablated),
        "positions": len(ablated),
        "complete": all(a.solved for a in ablated),
        "node_ratio": ratio(sum(a.all_nodes for a in ablated), sum(f.all_nodes for f in full)),
        "node_ratio_min": min(node_ratios),
        "node_ratio_max": max(node_ratios),
        "evaluation_ratio": ratio(sum(a.stats["evaluations"] for a in ablated),
                                  sum(f.stats["evaluations"] for f in full)),
        "time_ratio": ratio(sum(a.seconds for a in ablated), sum(f.seconds for f in full)),
        "values_agree": agree,
    }


def ablation_row(size: int, name: str, c: dict) -> list:
    at_least = "" if c["complete"] else ">= "
    fmt = lambda x: f"{at_least}{x:,.1f}x"                        # noqa: E731
    return [size, name, f"{c['solved']}/{c['positions']}", fmt(c["node_ratio"]),
            f"{c['node_ratio_min']:,.1f}x .. {c['node_ratio_max']:,.1f}x",
            fmt(c["evaluation_ratio"]), fmt(c["time_ratio"]),
            "yes" if c["values_agree"] else "NO"]


ABLATION_HEADERS = ["cards", "switched off", "solved", "nodes ratio (total)",
                    "nodes ratio per position", "evaluations ratio", "time ratio",
                    "same values"]


# node matrix games ---------------------------------------------------------------------------
def random_matrices(per_size: int) -> List[np.ndarray]:
    rng = np.random.default_rng(MATRIX_SEED)
    low, high = MATRIX_ENTRIES
    return [rng.integers(low, high + 1, size=(n, n)).astype(float)
            for n in RANDOM_MATRIX_SIZES for _ in range(per_size)]


def time_matrix(matrix: np.ndarray) -> dict:
    ours = solve_matrix(matrix)[0]
    theirs = highs_row_player(matrix)[0]
    return {"shape": list(matrix.shape), "difference": abs(ours - theirs),
            # the C routine as the search calls it, without a Python call per solve
            "matgame_seconds": time_solve_batch(matrix[None], repeats=C_REPEATS),
            "highs_seconds": per_call_seconds(lambda: highs_row_player(matrix), batch_seconds=0.0)}


def matrix_group(name: str, matrices: List[np.ndarray]) -> dict:
    timings = [time_matrix(m) for m in matrices]
    ours = [t["matgame_seconds"] for t in timings]
    theirs = [t["highs_seconds"] for t in timings]
    return {"name": name, "count": len(timings),
            "matgame_median_us": 1e6 * median(ours), "highs_median_us": 1e6 * median(theirs),
            "ratio": sum(theirs) / sum(ours),
            "max_difference": max(t["difference"] for t in timings),
            "agree": all(t["difference"] <= AGREEMENT for t in timings)}


def call_floor_us() -> float:
    """Microseconds of a `solve_matrix` call on a 1x1 game: the Python wrapper's own cost
    (argument checks, result arrays), which the search, calling the C routine, never pays."""
    one = np.zeros((1, 1))
    return 1e6 * per_call_seconds(lambda: solve_matrix(one))


def matrix_groups(real: List[np.ndarray], per_size: int) -> List[dict]:
    randoms = random_matrices(per_size)
    by_size = lambda lo, hi: [m for m in randoms if lo <= m.shape[0] <= hi]   # noqa: E731
    named = [("random 2x2..4x4", by_size(2, 4)), ("random 5x5..7x7", by_size(5, 7)),
             ("random 8x8..10x10", by_size(8, 10))]
    if real:
        named.append(("root matrices, " + "/".join(sorted({str(m.shape[0]) for m in real}))
                      + " cards", real))
    named.append(("all", randoms + real))
    # --matrices 0 and no root matrices: no group (an empty one has no median)
    return [matrix_group(name, matrices) for name, matrices in named if matrices]


def matrix_row(g: dict) -> list:
    return [g["name"], g["count"], f"{g['matgame_median_us']:,.1f}",
            f"{g['highs_median_us']:,.0f}", f"{g['ratio']:,.0f}x",
            f"{g['max_difference']:.1e}", "yes" if g["agree"] else "NO"]


MATRIX_HEADERS = ["matrices", "count", "matgame (C) median µs", "HiGHS median µs",
                  "ratio (total time)", "max value difference", f"agree to {AGREEMENT:g}"]


# search expansions against proof obligations -------------------------------------------------
def measure_proofs(args, runs: Dict[int, List[Run]]) -> Dict[int, dict]:
    """For each solved position of the proof sizes: the proof's counts per level beside the
    search's expansions and exact nodes."""
    out = {}
    for size in [s for s in args.proof_sizes if s in runs]:
        rows = []
        for k, run in enumerate(runs[size]):
            if not run.solved:
                continue
            proof = position_proof(Position.from_text(run.position))
            rows.append({"position": run.position, "proof": proof.to_dict(),
                         "expanded": run.stats["expanded_by_cards"][:size + 1],
                         "exact": run.stats["exact_by_cards"][:size + 1]})
            print(f"  proof {size} cards #{k}: {sum(proof.states.values()):,} obligations,"
                  f" {proof.seconds:.1f} s", file=sys.stderr, flush=True)
        out[size] = {"levels": proof_levels(size, rows), "runs": rows}
    return out


def proof_levels(size: int, rows: List[dict]) -> List[dict]:
    """Per level (cards per hand, root first, then all levels together): totals over the
    positions and the median of the per-position ratios."""
    def at(row: dict, level) -> Tuple[int, int, int, int, int]:
        levels = range(3, size + 1) if level == "all" else [level]
        p = row["proof"]
        return (sum(row["expanded"][k] for k in levels),
                sum(p["states"].get(str(k), 0) for k in levels),
                sum(row["exact"][k] for k in levels),
                sum(p["two_sided"].get(str(k), 0) for k in levels),
                sum(p["exact"].get(str(k), 0) for k in levels))
    out = []
    for level in list(range(size, 2, -1)) + ["all"]:
        counts = [at(r, level) for r in rows]
        total = [sum(c[n] for c in counts) for n in range(5)]
        out.append({"cards": level, "positions": len(rows),
                    "expanded": total[0], "obligations": total[1],
                    "median_ratio": median([c[0] / c[1] for c in counts if c[1]]),
                    "total_ratio": ratio(total[0], total[1]),
                    "search_exact": total[2], "proof_two_sided": total[3],
                    "proof_exact": total[4]})
    return out


def proof_row(size: int, d: dict) -> list:
    fmt = lambda x: "-" if x is None else f"{x:.2f}"            # noqa: E731
    level = "3..{}".format(size) if d["cards"] == "all" else d["cards"]
    return [size, level, f"{d['expanded']:,}", f"{d['obligations']:,}", fmt(d["median_ratio"]),
            fmt(d["total_ratio"]), f"{d['search_exact']:,}", f"{d['proof_two_sided']:,}",
            f"{d['proof_exact']:,}"]


PROOF_HEADERS = ["positions of", "cards per hand", "search expansions", "proof obligations",
                 "ratio (median)", "ratio (total)", "search exact nodes",
                 "proof: both bounds", "proof: both at the value"]


# regression signature ------------------------------------------------------------------------
def signature() -> dict:
    """Nodes searched over a fixed position set: a fingerprint of the search, like
    Stockfish's `bench`. Independent of the options."""
    runs = [solve_one(p, 0.0) for size in SIGNATURE_SIZES
            for p in positions(SIGNATURE_SEED, size, SIGNATURE_COUNT)]
    seconds = sum(r.seconds for r in runs)
    nodes = sum(r.all_nodes for r in runs)
    return {"seed": SIGNATURE_SEED, "sizes": list(SIGNATURE_SIZES), "count": SIGNATURE_COUNT,
            "nodes": nodes, "seconds": seconds, "nodes_per_second": nodes / seconds}


def build_id() -> dict:
    """Which compiled search was measured: node counts are only comparable within a build."""
    with open(solver._search.__file__, "rb") as library:
        digest = hashlib.sha256(library.read()).hexdigest()
    return {"search_library": os.path.basename(solver._search.__file__), "sha256": digest}


# the run -------------------------------------------------------------------------------------
def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=natural_int, default=0, help="seed of the positions (default 0)")
    parser.add_argument("--sizes", type=positive_int, nargs="+", default=None,
                        help="cards per hand to measure, 10 for full deals (default 6 7 8 10)")
    parser.add_argument("--count", type=positive_int, default=None,
                        help="mid-round positions per size (default 10)")
    parser.add_argument("--deals", type=natural_int, default=None,
                        help="full deals (default 10; 0: none)")
    parser.add_argument("--time-limit", type=positive_float, default=600.0,
                        help="seconds per position and per ablated solve (default 600)")
    parser.add_argument("--matrices", type=positive_int, default=None,
                        help="random matrices per size 2..10 (default 50)")
    parser.add_argument("--json", default=None,
                        help=f"output (default {DEFAULT_JSON}; {QUICK_JSON} with --quick)")
    parser.add_argument("--from-json", metavar="PATH",
                        help="print the tables of a saved run instead of measuring")
    parser.add_argument("--two-threads", action="store_true",
                        help="solve each position on two threads too: speedups, same run")
    parser.add_argument("--threads", type=positive_int, nargs="+", default=None,
                        help="thread counts to compare, alternated on the 7+ card positions"
                             " (e.g. 1 2)")
    parser.add_argument("--repeats", type=positive_int, default=3,
                        help="rounds of the --threads comparison (default 3)")
    parser.add_argument("--no-ablations", action="store_true",
                        help="skip the ablations (minutes at 7 cards)")
    parser.add_argument("--proof", action="store_true",
                        help="search expansions against proof obligations per level on the "
                             "6-, 7- and 8-card positions (minutes at 8 cards)")
    parser.add_argument("--quick", action="store_true",
                        help="3 positions of 6 and 7 cards, no deals, ablations and proof "
                             "obligations on 6 cards, 10 matrices per size: about half a minute")
    args = parser.parse_args(argv)
    quick = {"sizes": [6, 7], "count": 3, "deals": 0, "matrices": 10, "json": QUICK_JSON}
    full = {"sizes": [6, 7, 8, DEAL], "count": 10, "deals": 10, "matrices": 50,
            "json": DEFAULT_JSON}
    for key, value in (quick if args.quick else full).items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    args.ablation_sizes = [] if args.no_ablations else [6] if args.quick else [
        s for s in ABLATION_SIZES if s in args.sizes]
    args.proof_sizes = [6] if args.quick else (
        [s for s in PROOF_SIZES if s in args.sizes] if args.proof else [])
    return args


def measure_sizes(args, real_matrices: list) -> Dict[int, List[Run]]:
    runs = {}
    for size in args.sizes:
        count = args.deals if size == DEAL else args.count
        if count <= 0:
            continue
        keep = real_matrices if size in ABLATION_SIZES else None
        runs[size] = []
        for k, position in enumerate(positions(args.seed, size, count)):
            run = solve_one(position, args.time_limit, keep_matrix=keep)
            if args.two_threads and run.solved:
                two = solve_one(position, args.time_limit, threads=2)
                run.seconds_two_threads = two.seconds if two.solved else None
            runs[size].append(run)
            print(f"  {size} cards #{k}: {describe(run, args.time_limit)}, {run.seconds:.3f} s,"
                  f" {run.all_nodes:,} nodes", file=sys.stderr, flush=True)
    return runs


THREAD_SIZES = 7                          # smaller roots take no helper threads (HELP_FROM)


def measure_threads(args, runs: Dict[int, List[Run]]) -> Dict[int, dict]:
    """--threads: each solved position of 7+ cards on each thread count, alternated."""
    out = {}
    counts = args.threads
    for size in [s for s in runs if s >= THREAD_SIZES]:
        rows = []
        for k, run in enumerate(runs[size]):
            if not run.solved:
                continue
            position = Position.from_text(run.position)
            seconds = {t: [] for t in counts}
            nodes = {t: [] for t in counts}
            waits = {t: [] for t in counts}
            idles = {t: [] for t in counts}
            values = set()
            for _ in range(args.repeats):
                for t in counts:
                    one = solve_one(position, args.time_limit, threads=t)
                    seconds[t].append(one.seconds if one.solved else float("inf"))
                    nodes[t].append(one.stats["nodes"])
                    waits[t].append(one.stats["wait_us"] / 1e6 / one.seconds)
                    idles[t].append(one.stats.get("helper_wait_us", 0) / 1e6
                                    / (one.seconds * max(t - 1, 1)))
                    if one.solved:
                        values.add(round(one.value, 9))
            medians = {str(t): median(seconds[t]) for t in counts}
            rows.append({"position": run.position, "seconds": {str(t): v for t, v in seconds.items()},
                         "median_seconds": medians, "same_value": len(values) == 1,
                         "main_nodes": {str(t): median(nodes[t]) for t in counts},
                         "main_waits": {str(t): median(waits[t]) for t in counts[1:]},
                         "helpers_idle": {str(t): median(idles[t]) for t in counts[1:]},
                         "speedup": {str(t): medians[str(counts[0])] / medians[str(t)]
                                     for t in counts[1:]}})
            print(f"  threads {size} cards #{k}: " + ", ".join(
                f"{t}: {medians[str(t)]:.3f} s" for t in counts), file=sys.stderr, flush=True)
        if rows:
            out[size] = {"runs": rows, "counts": counts, "summary": {
                "median_seconds": {str(t): median([r["median_seconds"][str(t)] for r in rows])
                                   for t in counts},
                "median_speedup": {str(t): median([r["speedup"][str(t)] for r in rows])
                                   for t in counts[1:]},
                "total_speedup": {str(t): ratio(sum(r["median_seconds"][str(counts[0])]
                                                    for r in rows),
                                                sum(r["median_seconds"][str(t)] for r in rows))
                                  for t in counts[1:]},
                "median_node_ratio": {str(t): median([r["main_nodes"][str(counts[0])]
                                                      / r["main_nodes"][str(t)] for r in rows])
                                      for t in counts[1:]},
                "same_values": all(r["same_value"] for r in rows)}}
    return out


def thread_rows(size: int, d: dict) -> List[list]:
    counts = d["counts"]
    first = str(counts[0])
    rows = [[size, k] + [f"{r['median_seconds'][str(t)]:.3f}" for t in counts]
            + [f"{r['speedup'][str(t)]:.2f}x" for t in counts[1:]]
            + [f"{r['main_nodes'][first] / r['main_nodes'][str(t)]:.2f}x" for t in counts[1:]]
            + [f"{r[key][str(t)]:.0%}" if key in r else "" for t in counts[1:]
               for key in ("main_waits", "helpers_idle")]
            + ["yes" if r["same_value"] else "NO"] for k, r in enumerate(d["runs"])]
    s = d["summary"]
    rows.append([size, "median"] + [f"{s['median_seconds'][str(t)]:.3f}" for t in counts]
                + [f"{s['median_speedup'][str(t)]:.2f}x" for t in counts[1:]]
                + [f"{s['median_node_ratio'][str(t)]:.2f}x" for t in counts[1:]]
                + [""] * (2 * len(counts) - 2)
                + ["yes" if s["same_values"] else "NO"])
    rows.append([size, "total"] + [""] * len(counts)
                + [f"{s['total_speedup'][str(t)]:.2f}x" for t in counts[1:]]
                + [""] * (3 * len(counts) - 3) + [""])
    return rows


def measure_ablations(args, runs: Dict[int, List[Run]]) -> Dict[int, Dict[str, dict]]:
    out = {}
    for size in [s for s in args.ablation_sizes if s in runs]:
        out[size] = {}
        for name, switches in ABLATIONS.items():
            ablated = [solve_one(Position.from_text(r.position), args.time_limit, switches)
                       for r in runs[size]]
            out[size][name] = {"comparison": compare(runs[size], ablated),
                               "runs": [asdict(r) for r in ablated]}
            print(f"  ablation {size} cards, {name}: done", file=sys.stderr, flush=True)
    return out


def report(results: dict) -> None:
    args = argparse.Namespace(**results["options"])
    print(f"\n{machine_line(results['machine'])}")
    cores = "one core"
    if getattr(args, "two_threads", False):         # saved runs before the option lack it
        cores += " (two for the two-thread table)"
    print(f"search build sha256 {results['build']['sha256'][:12]}; seed {args.seed},"
          f" per-position limit {args.time_limit:g} s, {cores}; a solve is the value and"
          f" both equilibrium strategies (not the values of the other cards)\n")
    print("### Solve times and search statistics\n")
    rows = [size_row(int(size), d["summary"], args.time_limit)
            for size, d in results["sizes"].items()]
    print(markdown_table(SIZE_HEADERS, rows))
    if str(DEAL) in results["sizes"]:
        print("\nFull deals:\n")
        print(markdown_table(["deal", "position", "result", "seconds", "nodes + small nodes"], [
            [k, f"`{r['position']}`", describe(Run(**r), args.time_limit), f"{r['seconds']:.1f}",
             f"{r['stats']['nodes'] + r['stats']['small_nodes']:,}"]
            for k, r in enumerate(results["sizes"][str(DEAL)]["runs"])]))
    two = [(size, d["summary"]) for size, d in results["sizes"].items()
           if "median_speedup_two_threads" in d["summary"]]
    if two:
        print("\n### Two threads (`--threads 2`), the same positions in the same run\n")
        print(markdown_table(TWO_THREAD_HEADERS, [
            [size, f"{s.get('median_seconds_one_thread', s['median_seconds']):.3f}",
             f"{s['median_seconds_two_threads']:.3f}",
             f"{s['median_speedup_two_threads']:.2f}x", f"{s['total_speedup_two_threads']:.2f}x"]
            for size, s in two]))
    if results["ablations"]:
        print("\n### Ablations (ratios: ablated search / full search, same run)\n")
        print(markdown_table(ABLATION_HEADERS, [
            ablation_row(int(size), name, d["comparison"])
            for size, by_name in results["ablations"].items() for name, d in by_name.items()]))
        target = results["targets"].get("backward_induction_ratio_7")
        if target is not None:
            print(f"\nTarget: >= {TARGETS['backward_induction_ratio_7']}x fewer nodes than plain"
                  f" backward induction (no pruning, no canonical keys) at 7 cards:"
                  f" measured {target:,.1f}x.")
    spans = results.get("spans")                    # saved runs before it lack it
    if spans:
        print("\n### Critical path (one thread): work, span and Brent's estimate of the speedup\n")
        print(markdown_table(SPAN_HEADERS, [row for size, d in spans.items()
                                            for row in span_rows(int(size), d)]))
        print("\nWork: matrix nodes; span: the nodes of the longest chain of dependent work if"
              " the groups shared ran at once (nodes of 5+ cards); Brent: work / (work / P +"
              " span). An estimate: real threads change the work (a test that beats stops"
              " the others; speculative work is wasted).")
        estimate = results.get("deal_estimate")
        if estimate:
            print("\nFull deals, extrapolated from the medians at 7 and 8 cards:\n")
            print(markdown_table(
                ["shared", "work / span growth per card", "work / span at 10 cards"]
                + [f"Brent, {p} threads" for p in BRENT_THREADS],
                [[e["variant"], f"{e['growth_per_card']:.2f}x", f"{e['parallelism']:.0f}"]
                 + [f"{e['brent'][str(p)]:.1f}x" for p in BRENT_THREADS] for e in estimate]))
    threads = results.get("threads")                # saved runs before it lack it
    if threads:
        counts = next(iter(threads.values()))["counts"]
        print(f"\n### Threads ({', '.join(map(str, counts))}), alternated"
              f" {args.repeats} times per position: median seconds\n")
        print(markdown_table(["cards", "position"] + [f"{t} thread{'s' * (t > 1)} s"
                                                      for t in counts]
                             + [f"speedup, {t} threads" for t in counts[1:]]
                             + [f"main-thread nodes, 1 / {t} threads" for t in counts[1:]]
                             + [h for t in counts[1:] for h in
                                (f"main thread waiting, {t} threads",
                                 f"helpers idle, {t} threads")]
                             + ["same value"],
                             [row for size, d in threads.items()
                              for row in thread_rows(int(size), d)]))
    proofs = results.get("proofs")                  # saved runs before the option lack it
    if proofs:
        print("\n### Search expansions against proof obligations, per level\n")
        print(markdown_table(PROOF_HEADERS, [proof_row(int(size), d) for size, by in proofs.items()
                                             for d in by["levels"]]))
        print("\nObligations: distinct canonical states a greedy proof of the root's value"
              " expands (benchmarks/proof.py); ratio: search expansions / obligations.")
    if results["matrix_games"]:                     # none with --matrices 0 and no roots
        print("\n### Node matrix games: the C solver (solve_game) vs SciPy HiGHS (one LP)\n")
        print(markdown_table(MATRIX_HEADERS, [matrix_row(g) for g in results["matrix_games"]]))
        print(f"\nTarget: >= {TARGETS['highs_ratio']}x faster than HiGHS:"
              f" measured {results['targets']['highs_ratio']:,.0f}x. Ours is the C routine the"
              f" search calls (timed in a nogil loop); HiGHS is timed as a Python call. Through"
              f" Python, solve_matrix costs {results['matgame_call_floor_us']:.1f} µs more"
              f" (its wrapper, measured on a 1x1 game).")
    sig = results["signature"]
    print(f"\n### Regression signature ({SIGNATURE_COUNT} positions each of "
          f"{'/'.join(map(str, SIGNATURE_SIZES))} cards, seed {SIGNATURE_SEED})\n")
    print(f"Total time (ms) : {1000 * sig['seconds']:.0f}")
    print(f"Nodes/second    : {sig['nodes_per_second']:,.0f}")
    print(f"Nodes searched: {sig['nodes']}")


def main(argv=None) -> None:
    args = parse_args(argv)
    if args.from_json:
        with open(args.from_json) as saved:
            report(json.load(saved))
        return
    real_matrices: list = []
    runs = measure_sizes(args, real_matrices)
    threads = measure_threads(args, runs) if args.threads else {}
    ablations = measure_ablations(args, runs)
    proofs = measure_proofs(args, runs)
    groups = matrix_groups(real_matrices, args.matrices)
    results = {
        "machine": machine_info(),
        "build": build_id(),
        "command": " ".join(["python", "-m", "benchmarks.bench_solver"] + sys.argv[1:]),
        "options": vars(args),
        "sizes": {str(size): {"summary": summarize(rs), "runs": [asdict(r) for r in rs]}
                  for size, rs in runs.items()},
        "ablations": {str(size): by_name for size, by_name in ablations.items()},
        "proofs": {str(size): d for size, d in proofs.items()},
        "threads": {str(size): d for size, d in threads.items()},
        "spans": {str(size): d for size, d in
                  ((size, span_summary(runs[size])) for size in SPAN_SIZES if size in runs)
                  if d is not None},
        "matrix_games": groups,
        "matgame_call_floor_us": call_floor_us(),
        "signature": signature(),
    }
    results["deal_estimate"] = deal_estimate(results["spans"])
    results["targets"] = {
        **({"highs_ratio": groups[-1]["ratio"]} if groups else {}),
        **({"backward_induction_ratio_7":
            ablations[7][BACKWARD_INDUCTION]["comparison"]["node_ratio"]} if 7 in ablations else {}),
    }
    write_json(args.json, results)
    report(results)
    print(f"(all numbers in {os.path.relpath(args.json)})", file=sys.stderr)


if __name__ == "__main__":
    main()
