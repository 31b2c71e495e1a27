"""Paired rounds: how many fewer bullheads a bot takes than a baseline bot, deal by deal.

A tournament's per-round penalties vary so much (one round costs 0, the next 20) that two
bots' means need thousands of rounds to separate. Pairing removes most of that noise: each
seeded deal is played twice from the same start, once with the candidate in one seat and the
baseline bot in the others, once with the baseline bot in every seat; the candidate's
bullheads are compared with the baseline's in the same seat, round by round (the seat
rotates with the deal). Bots are seeded per deal and seat, so with budgets in iterations
the whole run is deterministic and two candidates can be compared round by round too
(`--rounds-json` keeps the per-round results, with the index of the run's first deal: a
file of deals 400-599 serves `--reuse-base` and `--compare` for any run inside them; a
bare list of pairs, as earlier runs wrote, holds deals from 0).

    python -m benchmarks.bench_paired --players 5 --bot mcts:iterations=20000 [--base sampler]
        [--rounds 1000] [--first 0] [--jobs 2] [--warmup 0] [--rounds-json FILE]
        [--reuse-base FILE] [--compare FILE] [--journal FILE]   (nimmt bench paired ...)
    python -m benchmarks.bench_paired --from-json FILE [--compare FILE]
                                      (the summary of a saved run, and two runs round by round)

`--journal FILE` keeps every paired round as it ends: a run stopped by Ctrl-C or a kill is
resumed by the same command, which plays only the rounds the file lacks (a worker process
that dies is replaced and its round played again).

Prints the candidate's and the baseline's mean bullheads per round in the candidate's seat
and the paired difference with its 95% interval (also as a percentage of the baseline), and
the candidate's mean time per card decision (its own rounds, decisions with one card left
included), in wall-clock time and in CPU time (the process's; set OPENBLAS_NUM_THREADS=1 for
a bot that uses the network, else BLAS threads add to it), and the same for its row choices
(a too-low card's row), timed apart. Progress (rounds done, the
difference so far) goes to standard error, twenty times a run.
"""
import argparse
import json
import random
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from benchmarks._common import check_json_out, machine_line, natural_int, positive_int, write_json
from solver.core.player import Player, PlayerView
from solver.core.rules import GameConfig
from solver.play.bots import make_bot, parse_bot_names
from solver.core.deal import deal
from solver.errors import NimmtError
from solver.linefile import LineFile, json_line
from solver.play.runner import close_all, play_round
from solver.stats import mean_ci95
from solver.workers import Unwatched, run_workers


@dataclass
class Clock:
    """The time of one kind of decision: wall-clock and CPU seconds (the CPU time is what
    a busy machine does not inflate), and how many."""
    seconds: float = 0.0
    cpu: float = 0.0
    count: int = 0

    def add(self, other: "Clock") -> None:
        self.seconds += other.seconds
        self.cpu += other.cpu
        self.count += other.count

    def timed(self, decide, *args):
        start, cpu = time.perf_counter(), time.process_time()
        answer = decide(*args)
        self.seconds += time.perf_counter() - start
        self.cpu += time.process_time() - cpu
        self.count += 1
        return answer

    def per_decision(self) -> str:
        n = max(1, self.count)
        return f"{1000 * self.seconds / n:.2f} ms ({1000 * self.cpu / n:.2f} ms of CPU)"


class Timed(Player):
    """A bot whose card decisions and row choices are timed, apart."""

    def __init__(self, bot: Player):
        self.bot, self.name = bot, bot.name
        self.cards, self.rows = Clock(), Clock()

    def choose_card(self, view: PlayerView) -> int:
        return self.cards.timed(self.bot.choose_card, view)

    def choose_row(self, view: PlayerView, card: int) -> int:
        return self.rows.timed(self.bot.choose_row, view, card)

    def round_over(self, record, penalties) -> None:
        self.bot.round_over(record, penalties)

    def close(self) -> None:
        self.bot.close()


@dataclass
class PairedRound:
    candidate: int      # the seat's bullheads with the candidate in it
    base: int           # ... with the baseline in it
    cards: Clock        # the candidate's card decisions
    rows: Clock         # ... and row choices


def paired_round(task: Tuple[int, str, str, int, Optional[int], int]) -> PairedRound:
    """Deal `index` played with `bot` in one seat and `base` elsewhere, then with `base`
    everywhere (unless `known`, the seat's bullheads in that round from an earlier run, is
    given): the seat's bullheads in each and the candidate's times. With `warmup` = K, each
    table first plays K rounds of other deals, unscored, as earlier rounds of the same game
    (the totals carried on): what a bot that learns its table knows by a later round."""
    players, bot, base, index, known, warmup = task
    config = GameConfig(players=players)
    start = deal(config, random.Random(f"deal{index}"))
    seat = index % players
    taken = []
    timed = None
    for candidate in (bot, base) if known is None else (bot,):
        bots = [make_bot(candidate if k == seat else base, seed=f"{index}/{k}")
                for k in range(players)]
        if timed is None:
            bots[seat] = timed = Timed(bots[seat])
        scores = [0] * players
        try:
            for j in range(warmup):
                earlier = play_round(config, bots, random.Random(f"warmup{index}/{j}"),
                                     scores=scores)
                scores = [a + b for a, b in zip(scores, earlier.penalties)]
            result = play_round(config, bots, random.Random(index), start=start,
                                scores=scores)
        finally:
            close_all(bots)
        taken.append(result.penalties[seat])
    if known is not None:
        taken.append(known)
    return PairedRound(taken[0], taken[1], timed.cards, timed.rows)


def play_rounds(tasks, jobs: int, done: Dict[int, PairedRound], journal, total: int
                ) -> Dict[int, PairedRound]:
    """The paired rounds of `tasks` in `jobs` worker processes (a worker that dies is
    replaced and its round played again), with the rounds `done` before: {deal: round}.
    Each is written to `journal` as it ends; progress twenty times a run."""
    rounds = dict(done)
    every = max(1, total // 20)

    def finished(task, result: PairedRound, worker: int) -> None:
        rounds[task[3]] = result
        if journal is not None:
            journal.write(task[3], result)
        if len(rounds) % every == 0 and len(rounds) < total:
            so_far = statistics.mean(t.candidate - t.base for t in rounds.values())
            print(f"{len(rounds)}/{total} rounds, difference so far {so_far:+.2f}",
                  file=sys.stderr, flush=True)

    pending = iter(tasks)

    def died(task, code, worker, deaths) -> bool:
        if deaths < 2:
            return True                     # once more, on a fresh worker
        raise SystemExit(f"bench_paired: two worker processes ended on deal {task[3]}"
                         f" (the last with exit status {code}: out of memory?)")

    if tasks:
        run_workers(lambda: next(pending, None), min(jobs, len(tasks)),
                    Unwatched(paired_round), "nimmt-paired", finished, died)
    return rounds


class Journal(LineFile):
    """`--journal FILE`: the run described on its first line, then one line a paired round
    as it ends, so that a stopped run resumes (the same command) where it stopped."""

    def __init__(self, path: str):
        super().__init__(path, "bench_paired")

    def resume(self, parser, header: dict) -> Dict[int, PairedRound]:
        try:
            lines = self.run_lines({"paired": header})
        except NimmtError as exc:
            parser.error(str(exc))
        if not lines:
            return {}
        first = json_line(lines[0], True)
        if not isinstance(first, dict) or first.get("paired") != header:
            parser.error(f"{self.name} is not the journal of this run (its first line:"
                         f" {lines[0][:200].decode('utf-8', 'replace')})")
        rounds = {}
        for number, raw in enumerate(lines[1:], 2):
            record = json_line(raw, False)
            try:
                rounds[record["deal"]] = PairedRound(
                    int(record["candidate"]), int(record["base"]),
                    Clock(*record["cards"]), Clock(*record["rows"]))
            except (TypeError, KeyError, ValueError):
                parser.error(f"{self.name}: its line {number} is not a paired round")
        self.cut_torn_line()
        return rounds

    def write(self, deal_index: int, r: PairedRound) -> None:
        self.append({"deal": deal_index, "candidate": r.candidate, "base": r.base,
                     "cards": [r.cards.seconds, r.cards.cpu, r.cards.count],
                     "rows": [r.rows.seconds, r.rows.cpu, r.rows.count]})


def summary(results: List[Tuple[int, int]]) -> dict:
    candidate = [c for c, _ in results]
    base = [b for _, b in results]
    mean, low, _ = mean_ci95([c - b for c, b in results])
    base_mean = statistics.mean(base)
    return {"rounds": len(results), "candidate": statistics.mean(candidate),
            "base": base_mean, "difference": mean, "ci95": mean - low,
            "percent": 100 * mean / base_mean}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=5, choices=range(2, 11),
                        metavar="2..10")
    parser.add_argument("--bot", help="the candidate, a bot spec")
    parser.add_argument("--base", default="sampler", help="the baseline bot (default sampler)")
    parser.add_argument("--rounds", type=positive_int, default=1000)
    parser.add_argument("--first", type=natural_int, default=0,
                        help="the index of the first deal (to extend an earlier run: the"
                             " files of --reuse-base and --compare are matched deal by deal)")
    parser.add_argument("--jobs", type=positive_int, default=2, help="worker processes")
    parser.add_argument("--warmup", type=natural_int, default=0, metavar="K",
                        help="unscored rounds each table plays before its deal, as earlier"
                             " rounds of its game (runs reused or compared: the same K)")
    parser.add_argument("--rounds-json", default=None,
                        help="write the per-round results (with the index of the first deal)")
    parser.add_argument("--journal", default=None, metavar="FILE",
                        help="keep every paired round in FILE as it ends: the same command"
                             " run again (after Ctrl-C, a kill) plays only the rounds FILE"
                             " lacks")
    parser.add_argument("--reuse-base", default=None, metavar="FILE", nargs="+",
                        help="the --rounds-json of an earlier run with the same --players and"
                             " --base (or several, of other deals): its baseline bullheads are"
                             " taken instead of replaying the baseline rounds (bots in"
                             " iterations are deterministic)")
    parser.add_argument("--compare", default=None, metavar="FILE", nargs="+",
                        help="the --rounds-json of another candidate on the same deals (or"
                             " several): print this candidate's bullheads less that one's,"
                             " round by round")
    parser.add_argument("--from-json", default=None, metavar="FILE", nargs="+",
                        help="play nothing: the summary of saved --rounds-json files, their"
                             " deals joined (with --compare, also against another"
                             " candidate's, round by round)")
    args = parser.parse_args(argv)
    if args.rounds_json:
        check_json_out(args.rounds_json)          # before the rounds, not after
    if args.from_json:
        saved = load_runs(parser, args.from_json)
        results = [saved[k] for k in sorted(saved)]
        s = summary(results)
        print(f"{' '.join(args.from_json)}, {s['rounds']} paired rounds: {s['candidate']:.2f}"
              f" bullheads per round against {s['base']:.2f}; difference"
              f" {s['difference']:+.2f} ± {s['ci95']:.2f} ({s['percent']:+.1f}%)")
        compare(parser, saved, args.compare)
        return
    if not args.bot:
        parser.error("--bot is required (or --from-json)")
    try:
        parse_bot_names(f"{args.bot},{args.base}")      # refuse a bad spec before playing
    except ValueError as error:
        parser.error(str(error))
    if args.rounds < 2 or args.jobs < 1 or args.first < 0 or args.warmup < 0:
        parser.error("--rounds must be at least 2, --jobs at least 1, --first and --warmup"
                     " at least 0")
    first, last = args.first, args.first + args.rounds
    known: List[Optional[int]] = [None] * args.rounds
    if args.reuse_base:
        earlier = load_runs(parser, args.reuse_base)
        missing = [k for k in range(first, last) if k not in earlier]
        if missing:
            parser.error(f"--reuse-base holds deals {deal_ranges(earlier)}, not all of"
                         f" {first}-{last - 1} (deal {missing[0]} is missing)")
        known = [earlier[k][1] for k in range(first, last)]
    tasks = [(args.players, args.bot, args.base, first + i, known[i], args.warmup)
             for i in range(args.rounds)]
    journal = Journal(args.journal) if args.journal else None
    done: Dict[int, PairedRound] = {}
    if journal is not None:
        journal.lock()
        done = journal.resume(parser, {"players": args.players, "bot": args.bot,
                                       "base": args.base, "warmup": args.warmup})
        done = {k: r for k, r in done.items() if first <= k < last}
        if done:
            print(f"resuming: {len(done)} of {args.rounds} rounds already in {args.journal}",
                  file=sys.stderr, flush=True)
    try:
        timed = play_rounds([t for t in tasks if t[3] not in done], args.jobs, done,
                            journal, args.rounds)
    finally:
        if journal is not None:
            journal.unlock()
    timed = [timed[k] for k in range(first, last)]
    results = [(t.candidate, t.base) for t in timed]
    cards, rows = Clock(), Clock()
    for t in timed:
        cards.add(t.cards)
        rows.add(t.rows)
    if args.rounds_json:
        write_json(args.rounds_json, {"first": first, "rounds": results}, indent=None)
    s = summary(results)
    print(machine_line())
    print(f"{args.bot} against {args.base}, {args.players} players, {s['rounds']} paired rounds:"
          f" {s['candidate']:.2f} bullheads per round against {s['base']:.2f};"
          f" difference {s['difference']:+.2f} ± {s['ci95']:.2f} ({s['percent']:+.1f}%);"
          f" {cards.per_decision()} per card decision; {rows.count} row choices,"
          f" {rows.per_decision()} each")
    compare(parser, dict(enumerate(results, first)), args.compare)


def load_run(parser, path: str) -> Tuple[int, list]:
    """A --rounds-json file: the index of its first deal and [candidate, baseline]
    bullheads per round (a bare list of pairs: from deal 0)."""
    try:
        with open(path) as inp:
            saved = json.load(inp)
        first, rounds = (0, saved) if isinstance(saved, list) else (saved["first"],
                                                                    saved["rounds"])
        if not isinstance(first, int) or first < 0:
            raise ValueError(f"a first deal of {first!r}")
        if not rounds or any(len(r) != 2 for r in rounds):
            raise ValueError("not a list of [candidate, baseline] pairs")
    except (OSError, ValueError, TypeError, KeyError) as error:
        parser.error(f"cannot read {path}: {error}")
    return first, rounds


def load_runs(parser, paths: Sequence[str]) -> Dict[int, Tuple]:
    """Several --rounds-json files joined: {deal index: (candidate, baseline)}; a deal in
    two of them is a usage error."""
    joined: Dict[int, Tuple] = {}
    for path in paths:
        start, rounds = load_run(parser, path)
        for k, r in enumerate(rounds, start):
            if k in joined:
                parser.error(f"deal {k} is in two of the files ({path} and another)")
            joined[k] = tuple(r)
    return joined


def deal_ranges(runs: Dict[int, Tuple]) -> str:
    """The deals of joined runs as ranges: '0-199, 400-599'."""
    keys, spans = sorted(runs), []
    for k in keys:
        if spans and spans[-1][1] == k - 1:
            spans[-1][1] = k
        else:
            spans.append([k, k])
    return ", ".join(f"{a}-{b}" for a, b in spans)


def compare(parser, mine: Dict[int, Tuple], paths: Optional[Sequence[str]]) -> None:
    """This run's candidate ({deal: (candidate, baseline)}) less the candidate of the runs
    saved at `paths`, round by round on the deals both played."""
    if not paths:
        return
    saved = load_runs(parser, paths)
    pairs = [(mine[k], saved[k]) for k in sorted(mine) if k in saved]
    if len(pairs) < 2:
        parser.error(f"{' '.join(paths)} share fewer than 2 deals with this run")
    mean, low, _ = mean_ci95([c - o for (c, _), (o, _) in pairs])
    print(f"against the candidate of {' '.join(paths)}, round by round:"
          f" {mean:+.2f} ± {mean - low:.2f} ({len(pairs)} rounds)")


if __name__ == "__main__":
    main()
