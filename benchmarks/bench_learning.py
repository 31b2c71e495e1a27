"""The learning curve: the raw policy's strength by training step, as paired rounds.

A training run (`nimmt train fit --out RUN`) keeps every epoch's weights as
`RUN/epoch_NNN.npz`. For each epoch asked, `net:weights=RUN/epoch_NNN.npz` plays the same
seeded deals against the same baseline (`bench_paired`'s pairing: the candidate in one seat,
the baseline in the others, against the baseline everywhere; the baseline's rounds are
played once and shared by every epoch), and the paired difference per round is printed with
its 95% interval. `--plot FILE.png` draws it (matplotlib, the `plots` extra).

    python -m benchmarks.bench_learning --run RUN [--epochs 1,2,5,10,20,30] [--players 4]
        [--base mcts:iterations=5000] [--rounds 200] [--jobs 2] [--plot curve.png]
        [--reuse-base ROUNDS.json]
                                                             (from the repository root)
"""
import argparse
import os
from typing import List, Optional

from benchmarks._common import machine_line, positive_int
from benchmarks.bench_paired import load_run, play_rounds, summary
from solver.learn.train import EPOCH_NAME
from solver.play.bots import parse_bot_names


def curve(run: str, epochs: List[int], players: int, base: str, rounds: int,
          jobs: int, known: Optional[List[int]] = None) -> List[dict]:
    """One summary line per epoch (its number in `epoch`). `known`: the baseline's bullheads
    in each round, from an earlier run (else played once here)."""
    lines = []
    for epoch in epochs:
        bot = f"net:weights={os.path.join(run, EPOCH_NAME.format(epoch))}"
        tasks = [(players, bot, base, i, None if known is None else known[i], 0)
                 for i in range(rounds)]
        done = play_rounds(tasks, jobs, {}, None, rounds)
        played = [done[i] for i in range(rounds)]
        known = [r.base for r in played]
        line = summary([(r.candidate, r.base) for r in played])
        line["epoch"] = epoch
        lines.append(line)
        print(f"epoch {epoch:>3}: {line['candidate']:.2f} against {line['base']:.2f},"
              f" difference {line['difference']:+.2f} ± {line['ci95']:.2f}"
              f" ({line['percent']:+.1f}%)", flush=True)
    return lines


def plot(lines: List[dict], base: str, players: int, path: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 3.6))
    x = [line["epoch"] for line in lines]
    y = [line["percent"] for line in lines]
    err = [100 * line["ci95"] / line["base"] for line in lines]
    ax.errorbar(x, y, yerr=err, marker="o", capsize=3)
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("training epoch")
    ax.set_ylabel(f"bullheads against {base} (%)")
    ax.set_title(f"net by epoch, {players} players, {lines[0]['rounds']} paired rounds")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", required=True, help="the training run's folder")
    parser.add_argument("--epochs", default="1,2,5,10,20,30")
    parser.add_argument("--players", type=int, default=4, choices=range(2, 11),
                        metavar="2..10")
    parser.add_argument("--base", default="mcts:iterations=5000")
    parser.add_argument("--rounds", type=positive_int, default=200)
    parser.add_argument("--jobs", type=positive_int, default=2)
    parser.add_argument("--plot", default=None, metavar="FILE.png")
    parser.add_argument("--reuse-base", default=None, metavar="FILE",
                        help="a bench_paired --rounds-json with the same --players and --base:"
                             " its baseline rounds are not played again")
    args = parser.parse_args(argv)
    try:
        epochs = [int(e) for e in args.epochs.split(",")]
        parse_bot_names(args.base)
    except ValueError as error:
        parser.error(str(error))
    missing = [e for e in epochs
               if not os.path.exists(os.path.join(args.run, EPOCH_NAME.format(e)))]
    if missing:
        parser.error(f"no weights for epochs {missing} in {args.run}")
    if args.rounds < 2 or args.jobs < 1:
        parser.error("--rounds must be at least 2 and --jobs at least 1")
    known = None
    if args.reuse_base:
        start, saved = load_run(parser, args.reuse_base)
        known = [b for _, b in saved]
        if start != 0 or len(known) < args.rounds:
            parser.error(f"--reuse-base holds deals {start}-{start + len(known) - 1},"
                         f" not all of 0-{args.rounds - 1}")
    print(machine_line())
    lines = curve(args.run, epochs, args.players, args.base, args.rounds, args.jobs, known)
    if args.plot:
        plot(lines, args.base, args.players, args.plot)
        print(f"plot written to {args.plot}")


if __name__ == "__main__":
    main()
