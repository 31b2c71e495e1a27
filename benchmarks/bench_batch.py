"""Batch solving with 1 and 2 local workers and on a 2-worker Dask LocalCluster, in one run.

The same positions (`nimmt deal --count K --seed S --cards C`: 40 of 8 cards by default; with
--full, fresh deals of 10 cards, 4 by default: hours) are solved three times, each into a
results file of its own, exactly as `nimmt batch solve` does:
- `local 1`: `runner.run_batch` with 1 worker process;
- `local N`: the same with N worker processes (--workers, default 2);
- `dask N`: `cluster.run_on_cluster` on a `distributed.LocalCluster` of N worker processes
  with one thread each, started (and every worker's import of the solver warmed) before the
  clock starts: the start-up is reported on its own.

Columns, per run:
- wall s: from the first position handed out to the last result line written;
- positions/s: positions over wall seconds;
- speed-up: `local 1`'s wall time over this run's (target: `local 2` at least 1.8x on a
  2-core machine);
- solve s: the sum of the solve seconds the result lines report (each worker's own clock);
- overhead per task (ms): (wall - solve s / workers) / positions, the time per position the
  batch spends beyond the solves if they were spread perfectly over its workers: the pipes or
  the scheduler, the results file, and the idle tail of the last positions;
- overhead share: overhead per task x positions / wall.

Dask's own overhead is the cluster's overhead per task minus that of the local run with as
many workers (the same tail, the same results file): the scheduler's cost per task, and its
share of the cluster run's wall time (target: under 5% on 8-card positions). Every run must
give the same values; the results are checked. Writes JSON to benchmarks/results/.

    python -m benchmarks.bench_batch [--count 40] [--cards 8] [--seed 1] [--workers 2]
        [--full] [--quick] [--json FILE]        (from the repository root)

--quick (4 positions of 6 cards, to check that it runs) writes elsewhere, never over the
numbers of a full run.
"""
import argparse
import json
import os
import sys
import tempfile
import time
from typing import Any, Dict, List

from benchmarks._common import (check_json_out, machine_info, machine_line, markdown_table,
                                natural_int, positive_int, write_json)
from solver.batch.deals import FULL_HAND, deal_positions
from solver.batch.memory import available_mb, plan_tables
from solver.batch.results import ResultsFile
from solver.batch.runner import BatchOptions, read_tasks, run_batch
from solver.limits import Limit

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_JSON = os.path.join(HERE, "results", "bench_batch.json")
QUICK_JSON = os.path.join(HERE, "results", "bench_batch_quick.json")
SPEEDUP_TARGET = 1.8
DASK_SHARE_TARGET = 0.05


def read_lines(path: str) -> List[Dict[str, Any]]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def summarize(name: str, workers: int, wall: float, records: List[Dict[str, Any]]
              ) -> Dict[str, Any]:
    n = len(records)
    solve = sum(r["seconds"] for r in records)
    overhead = (wall - solve / workers) / n
    return {"run": name, "workers": workers, "positions": n, "wall_seconds": wall,
            "positions_per_second": n / wall, "solve_seconds": solve,
            "overhead_per_task": overhead, "overhead_share": overhead * n / wall,
            "statuses": sorted({r["status"] for r in records}),
            "values": {r["line"]: r["value"] for r in records}}


def run_local(tasks, options: BatchOptions, workers: int, folder: str) -> Dict[str, Any]:
    path = os.path.join(folder, f"local{workers}.jsonl")
    start = time.perf_counter()
    run_batch(tasks, ResultsFile(path), options, workers)
    wall = time.perf_counter() - start
    return summarize(f"local {workers}", workers, wall, read_lines(path))


def _warm() -> bool:
    """On each Dask worker before the clock starts: the solver imported, as a forked local
    worker has it."""
    import solver.batch.runner  # noqa: F401
    return True


def run_dask(tasks, cards: int, workers: int, folder: str) -> Dict[str, Any]:
    import distributed
    from solver.batch.cluster import cluster_tables, run_on_cluster

    path = os.path.join(folder, f"dask{workers}.jsonl")
    start = time.perf_counter()
    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        client.run(_warm)
        startup = time.perf_counter() - start
        # the tables as `nimmt batch solve --scheduler` plans them
        options = BatchOptions(Limit(), False, cluster_tables(client, {cards}, None))
        start = time.perf_counter()
        run_on_cluster(client, tasks, ResultsFile(path), options)
        wall = time.perf_counter() - start
    result = summarize(f"dask {workers}", workers, wall, read_lines(path))
    result["startup_seconds"] = startup
    return result


def measure(args: argparse.Namespace) -> Dict[str, Any]:
    positions = list(deal_positions(args.count, args.seed, args.cards))
    tasks = read_tasks("".join(p.to_json() + "\n" for p in positions))
    memory = available_mb()
    runs = []
    with tempfile.TemporaryDirectory(prefix="bench_batch") as folder:
        for workers in (1, args.workers):
            # each run's tables as `nimmt batch solve --jobs N` plans them
            plan = plan_tables(workers, {args.cards}, None, memory)
            options = BatchOptions(Limit(), False, plan)
            runs.append(run_local(tasks, options, workers, folder))
            print(f"{runs[-1]['run']}: {runs[-1]['wall_seconds']:.1f} s", file=sys.stderr)
        runs.append(run_dask(tasks, args.cards, args.workers, folder))
        print(f"{runs[-1]['run']}: {runs[-1]['wall_seconds']:.1f} s", file=sys.stderr)
    base = runs[0]["wall_seconds"]
    for run in runs:
        run["speedup"] = base / run["wall_seconds"]
    local, dask = runs[1], runs[2]
    dask_per_task = dask["overhead_per_task"] - local["overhead_per_task"]
    same = all(run["values"] == runs[0]["values"] for run in runs)
    return {"machine": machine_info(), "options": vars(args), "runs": runs,
            "dask_overhead_per_task": dask_per_task,
            "dask_overhead_share": dask_per_task * dask["positions"] / dask["wall_seconds"],
            "same_values": same,
            "all_solved": all(run["statuses"] == ["solved"] for run in runs)}


def report(results: Dict[str, Any]) -> str:
    o = results["options"]
    rows = [[r["run"], f"{r['wall_seconds']:.2f}", f"{r['positions_per_second']:.2f}",
             f"{r['speedup']:.2f}x", f"{r['solve_seconds']:.2f}",
             f"{1000 * r['overhead_per_task']:.0f}", f"{100 * r['overhead_share']:.1f}%"]
            for r in results["runs"]]
    local, dask = results["runs"][1], results["runs"][2]
    speedup_met = local["speedup"] >= SPEEDUP_TARGET
    share_met = results["dask_overhead_share"] < DASK_SHARE_TARGET
    lines = [machine_line(results["machine"]),
             f"{o['count']} positions of {o['cards']} cards (seed {o['seed']}), every run"
             f" {'the same values' if results['same_values'] else 'NOT the same values'},"
             f" {'all solved' if results['all_solved'] else 'NOT all solved'}", "",
             markdown_table(["run", "wall s", "positions/s", "speed-up", "solve s",
                             "overhead per task (ms)", "overhead share"], rows), "",
             f"Dask cluster start-up (not in its wall time): {dask['startup_seconds']:.1f} s",
             f"Dask's own overhead: {1000 * results['dask_overhead_per_task']:.0f} ms per task,"
             f" {100 * results['dask_overhead_share']:.1f}% of its wall time (target under"
             f" {100 * DASK_SHARE_TARGET:.0f}% on 8-card positions:"
             f" {'met' if share_met else 'NOT met'})",
             f"{local['run']} against local 1: {local['speedup']:.2f}x (target at least"
             f" {SPEEDUP_TARGET}x: {'met' if speedup_met else 'NOT met'})"]
    return "\n".join(lines)


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=positive_int, default=None, help="positions (default 40; 4 with"
                        " --full)")
    parser.add_argument("--cards", type=positive_int, default=None, help="cards a hand (default 8)")
    parser.add_argument("--seed", type=natural_int, default=1)
    parser.add_argument("--workers", type=positive_int, default=2, help="workers of the second local"
                        " run and of the cluster")
    parser.add_argument("--full", action="store_true", help="fresh deals of 10 cards")
    parser.add_argument("--quick", action="store_true", help="4 positions of 6 cards")
    parser.add_argument("--json", default=None,
                        help=f"output (default {DEFAULT_JSON}; {QUICK_JSON} with --quick)")
    args = parser.parse_args(argv)
    if args.full and args.quick:
        parser.error("--full and --quick exclude each other")
    if args.full and args.cards not in (None, FULL_HAND):
        parser.error("--full deals 10 cards: no --cards")
    defaults = ((4, 6) if args.quick else (4, FULL_HAND) if args.full else (40, 8))
    args.count = args.count if args.count is not None else defaults[0]
    args.cards = args.cards if args.cards is not None else defaults[1]
    args.json = args.json or (QUICK_JSON if args.quick else DEFAULT_JSON)
    check_json_out(args.json)
    if args.workers < 2:
        parser.error("--workers must be at least 2")
    return args


def main(argv=None) -> None:
    args = parse_args(argv)
    results = measure(args)
    write_json(args.json, results)
    print(report(results))
    print(f"\nresults in {os.path.relpath(args.json)}")


if __name__ == "__main__":
    main()
