"""Training the network of `model.py` on saved games (`data.py`), with PyTorch.

PyTorch is imported here only, inside the functions: it is the optional `[train]` extra, and
playing needs numpy alone. The run is deterministic for a seed on one thread: the weights'
initialization, the validation split (every round whose number ends in 9) and each epoch's
order come from the seed. After every epoch the state (weights, optimizer, epoch) goes to
`checkpoint.pt` in the run's folder, and a stopped run started again continues from it.
The losses: cross-entropy against the teacher's distribution over the hand (none for a
decision without one: the self-play rounds train the value only), and the squared error of
the value (bullheads from the turn to the end of the round, in tens).
"""
import errno
import json
import os
import shutil
import time
from dataclasses import asdict, dataclass
from functools import partial
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import numpy as np

from ..errors import ConfigError, first_difference
from ..files import (FIT_FOLDER, FileKind, check_training_folder, check_writable,
                     remove_dead_temporaries, write_atomically, write_text_file)
from .data import data_settings, load_chunks
from .features import FEATURE_VERSION, RawViews, encode
from .model import PARAMETERS, WEIGHTS_FILE, PolicyNet, load_cached, shapes

VALUE_SCALE = 10.0                     # bullheads: the value's error is measured in tens
EPOCH_NAME = "epoch_{:03d}.npz"
LOG_NAME = "log.jsonl"
LOG_FILE = FileKind("a training run's log", lambda head: head.startswith(b'{"epoch": '))


@dataclass(frozen=True)
class TrainConfig:
    hidden: int = 64
    epochs: int = 30
    batch: int = 256
    lr: float = 2e-3
    weight_decay: float = 1e-5
    value_weight: float = 0.5
    seed: int = 0
    target_temperature: float = 1.0     # the teacher's shares raised to 1/T, renormalized
    init: str = ""                      # start from these weights (a file or a shipped name)


    def check(self) -> None:
        if not (1 <= self.hidden <= 1024 and self.epochs >= 1 and self.batch >= 1
                and self.lr > 0 and self.weight_decay >= 0 and self.value_weight >= 0
                and 0.01 <= self.target_temperature <= 100):
            raise ConfigError("hidden 1..1024, epochs and batch >= 1, lr > 0, weight decay"
                              " and value weight >= 0, target temperature 0.01..100")
        if self.init and load_cached(self.init).hidden != self.hidden:
            raise ConfigError(f"--init weights {self.init} are not of width {self.hidden}")


def _torch():
    try:
        import torch
    except ImportError:
        raise ConfigError("training needs PyTorch: pip install 'nimmt[train]'") from None
    return torch


def _module(torch, hidden: int, seed: int):
    """The network of `model.py` in torch, every parameter named and shaped as there."""
    nn = torch.nn
    gen = torch.Generator().manual_seed(seed)

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            for name, shape in shapes(hidden).items():
                fan_in = shape[0] if len(shape) == 2 else hidden
                bound = 1.0 / fan_in ** 0.5
                init = (torch.rand(shape, generator=gen) * 2 - 1) * bound
                self.register_parameter(name, nn.Parameter(init))

        def forward(self, cards, mask, table):
            relu = torch.relu
            h1 = relu(cards @ self.card_in + (table @ self.table_in)[:, None, :] + self.b1)
            h2 = relu(h1 @ self.card_mid + self.b2)
            m = mask[:, :, None].float()
            mean = (h2 * m).sum(1) / m.sum(1).clamp(min=1.0)
            peak = (h2 * m).max(1).values
            ctx = relu(torch.cat([mean, peak, table], 1) @ self.ctx_w + self.ctx_b)
            h3 = relu(h2 @ self.pol_card + (ctx @ self.pol_ctx)[:, None, :] + self.pol_b)
            logits = (h3 @ self.pol_out)[..., 0] + self.pol_out_b
            logits = logits.masked_fill(~mask, -1e9)
            value = (relu(ctx @ self.val_w + self.val_b) @ self.val_out)[:, 0] + self.val_out_b
            return logits, value

    return Net()


def _folders(data: Union[str, Sequence[str]]) -> List[str]:
    folders = [data] if isinstance(data, str) else list(data)
    seen: Dict[str, str] = {}
    for folder in folders:          # the same folder twice would weigh its games double
        real = os.path.realpath(folder)
        if real in seen:
            raise ConfigError(f"the data folder {folder} is given twice (as {seen[real]} too)")
        seen[real] = folder
    return folders


def prepare(data: Union[str, Sequence[str]]) -> Dict[str, np.ndarray]:
    """The encoded examples of every chunk in the folder(s), and which are for validation
    (the rounds whose number ends in 9, in each folder)."""
    loaded = [load_chunks(folder) for folder in _folders(data)]
    raw = RawViews.concat([r for r, _ in loaded])
    extra = {k: np.concatenate([e[k] for _, e in loaded]) for k in loaded[0][1]}
    # a round is known by its folder and its number
    source = np.concatenate([np.full(len(e["round"]), i, dtype=np.int64)
                             for i, (_, e) in enumerate(loaded)])
    enc = encode(raw)
    return {"cards": enc.cards, "mask": enc.mask, "table": enc.table,
            "target": extra["target"], "value": extra["outcome"][:, 0].astype(np.float32),
            "valid": extra["round"] % 10 == 9, "players": raw.players,
            "round": source * (1 << 32) + extra["round"]}


def sharpen(target: np.ndarray, temperature: float) -> np.ndarray:
    """Each row's shares raised to 1 / temperature and renormalized (below 1: sharper; for
    nsearch's softmax of its scores, the softmax at that temperature); rows of zeros stay."""
    if temperature == 1.0:
        return target
    powered = np.power(target.astype(np.float64), 1.0 / temperature)
    total = powered.sum(axis=1, keepdims=True)
    return np.where(total > 0, powered / np.maximum(total, 1e-300), 0.0).astype(np.float32)


def _losses(torch, net, batch):
    logits, value = net(batch["cards"], batch["mask"], batch["table"])
    logp = torch.log_softmax(logits, 1)
    ce = -(batch["target"] * logp).sum(1)
    mse = ((value - batch["value"]) / VALUE_SCALE) ** 2
    return ce, mse, logits, value


def _size_text(size: Dict[str, int]) -> str:
    return f"{size['examples']:,} decisions of {size['rounds']:,} rounds"


def _save_checkpoint(torch, state: Dict[str, Any], path: str) -> None:
    """torch.save, whose failed write (a full disk) is a RuntimeError of its C++ writer: said
    as the OSError it is, so that it ends in one line."""
    try:
        torch.save(state, path)
    except RuntimeError as exc:
        free = shutil.disk_usage(os.path.dirname(path) or ".").free
        raise OSError(errno.ENOSPC if free < (1 << 20) else errno.EIO,
                      "no space left on device" if free < (1 << 20)
                      else f"torch could not write it ({str(exc).splitlines()[0][:80]})") from None


def _check_no_other_files(run_folder: str) -> None:
    """A run starting afresh writes epoch files and a log: any there already must be a
    run's of ours (one stopped before its first checkpoint), not anyone else's files of
    those names, which are kept."""
    for name in sorted(os.listdir(run_folder)):
        if name == LOG_NAME:
            check_writable(os.path.join(run_folder, name), LOG_FILE)
        elif name.startswith("epoch_") and name.endswith(".npz"):
            check_writable(os.path.join(run_folder, name), WEIGHTS_FILE)


def _keep_log(path: str, epochs: int) -> None:
    """The run's log cut to its first `epochs` epochs (the lines of an epoch done again after
    a stop, which the checkpoint did not keep, go)."""
    if not os.path.exists(path):
        return
    with open(path) as log:
        lines = [line for line in log if line.strip()]
    kept = []
    for line in lines:
        try:
            if json.loads(line)["epoch"] <= epochs:
                kept.append(line if line.endswith("\n") else line + "\n")
        except (ValueError, KeyError, TypeError):
            pass                               # a line cut by the stop
    if kept != lines:
        write_text_file(path, "".join(kept))


def train(data_folder: Union[str, Sequence[str]], run_folder: str, config: TrainConfig,
          report: Optional[Callable[[Dict[str, Any]], None]] = None) -> PolicyNet:
    """Train (or go on training) in `run_folder`; returns the network of the last epoch.
    `report(line)` after each epoch with its losses and the validation's agreement with
    the teacher's most likely card."""
    config.check()
    data = prepare(data_folder)           # the data's problems first, PyTorch or not
    torch = _torch()
    torch.set_num_threads(1)
    torch.manual_seed(config.seed)
    data["target"] = sharpen(data["target"], config.target_temperature)
    tensors = {k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in data.items()
               if k not in ("valid", "players", "round")}
    valid = np.flatnonzero(data["valid"])
    train_idx = np.flatnonzero(~data["valid"])
    if len(train_idx) == 0:
        raise ConfigError("no training examples (every round is in the validation set)")
    check_training_folder(run_folder, FIT_FOLDER)
    os.makedirs(run_folder, exist_ok=True)
    remove_dead_temporaries(run_folder)      # a killed run's half-written checkpoint
    net = _module(torch, config.hidden, config.seed)
    if config.init:
        start_from(torch, net, config.init)
    opt = torch.optim.Adam(net.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    checkpoint = os.path.join(run_folder, "checkpoint.pt")
    log_path = os.path.join(run_folder, LOG_NAME)
    sources = [data_settings(folder) for folder in _folders(data_folder)]
    size = {"examples": int(len(data["target"])), "rounds": int(len(np.unique(data["round"])))}
    start = 0
    if os.path.exists(checkpoint):
        try:
            state = torch.load(checkpoint, weights_only=False)
            saved = dict(state["config"])
        except Exception:                      # torch's errors are of many kinds
            raise ConfigError(f"cannot read {checkpoint}: damaged (remove it, or use another"
                              f" run folder)") from None
        saved.setdefault("init", "")          # runs made before the setting existed
        if saved != asdict(config):
            raise ConfigError(f"{checkpoint} was made with other settings"
                              f" ({first_difference(saved, asdict(config))}); use another run"
                              " folder")
        if state.get("data", sources) != sources:
            raise ConfigError(f"{checkpoint} was made on other data ({state['data']}); use"
                              " another run folder")
        if state.get("data_size", size) != size:       # chunks added since, or removed
            raise ConfigError(f"{checkpoint} was made on {_size_text(state['data_size'])}, the"
                              f" data now holds {_size_text(size)}: a run goes on with the data"
                              " it began with; use another run folder")
        net.load_state_dict(state["model"])
        opt.load_state_dict(state["optimizer"])
        start = state["epoch"]
    else:
        _check_no_other_files(run_folder)
    _keep_log(log_path, start)
    steps = (len(train_idx) + config.batch - 1) // config.batch
    taught = int((data["target"][train_idx].sum(axis=1) > 0).sum())     # with a policy target
    for epoch in range(start, config.epochs):
        began = time.perf_counter()
        # cosine decay of the rate over the whole run, set per epoch (so a resume agrees)
        for group in opt.param_groups:
            group["lr"] = config.lr * 0.5 * (1 + np.cos(np.pi * epoch / config.epochs))
        order = np.random.default_rng([config.seed, epoch]).permutation(train_idx)
        net.train()
        total_ce = total_mse = 0.0
        for s in range(steps):
            idx = torch.from_numpy(order[s * config.batch:(s + 1) * config.batch])
            batch = {k: v[idx] for k, v in tensors.items()}
            ce, mse, _, _ = _losses(torch, net, batch)
            loss = ce.mean() + config.value_weight * mse.mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total_ce += float(ce.detach().sum())
            total_mse += float(mse.detach().sum())
        line = {"epoch": epoch + 1, "train_ce": total_ce / max(taught, 1),
                "train_value_rmse": float(np.sqrt(total_mse / len(train_idx))) * VALUE_SCALE}
        line.update(evaluate(torch, net, tensors, valid))
        line["seconds"] = time.perf_counter() - began
        # every epoch's weights, for a learning curve (strength by training step), and its
        # log line, then the checkpoint: a run stopped in between does the epoch again
        export(net, config, {"epoch": epoch + 1}).save(
            os.path.join(run_folder, EPOCH_NAME.format(epoch + 1)))
        with open(log_path, "a") as log:
            log.write(json.dumps(line) + "\n")
        state = {"model": net.state_dict(), "optimizer": opt.state_dict(),
                 "epoch": epoch + 1, "config": asdict(config), "data": sources,
                 "data_size": size}
        write_atomically(checkpoint, partial(_save_checkpoint, torch, state))
        if report:
            report(line)
    return export(net, config, {"data": sources[0] if len(sources) == 1 else sources,
                                "examples": int(len(train_idx)),
                                "validation": int(len(valid)),
                                "rounds": size["rounds"]})


def start_from(torch, net, weights: str) -> None:
    """Copy the weights of a `.npz` (or a shipped name) into the module: fine-tuning."""
    first = load_cached(weights)
    with torch.no_grad():
        for name, value in first.weights.items():
            getattr(net, name).copy_(torch.from_numpy(value))


def evaluate(torch, net, tensors, index: np.ndarray) -> Dict[str, float]:
    """Validation: cross-entropy and the share of decisions where the net's card is the
    teacher's most likely one (on the decisions with a teacher's target: self-play ones
    have none), the value's error in bullheads (on all)."""
    if len(index) == 0:
        return {}
    net.eval()
    with torch.no_grad():
        batch = {k: v[torch.from_numpy(index)] for k, v in tensors.items()}
        ce, mse, logits, _ = _losses(torch, net, batch)
        taught = batch["target"].sum(1) > 0
        out = {"valid_value_rmse": float(mse.mean().sqrt()) * VALUE_SCALE}
        if bool(taught.any()):
            agree = (logits.argmax(1) == batch["target"].argmax(1))[taught].float().mean()
            out.update(valid_ce=float(ce[taught].mean()), valid_agree=float(agree))
    return out


def export(net, config: TrainConfig, info: Dict[str, Any]) -> PolicyNet:
    """The torch module's weights as the numpy `PolicyNet`."""
    weights = {k: getattr(net, k).detach().numpy().astype(np.float32).copy() for k in PARAMETERS}
    meta = {"feature_version": FEATURE_VERSION, "train": asdict(config)}
    meta.update(info)
    return PolicyNet(weights, meta)
