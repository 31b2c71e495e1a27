"""How fast the network evaluates positions on one core, and how fast the bots that use it
decide.

    python -m benchmarks.bench_inference [--players 4] [--worlds 16,32,64] [--bots SPECS]
                                                                         (about 30 s)

The positions are the card decisions (more than one card in hand) of a few seeded rounds of
`net` bots. For batches of 1, 64 and 512 of them, positions per second: the whole evaluation
(the seat's view to arrays, the features, the network) and the network alone (features made
beforehand), and the network alone on numpy's matrix product in place of the package's
kernel (`PolicyNet.on_numpy`; the same where the processor has no AVX2 and FMA), with the
ratio of the two. Then decisions per second of `net` and of `nsearch` at each world count, on the
same decisions (in order: early turns, with more cards, cost more). Times are the process's
CPU time, which other work on the machine does not inflate; BLAS is held to one thread (set
before numpy is imported): with a core busy, its threads slow small batches many times over.
"""
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import argparse  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
from typing import Callable, List  # noqa: E402

from benchmarks._common import machine_line, markdown_table, positive_float  # noqa: E402
from solver.core.player import Player, PlayerView  # noqa: E402
from solver.core.rules import GameConfig  # noqa: E402
from solver.learn.features import encode, raw_views  # noqa: E402
from solver.learn.model import load_cached  # noqa: E402
from solver.play.bots import make_bot  # noqa: E402
from solver.play.runner import play_round  # noqa: E402

BATCHES = (1, 64, 512)


class Recorder(Player):
    """A bot that keeps the views of its card decisions."""

    def __init__(self, bot: Player, views: List[PlayerView]):
        self.bot, self.name, self.views = bot, bot.name, views

    def choose_card(self, view: PlayerView) -> int:
        if len(view.hand) > 1:
            self.views.append(view)
        return self.bot.choose_card(view)

    def choose_row(self, view: PlayerView, card: int) -> int:
        return self.bot.choose_row(view, card)


def decisions(players: int, count: int) -> List[PlayerView]:
    """At least `count` card decisions of seeded rounds of `net` bots."""
    views: List[PlayerView] = []
    config = GameConfig(players=players)
    index = 0
    while len(views) < count:
        bots = [Recorder(make_bot("net", seed=k), views) for k in range(players)]
        play_round(config, bots, random.Random(f"inference{index}"))
        index += 1
    return views


def cpu_per_call(call: Callable[[int], object], seconds: float) -> float:
    """CPU seconds per `call(i)`, i = 0, 1, ..., called for about `seconds` of CPU time."""
    done, start = 0, time.process_time()
    while time.process_time() - start < seconds or done == 0:
        call(done)
        done += 1
    return (time.process_time() - start) / done


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4, choices=range(2, 11),
                        metavar="2..10")
    parser.add_argument("--worlds", default="16,32,64", help="nsearch's world counts")
    parser.add_argument("--bots", default="",
                        help="more bot specs to time, comma-separated")
    parser.add_argument("--seconds", type=positive_float, default=3.0,
                        help="time per bot for the decision rates")
    args = parser.parse_args(argv)
    try:
        worlds = [int(w) for w in args.worlds.split(",")]
    except ValueError:
        parser.error(f"--worlds must be comma-separated integers, got {args.worlds!r}")
    net = load_cached()
    plain = net.on_numpy()
    views = decisions(args.players, max(BATCHES))
    rows = []
    for batch in BATCHES:
        part = views[:batch]
        encoded = encode(raw_views(part))
        whole = cpu_per_call(lambda _: net.policy(part), 1.0)
        alone = cpu_per_call(lambda _: net.forward(encoded), 1.0)
        numpy_alone = cpu_per_call(lambda _: plain.forward(encoded), 1.0)
        rows.append([batch, f"{batch / whole:,.0f}", f"{1000 * whole / batch:.3f}",
                     f"{batch / alone:,.0f}", f"{1000 * alone / batch:.3f}",
                     f"{batch / numpy_alone:,.0f}", f"{numpy_alone / alone:.2f}x"])
    print(machine_line())
    print(f"{args.players} players, {len(views)} card decisions of `net` rounds;"
          " CPU time of one thread")
    print()
    print(markdown_table(["batch", "positions/s (features + network)", "ms each",
                          "positions/s (network alone)", "ms each",
                          "positions/s (network alone, numpy's product)", "kernel's gain"],
                         rows))
    print()
    bots = [["net", None]] + [[f"nsearch:worlds={w}", None] for w in worlds]
    bots += [[spec, None] for spec in args.bots.split(",") if spec]
    for bot in bots:
        player = make_bot(bot[0], seed=0)
        each = cpu_per_call(lambda i: player.choose_card(views[i % len(views)]), args.seconds)
        bot[1:] = [f"{1 / each:,.1f}", f"{1000 * each:.1f}"]
    print(markdown_table(["bot", "decisions/s", "ms per decision"], bots))


if __name__ == "__main__":
    main()
