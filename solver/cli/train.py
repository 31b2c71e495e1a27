"""`nimmt train`: training data, the learned policy and the opening-card model."""
import os
from typing import Any, Callable, List

import click

from .. import errors
from ..errors import Interrupted
from ..files import check_writable
from ..limits import MAX_GAMES
from ..text.progress import GamesProgress
from .app import SEED, NumberRange, main


# train ------------------------------------------------------------------------------------
def _numbers(text: str, kind: Callable[[str], Any], what: str) -> List[Any]:
    try:
        return [kind(part) for part in text.split(",")]
    except ValueError:
        raise errors.ConfigError(f"{what} must be comma-separated numbers, got"
                                 f" {errors.quote(text)}") from None


@main.group()
def train():
    """Make training games and train the learned policy (bot `net`).

    \b
    Examples:
      nimmt train generate --out runs/data --rounds 3000 --seed 1
      nimmt train fit --data runs/data --out runs/net --export solver/learn/weights/net-v4.npz
    """


def _generate(config, out: str) -> None:
    """Write a generation's missing chunks to `out`, with a progress bar on stderr."""
    from ..learn.data import generate

    config.check()
    total = (config.rounds + config.chunk_rounds - 1) // config.chunk_rounds
    progress = GamesProgress(total, "chunks")
    done = [0]

    def tick(chunks: int, _total: int) -> None:
        done[0] = chunks
        progress(chunks)
    try:
        written = generate(config, out, progress=tick)
    except (KeyboardInterrupt, Interrupted):
        progress.close()
        if done[0]:
            click.echo(f"train: {done[0]} of {total} chunks in {out}; the same command"
                       " resumes", err=True)
        raise
    finally:
        progress.close()
    click.echo(f"{written} chunk{'' if written == 1 else 's'} written to {out}")


def _chunks_options(rounds: int) -> Callable:
    """The options every generation of training data shares: the folder of its chunks and
    how many rounds it plays."""
    def decorate(command: Callable) -> Callable:
        command = click.option("--rounds", type=click.IntRange(1, MAX_GAMES), default=rounds,
                               show_default=True)(command)
        return click.option("--out", required=True, help="Folder of the chunks (made if"
                            " missing; chunks already there are kept, so a stopped run"
                            " resumes).")(command)
    return decorate


@train.command("generate")
@_chunks_options(3000)
@click.option("--teacher", default="mcts:iterations=10000", show_default=True,
              help="The bot in every seat whose choices are learned (a bot spec).")
@click.option("--players", "players_text", default="3,4,5,10", show_default=True,
              help="Seat counts of the rounds, comma-separated.")
@click.option("--weights", "weights_text", default="1,6,1,0.5", show_default=True,
              help="How often each seat count is drawn.")
@click.option("--chunk", type=click.IntRange(1, 10000), default=25, show_default=True,
              help="Rounds per chunk file.")
@click.option("--others", "others_text", default="", help="Bots (specs, comma-separated)"
              " that may take a seat instead of the teacher (with --others-share above 0); their"
              " decisions are not saved.")
@click.option("--others-share", type=NumberRange(0, 1, max_open=True), default=0.0,
              show_default=True, help="Each seat's chance to get one of --others.")
@click.option("--net-policy", is_flag=True, help="A `net` teacher's target is its whole"
              " policy over the hand (by default the card it played).")
@click.option("--seed", type=SEED, default=1, show_default=True)
def train_generate(out, rounds, teacher, players_text, weights_text, chunk, others_text,
                   others_share, net_policy, seed):
    """Play rounds with the teacher in every seat; save every card decision (the view, the
    teacher's distribution over the hand, the bullheads each seat takes to the end of the
    round). A progress bar goes to stderr."""
    from ..learn.data import GenerateConfig

    config = GenerateConfig(teacher, rounds, chunk, seed,
                            tuple(_numbers(players_text, int, "--players")),
                            tuple(_numbers(weights_text, float, "--weights")),
                            tuple(o for o in others_text.split(",") if o), others_share,
                            net_policy)
    _generate(config, out)


def _lockstep_options(weights: str, chunk: int) -> Callable:
    """The options of the generations played in lockstep: seat counts, their weights, the
    rounds of a chunk (played together), the seed."""
    options = [
        click.option("--players", "players_text", default="3,4,5,10", show_default=True,
                     help="Seat counts of the rounds, comma-separated."),
        click.option("--weights", "weights_text", default=weights, show_default=True,
                     help="How often each seat count is drawn."),
        click.option("--chunk", type=click.IntRange(1, 100000), default=chunk,
                     show_default=True,
                     help="Rounds per chunk file (played together, one batch per turn)."),
        click.option("--seed", type=SEED, default=1, show_default=True)]

    def decorate(command: Callable) -> Callable:
        for option in reversed(options):
            command = option(command)
        return command
    return decorate


@train.command("selfplay")
@_chunks_options(10000)
@click.option("--network", default="", help="Weights file of the network in every seat"
              " (default: the shipped one).")
@click.option("--temperature", type=NumberRange(0.01, 100), default=0.5, show_default=True,
              help="Each card's chance goes as exp(logit / T): below 1, nearer the best card.")
@_lockstep_options("1,6,1,0.5", 200)
def train_selfplay(out, rounds, network, temperature, players_text, weights_text, chunk, seed):
    """Play rounds with the network's policy in every seat, many at once, and save every card
    decision with the bullheads each seat takes to the end of the round, for the value head
    (no policy target). Much faster than a search teacher. A progress bar goes to stderr."""
    from ..learn.selfplay import SelfPlayConfig

    config = SelfPlayConfig(network, temperature, rounds, chunk, seed,
                            tuple(_numbers(players_text, int, "--players")),
                            tuple(_numbers(weights_text, float, "--weights")))
    _generate(config, out)


@train.command("rollouts")
@_chunks_options(4000)
@click.option("--network", default="", help="Weights file of the learner (default: the"
              " shipped one).")
@click.option("--opponents", "opponents_text", default="net-v3.npz,net-v2.npz,net-v1.npz,sampler",
              show_default=True, help="Models of the other tables, comma-separated (weights"
              " files, shipped names, or sampler): each such table has one in every other seat.")
@click.option("--self-share", type=NumberRange(0, 1), default=0.5, show_default=True,
              help="Share of the rounds with the learner in every seat.")
@click.option("--temperature", type=NumberRange(0.01, 100), default=0.5, show_default=True,
              help="The learner's cards in the rounds: chance as exp(logit / T).")
@click.option("--target-temperature", type=NumberRange(0.01, 100), default=1.0,
              show_default=True, help="Bullheads: a card that costs this much more in its"
              " rollout gets e^-1 times the share.")
@click.option("--others-temperature", type=float, default=0.0, show_default=True,
              help="The other seats' cards in the rounds, as --temperature (0: each its"
              " likeliest card).")
@click.option("--rollout-temperature", type=float, default=0.0, show_default=True,
              help="Every seat's cards in the rollouts (0: the likeliest; else drawn, the"
              " same draws for every card of a decision).")
@click.option("--prior", type=float, default=0.0, show_default=True,
              help="The learner's logits times this are added to the target's: a step from"
              " its policy rather than a jump.")
@_lockstep_options("1,4,1,1", 50)
def train_rollouts(out, rounds, network, opponents_text, self_share, temperature,
                   target_temperature, others_temperature, rollout_temperature, prior,
                   players_text, weights_text, chunk, seed):
    """Play rounds with the learner network at tables of itself and of other models, and save
    each of its decisions with a target from rollouts: every card of its hand played out to
    the end of the round from the true deal, every seat by its own model; the cards that
    cost fewer bullheads get the larger shares. One step of policy iteration: a network
    trained on it answers those tables better. A progress bar goes to stderr."""
    from ..learn.rollouts import RolloutConfig

    config = RolloutConfig(network=network,
                           opponents=tuple(o for o in opponents_text.split(",") if o),
                           self_share=self_share, temperature=temperature,
                           target_temperature=target_temperature,
                           others_temperature=others_temperature,
                           rollout_temperature=rollout_temperature, prior=prior, rounds=rounds,
                           chunk_rounds=chunk, seed=seed,
                           players=tuple(_numbers(players_text, int, "--players")),
                           shares=tuple(_numbers(weights_text, float, "--weights")))
    _generate(config, out)


@train.command("first-card")
@click.option("--data", required=True, help="Folder of the examples (made if missing;"
              " chunks already there are kept, so a stopped run resumes).")
@click.option("--out", required=True, help="Write the weights (.npz) here.")
@click.option("--positions", "positions_text", default="20000,12000,3000", show_default=True,
              help="Positions of 5, 6 and 7 cards a hand, comma-separated.")
@click.option("--node-roots", type=click.IntRange(0, MAX_GAMES), default=0, show_default=True,
              help="Also label new nodes of 5-7 cards that searches of this many seeded"
              " roots of 8-10 cards meet (first part of each search).")
@click.option("--epochs", type=click.IntRange(1, 10000), default=60, show_default=True)
@click.option("--jobs", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Processes solving positions.")
@click.option("--seed", type=SEED, default=1, show_default=True)
def train_first_card(data, out, positions_text, node_roots, epochs, jobs, seed):
    """Train the exact search's opening-card model: seeded positions of 5, 6 and 7 cards a
    hand (and with --node-roots the nodes a search meets) solved exactly, each card's
    features and margin (its worst entry) kept, one small network per hand size fitted to
    pick the card of the largest margin (numpy only). The shipped weights are
    solver/exact/weights/first-card-v1.npz. Progress on stderr."""
    from ..exact.firstcard import LEVELS, WEIGHTS_FILE
    from ..exact.firstcard_train import train as train_model

    check_writable(out, WEIGHTS_FILE)        # before the hours of solving, not after
    counts = _numbers(positions_text, int, "--positions")
    if len(counts) != len(LEVELS) or min(counts) < 10 or max(counts) > MAX_GAMES:
        raise errors.ConfigError(f"--positions must be {len(LEVELS)} counts in 10..{MAX_GAMES},"
                                 f" got {errors.quote(positions_text)}")
    bars = {}

    def progress(cards, done, total):
        if cards not in bars:
            for bar in bars.values():
                bar.close()
            bars[cards] = GamesProgress(total, "chunks of search nodes" if cards == "nodes"
                                        else f"chunks of {cards}-card positions")
        bars[cards](done)

    try:
        train_model(data, out, dict(zip(LEVELS, counts)), seed, jobs, epochs,
                    report=click.echo, progress=progress, node_roots=node_roots)
    finally:
        for bar in bars.values():
            bar.close()
    click.echo(f"weights written to {out}")


@train.command("fit")
@click.option("--data", required=True, multiple=True,
              help="Folder of the chunks (nimmt train generate); repeat to train on several.")
@click.option("--out", required=True, help="Folder of the run: checkpoint.pt, log.jsonl"
              " (a run stopped there continues from its last epoch).")
@click.option("--export", "export_path", default=None, help="Write the weights (.npz) here.")
@click.option("--hidden", type=click.IntRange(1, 1024), default=64, show_default=True)
@click.option("--epochs", type=click.IntRange(1, 10000), default=30, show_default=True)
@click.option("--batch", type=click.IntRange(1, 1 << 16), default=256, show_default=True)
@click.option("--lr", type=NumberRange(0, 1, min_open=True), default=2e-3, show_default=True)
@click.option("--target-temperature", type=NumberRange(0.01, 100), default=1.0,
              show_default=True, help="Sharpen (below 1) the teacher's distributions: each"
              " share raised to 1/T.")
@click.option("--init", default="", help="Start from these weights (a .npz, or a shipped"
              " name such as net-v3.npz) instead of random ones: fine-tuning.")
@click.option("--seed", type=SEED, default=0, show_default=True)
def train_fit(data, out, export_path, hidden, epochs, batch, lr, target_temperature, init,
              seed):
    """Train the network on the saved games (needs PyTorch: pip install 'nimmt[train]'),
    one CPU thread, deterministic for a seed; one line per epoch."""
    from ..learn.model import WEIGHTS_FILE
    from ..learn.train import TrainConfig
    from ..learn.train import train as run_training

    for folder in data:
        if not os.path.isdir(folder):
            raise errors.ConfigError(f"no such folder: {folder}")
    if export_path is not None:
        check_writable(export_path, WEIGHTS_FILE)  # before the training, not after

    def report(line):
        # held-out figures only where there are some: too few rounds give no validation
        # set (rounds numbered 9 mod 10), self-play data no policy targets
        parts = [f"epoch {line['epoch']:>3}", f"train ce {line['train_ce']:.4f}"]
        if "valid_ce" in line:
            parts += [f"valid ce {line['valid_ce']:.4f}", f"agree {100 * line['valid_agree']:.1f}%"]
        if "valid_value_rmse" in line:
            parts.append(f"value rmse {line['valid_value_rmse']:.2f}")
        else:
            parts.append("no validation rounds")
        click.echo("  ".join(parts + [f"{line['seconds']:.1f} s"]))

    config = TrainConfig(hidden=hidden, epochs=epochs, batch=batch, lr=lr, seed=seed,
                         target_temperature=target_temperature, init=init)
    done = [0]

    def epoch_done(line):
        done[0] = line["epoch"]
        report(line)
    try:
        net = run_training(data, out, config, report=epoch_done)
    except (KeyboardInterrupt, Interrupted):
        if done[0]:
            click.echo(f"train: {done[0]} of {epochs} epochs done in {out}; the same command"
                       " goes on from there", err=True)
        raise
    if export_path:
        net.save(export_path)
        click.echo(f"weights written to {export_path}")
