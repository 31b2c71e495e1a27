"""How well the reviewers of hidden hands estimate what each card costs, against rollouts of
the true deal by the table's own bots.

    python -m benchmarks.bench_review [--table net] [--players 4] [--rounds 40] [--first 0]
        [--rollouts 1] [--reviewers belief:worlds=64:belief=384,mcts] [--iterations 100000]
                                                          (about 30 s a round of 4 `net`s)

A table of `--table` bots plays seeded rounds (deals `--first` on). At every card decision
with 2+ cards, each reviewer estimates each card of the seat's hand (its expected bullheads
to the end of the round) as `nimmt review` does: a network search spec from the seat's view
of the round (`learn.search.card_totals`, the mean over its worlds), or `mcts`, the search
player (`mcts.analyse`, `--iterations`), from the position with the other hands hidden. The
truth: each card of the hand played instead, the round finished by the table's bots from the
true deal (the others' cards of that turn as they played them when the bots are
deterministic, else drawn anew; `--rollouts` runs, new seeds each, the same for every card),
the seat's bullheads from that turn on. The true deal is one draw of what the seat could not
see, so a single decision's truth is noisy, and only the means over many decisions say
something. For each reviewer:

- `best - played`: the true cost of the reviewer's best card minus that of the card the
  table's bot played (negative: its advice would have saved bullheads), with a 95% interval;
- `est loss`, `plain est loss`, `true loss`: the mean loss `nimmt review` gives the card
  played (a network search's: each half of the worlds scoring the other half's best card,
  `review.split_loss`; the search player's: its estimate minus its lowest), that plain
  difference for every reviewer, and the true cost of the card played minus that of the
  reviewer's best;
- `corr`, `rmse`: each decision's estimates and true costs, both centred on their hand's mean,
  pooled over decisions.

and the first reviewer's best card minus the second's, decision by decision.
"""
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import math  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from typing import Dict, List, Optional, Sequence, Tuple  # noqa: E402

import numpy as np  # noqa: E402

from benchmarks._common import machine_line, markdown_table, natural_int, positive_int  # noqa: E402
from solver.core.player import Player, PlayerView  # noqa: E402
from solver.core.position import Position  # noqa: E402
from solver.core.record import record_view, replay_steps  # noqa: E402
from solver.core.rules import GameConfig  # noqa: E402
from solver.core.turn import TurnOutcome  # noqa: E402
from solver.learn.search import card_totals  # noqa: E402
from solver.limits import Limit  # noqa: E402
from solver.mcts import analyse  # noqa: E402
from solver.mcts.player import derive_seed  # noqa: E402
from solver.play.bots import make_bot  # noqa: E402
from solver.play.runner import play_round  # noqa: E402
from solver.exact.solution import LOSS_TOLERANCE  # noqa: E402
from solver.review import SEARCH_PLAYER, check_reviewer, split_loss, view_of  # noqa: E402

DETERMINISTIC = ("net",)          # bots whose card depends on their view alone


class Forced(Player):
    """`player` with its next card forced: `card` at the first question, then its own."""

    def __init__(self, player: Player, card: int):
        self.player, self.card, self.name = player, card, player.name

    def choose_card(self, view: PlayerView) -> int:
        if self.card is None:
            return self.player.choose_card(view)
        card, self.card = self.card, None
        return card

    def choose_row(self, view: PlayerView, card: int) -> int:
        return self.player.choose_row(view, card)


def finish(config: GameConfig, table: str, start: Position, before: Sequence[TurnOutcome],
           position: Position, seat: int, card: int, theirs: Optional[Sequence[int]],
           seed: int) -> int:
    """The seat's bullheads from this turn on when it plays `card`, the others `theirs` (or
    their bots' cards), every later decision the table's bots', reseeded by `seed`."""
    bots: List[Player] = [make_bot(table, derive_seed(seed, k)) for k in range(config.players)]
    for k in range(config.players):
        if k == seat or theirs is not None:
            bots[k] = Forced(bots[k], card if k == seat else theirs[k])
    result = play_round(config, bots, start=start, turns=[o.turn for o in before])
    return result.final.penalties[seat] - position.penalties[seat]


def estimates(reviewer: str, start: Position, before: Sequence[TurnOutcome],
              position: Position, seat: int, played_cards: Sequence[int], played: int,
              iterations: int, seed: int) -> Tuple[Dict[int, float], Optional[float]]:
    """Each card's expected bullheads as `nimmt review` estimates them, and the loss it gives
    the card `played` (None: the plain difference to the lowest, the search player's)."""
    if reviewer == SEARCH_PLAYER:
        hidden = view_of(position, seat, played_cards, False)
        result = analyse(hidden, Limit(iterations=iterations), seed, viewer=seat)
        return {e.card: e.mean for e in result.cards if e.visits}, None
    bot = make_bot(reviewer, seed)
    totals, samples = card_totals(bot.net, record_view(start, before, seat), bot.options,
                                  bot.rng, bot.others_net)
    hand = sorted(position.hands[seat])
    means = dict(zip(hand, totals.mean(axis=0).tolist()))
    if means[played] - min(means.values()) <= LOSS_TOLERANCE:
        return means, 0.0
    return means, split_loss(totals, hand.index(played), samples)[0]


def lowest(estimate: Dict[int, float]) -> int:
    return min(estimate, key=lambda c: (estimate[c], c))


def decisions(args, reviewers: List[str]) -> List[dict]:
    config = GameConfig(players=args.players)
    out = []
    for r in range(args.first, args.first + args.rounds):
        began = time.perf_counter()
        bots = [make_bot(args.table, derive_seed("table", r, k)) for k in range(args.players)]
        record = play_round(config, bots, random.Random(r)).record
        start, outcomes = replay_steps(record)
        position = start
        seen = {c for row in start.rows for c in row}
        for t, outcome in enumerate(outcomes):
            if position.hand_size < 2:
                break
            before = outcomes[:t]
            played_cards = sorted(seen - {c for row in position.rows for c in row})
            theirs = outcome.turn.cards if args.table.split(":")[0] in DETERMINISTIC else None
            for k in range(args.players):
                seed = derive_seed(r, t, k)
                truth = {c: float(np.mean([finish(config, args.table, start, before, position,
                                                  k, c, theirs, derive_seed(seed, "truth", i))
                                           for i in range(args.rollouts)]))
                         for c in position.hands[k]}
                found = [estimates(rv, start, before, position, k, played_cards,
                                   outcome.turn.cards[k], args.iterations, seed)
                         for rv in reviewers]
                out.append({"played": outcome.turn.cards[k], "truth": truth,
                            "estimates": [e for e, _ in found],
                            "losses": [loss for _, loss in found]})
            seen.update(outcome.turn.cards)
            position = outcome.position
        print(f"round {r}: {time.perf_counter() - began:.0f} s", file=sys.stderr, flush=True)
    return out


def interval(values: Sequence[float]) -> str:
    a = np.asarray(values, dtype=float)
    return f"{a.mean():+.2f} ± {1.96 * a.std() / math.sqrt(len(a)):.2f}"


def summary(found: List[dict], reviewers: List[str]) -> str:
    rows = []
    for i, reviewer in enumerate(reviewers):
        gain, est_loss, plain_loss, true_loss, centred_e, centred_t = [], [], [], [], [], []
        for d in found:
            e, truth = d["estimates"][i], d["truth"]
            best = lowest(e)
            gain.append(truth[best] - truth[d["played"]])
            if d["played"] in e:
                plain = e[d["played"]] - e[best]
                loss = d["losses"][i]
                plain_loss.append(plain)
                est_loss.append(plain if loss is None else loss)
                true_loss.append(truth[d["played"]] - truth[best])
            cards = list(e)
            ev = np.array([e[c] for c in cards])
            tv = np.array([truth[c] for c in cards])
            centred_e.extend(ev - ev.mean())
            centred_t.extend(tv - tv.mean())
        ce, ct = np.array(centred_e), np.array(centred_t)
        rows.append([reviewer, str(len(found)), interval(gain), f"{np.mean(est_loss):.2f}",
                     f"{np.mean(plain_loss):.2f}", f"{np.mean(true_loss):+.2f}",
                     f"{np.corrcoef(ce, ct)[0, 1]:.3f}",
                     f"{math.sqrt(np.mean((ce - ct) ** 2)):.2f}"])
    lines = [markdown_table(["reviewer", "decisions", "best - played", "est loss",
                             "plain est loss", "true loss", "corr", "rmse"], rows)]
    if len(reviewers) == 2:
        diff = [d["truth"][lowest(d["estimates"][0])] - d["truth"][lowest(d["estimates"][1])]
                for d in found]
        lines.append(f"\n{reviewers[0]}'s best card minus {reviewers[1]}'s, true bullheads:"
                     f" {interval(diff)}")
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--table", default="net", help="the bot of every seat")
    parser.add_argument("--players", type=positive_int, default=4)
    parser.add_argument("--rounds", type=positive_int, default=40)
    parser.add_argument("--first", type=natural_int, default=0, help="the first deal")
    parser.add_argument("--rollouts", type=positive_int, default=1,
                        help="true-deal rollouts of each card (more for a random table)")
    parser.add_argument("--reviewers", default="belief:worlds=64:belief=384,mcts")
    parser.add_argument("--iterations", type=positive_int, default=100_000,
                        help="the search player's, per estimate")
    args = parser.parse_args(argv)
    if not 3 <= args.players <= 10:
        parser.error("--players must be 3 to 10 (hidden hands)")
    make_bot(args.table, 0)
    reviewers = [r.strip() for r in args.reviewers.split(",")]
    for reviewer in reviewers:
        check_reviewer(reviewer)
    found = decisions(args, reviewers)
    print(machine_line())
    print(f"table: {args.players} x {args.table}, deals {args.first}-"
          f"{args.first + args.rounds - 1}, {args.rollouts} rollout(s) a card")
    print(summary(found, reviewers))


if __name__ == "__main__":
    main()
