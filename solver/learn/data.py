"""Training data: rounds played by a teacher bot in every seat, every card decision saved.

Each decision keeps the seat's raw view (`features.RawViews`), the teacher's distribution
over its hand (the search's root visits, when the teacher is the search player) and the
bullheads every seat took from that turn to the end of the round. Rounds are grouped in
chunks of `chunk_rounds`, each written whole (to a temporary name, then renamed) as
`chunk_NNNNN.npz`; a chunk's rounds depend only on the seed and their index, so a stopped
generation resumes where it stopped and gives the same files. `config.json` in the folder
keeps the settings: a folder made with other settings is refused.
"""
import json
import math
import os
import random
from dataclasses import asdict, dataclass
from typing import Callable, Dict, List, Optional, Tuple

import numpy as np

from ..core.player import Player, PlayerView
from ..core.rules import HAND_SIZE, GameConfig
from ..errors import ConfigError, first_difference
from ..files import (GAMES_FOLDER, check_training_folder, npz_damage, read_npz,
                     remove_dead_temporaries, write_atomically, write_text_file)
from ..mcts.player import SearchPlayer
from ..play.bots import NetBot, NetSearchBot, make_bot, parse_bot_spec
from ..play.runner import ask_card, play_round
from .features import MAX_SEATS, RawViews, raw_views

CHUNK_NAME = "chunk_{:05d}.npz"
SCORE_TEMPERATURE = 1.0       # bullheads: how sharply nsearch's scores become a target
CONFIG_NAME = "config.json"


def check_rounds(rounds: int, chunk_rounds: int, players: Tuple[int, ...],
                 weights: Tuple[float, ...]) -> None:
    """The settings every generation shares: counts, seat counts and their weights."""
    if rounds < 1 or chunk_rounds < 1:
        raise ConfigError("rounds and chunk size must be at least 1")
    if not players or any(not 2 <= p <= MAX_SEATS for p in players):
        raise ConfigError("players must be seat counts 2..10")
    if (len(weights) != len(players) or not all(0 <= w < math.inf for w in weights)
            or not 0 < sum(weights) < math.inf):          # nan and inf fail too
        raise ConfigError("one finite weight >= 0 per seat count, not all 0")


def round_start(seed: int, index: int, players: Tuple[int, ...],
                weights: Tuple[float, ...]) -> Tuple[random.Random, int]:
    """Round `index`'s random numbers and its seat count, drawn from `players` by `weights`:
    both depend only on the seed and the round's number, so a chunk made again is the same."""
    rng = random.Random(f"{seed}/round/{index}")
    return rng, rng.choices(players, weights=weights)[0]


@dataclass(frozen=True)
class GenerateConfig:
    """What to generate: `rounds` rounds of `teacher` (a bot spec) in every seat, the seat
    count of each round drawn from `players` (weights `weights`), seeded by `seed`. With
    `others_share` > 0 each seat is instead, with that chance, one of the bots `others`
    (drawn uniformly), whose decisions are not saved: the teacher learns to play, and its
    values are measured, at tables of other styles too."""
    teacher: str = "mcts:iterations=10000"
    rounds: int = 1000
    chunk_rounds: int = 50
    seed: int = 0
    players: Tuple[int, ...] = (4,)
    weights: Tuple[float, ...] = (1.0,)
    others: Tuple[str, ...] = ()        # bots that may take a seat instead of the teacher
    others_share: float = 0.0           # each seat's chance to get one of them
    net_policy: bool = False            # a `net` teacher's target: its policy, not its card

    def check(self) -> None:
        if parse_bot_spec(self.teacher)[0] != "net" and self.net_policy:
            raise ConfigError("--net-policy needs a `net` teacher (other teachers' targets"
                              " are their own distributions already)")
        for spec in (self.teacher,) + tuple(self.others):
            make_bot(spec, seed=0)       # refused now, not after the folder is made
        if not 0.0 <= self.others_share < 1.0 or (self.others_share > 0 and not self.others):
            raise ConfigError("others' share must be in [0, 1), and needs other bots")
        if self.others and not self.others_share:    # they would never take a seat
            raise ConfigError("other bots need a share above 0 (--others-share) to take"
                              " seats")
        check_rounds(self.rounds, self.chunk_rounds, self.players, self.weights)

    def settings(self) -> Dict:
        """What a folder's chunks depend on (the settings at their defaults left out, so a
        folder made before a setting existed stays valid)."""
        settings = asdict(self)
        settings.pop("rounds")               # more rounds may be asked later: same chunks
        if not self.others_share:
            settings.pop("others")
            settings.pop("others_share")
        if not self.net_policy:
            settings.pop("net_policy")
        return settings

    def play(self, first: int, count: int) -> Dict[str, np.ndarray]:
        return play_rounds(self, first, count)


class _Recorder(Player):
    """Plays as its teacher and keeps each card decision's view and target distribution."""

    def __init__(self, teacher: Player, log: List[Tuple[PlayerView, np.ndarray]],
                 net_policy: bool = False):
        self.teacher, self.log, self.net_policy = teacher, log, net_policy
        self.name = teacher.name

    def choose_card(self, view: PlayerView) -> int:
        card = ask_card(self.teacher, view)    # checked: a program teacher may answer anything
        if len(view.hand) > 1:
            self.log.append((view, _target(self.teacher, view, card, self.net_policy)))
        return card

    def choose_row(self, view: PlayerView, card: int) -> int:
        return self.teacher.choose_row(view, card)


def _target(teacher: Player, view: PlayerView, card: int,
            net_policy: bool = False) -> np.ndarray:
    """The teacher's distribution over the hand (ascending, padded to 10): the search's
    root visits (or average strategy); for `nsearch`, a softmax of its cards' mean scores
    (`SCORE_TEMPERATURE` bullheads); for `net` with `net_policy`, its policy (the student
    then learns the network's whole distribution); else all on the card played."""
    hand = sorted(view.hand)
    out = np.zeros(HAND_SIZE, dtype=np.float32)
    last = getattr(teacher, "last", None)
    if isinstance(teacher, SearchPlayer) and last is not None and last.viewer == view.seat \
            and sorted(e.card for e in last.cards) == hand:
        # regret matching (2 players) plays its average strategy, UCB its visits
        visits = {e.card: (e.share if e.share is not None else e.visits) for e in last.cards}
        out[:len(hand)] = [visits[c] for c in hand]
        teacher.last = None                 # used once: the exact hand-over leaves none
    elif isinstance(teacher, NetSearchBot) and last is not None and last[0] == view.seat \
            and sorted(last[1]) == hand:
        scores = np.array([last[1][c] for c in hand])
        out[:len(hand)] = np.exp(-(scores - scores.min()) / SCORE_TEMPERATURE)
        teacher.last = None
    elif net_policy and type(teacher) is NetBot and teacher.logits is not None \
            and teacher.logits[0] is view:
        logits = teacher.logits[1][:len(hand)]     # of the decision it just made
        out[:len(hand)] = np.exp(logits - logits.max())
    if out.sum() <= 0:
        out[:] = 0.0
        out[hand.index(card)] = 1.0
    return out / out.sum()


def _table(config: GenerateConfig, players: int, rng: random.Random) -> List[str]:
    """Each seat's bot: the teacher, or (each seat with chance `others_share`) one of the
    other bots; at least one seat keeps the teacher."""
    if not config.others_share:
        return [config.teacher] * players
    specs = [rng.choice(config.others) if rng.random() < config.others_share
             else config.teacher for _ in range(players)]
    if config.teacher not in specs:
        specs[rng.randrange(players)] = config.teacher
    return specs


def play_rounds(config: GenerateConfig, first: int, count: int) -> Dict[str, np.ndarray]:
    """Rounds `first` .. `first + count - 1` as arrays (one row per card decision)."""
    views: List[PlayerView] = []
    targets, outcomes, rounds = [], [], []
    for index in range(first, first + count):
        rng, players = round_start(config.seed, index, config.players, config.weights)
        game = GameConfig(players=players)
        log: List[Tuple[PlayerView, np.ndarray]] = []
        specs = _table(config, players, rng)
        seats = [make_bot(spec, seed=f"{config.seed}/{index}/{k}") for k, spec in enumerate(specs)]
        seats = [_Recorder(bot, log, config.net_policy) if spec == config.teacher else bot
                 for bot, spec in zip(seats, specs)]
        result = play_round(game, seats, rng)
        final = result.penalties
        for view, target in log:
            taken = [final[k] - view.penalties[k] for k in range(players)]
            rel = np.zeros(MAX_SEATS, dtype=np.int16)
            rel[:players] = [taken[(view.seat + i) % players] for i in range(players)]
            views.append(view)
            targets.append(target)
            outcomes.append(rel)
            rounds.append(index)
    raw = raw_views(views)
    out = dict(raw.arrays())
    out.update(target=np.array(targets, dtype=np.float32).reshape(-1, HAND_SIZE),
               outcome=np.array(outcomes, dtype=np.int16).reshape(-1, MAX_SEATS),
               round=np.array(rounds, dtype=np.int32))
    return out


def generate(config, folder: str,
             progress: Optional[Callable[[int, int], None]] = None) -> int:
    """Write the chunks missing from `folder`; returns how many it wrote. `progress(chunks
    done, chunks in all)` after each chunk. `config`: a `GenerateConfig`, or any settings
    with the same `rounds`, `chunk_rounds`, `check()`, `settings()` and `play(first,
    count)` (the self-play rounds of `selfplay.py`)."""
    config.check()
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise ConfigError(f"cannot make the folder {folder}: a file of that name is there")
    check_training_folder(folder, GAMES_FOLDER)
    made_folder = not os.path.exists(folder)
    os.makedirs(folder, exist_ok=True)
    remove_dead_temporaries(folder)          # a killed run's half-written chunk
    settings = config.settings()
    path = os.path.join(folder, CONFIG_NAME)
    if os.path.exists(path):
        before, wanted = data_settings(folder), json.loads(json.dumps(settings))
        if before != wanted:
            raise ConfigError(f"{folder} holds games made with other settings"
                              f" ({first_difference(before, wanted)}); use another folder")
    elif any(name.startswith("chunk_") for name in os.listdir(folder)):
        raise ConfigError(f"{folder} holds chunks of games but not their settings"
                          f" ({CONFIG_NAME}): they may be of other settings; use another"
                          " folder")
    else:
        write_text_file(path, json.dumps(settings, indent=1, sort_keys=True))
    try:
        return _write_chunks(config, folder, progress)
    except BaseException:
        # stopped before its first chunk (a teacher that fails at once, Ctrl-C): the
        # settings alone would tie the folder to them; a run with others may have it
        if not any(name.startswith("chunk_") for name in os.listdir(folder)):
            os.unlink(path)
            if made_folder and not os.listdir(folder):
                os.rmdir(folder)
        raise


def _write_chunks(config, folder: str, progress: Optional[Callable[[int, int], None]]) -> int:
    chunks = (config.rounds + config.chunk_rounds - 1) // config.chunk_rounds
    written = 0
    for c in range(chunks):
        path = os.path.join(folder, CHUNK_NAME.format(c))
        first = c * config.chunk_rounds
        count = min(config.chunk_rounds, config.rounds - first)
        # a chunk holds its round count: the short last chunk of a run is made anew, whole,
        # when a later run asks for more rounds (a chunk without it is a whole one)
        if not os.path.exists(path) or _chunk_rounds(path, config.chunk_rounds) < count:
            arrays = dict(config.play(first, count), rounds=np.array(count))
            write_atomically(path, lambda temporary: np.savez_compressed(temporary, **arrays),
                             suffix=".npz")
            written += 1
        if progress:
            progress(c + 1, chunks)
    return written


def _chunk_rounds(path: str, whole: int) -> int:
    """The rounds a chunk file holds (`whole` for a chunk written before chunks said so)."""
    try:
        with np.load(path, allow_pickle=False) as z:
            return int(z["rounds"]) if "rounds" in z.files else whole
    except (OSError,) + npz_damage():
        raise ConfigError(f"cannot read the training chunk {path}: not an .npz file, or cut"
                          f" short (remove it: it is made again)") from None


def data_settings(folder: str) -> Dict:
    """The generation settings kept in `folder` (empty if none)."""
    path = os.path.join(folder, CONFIG_NAME)
    if not os.path.exists(path):
        return {}
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read {path}, the settings of the folder's games:"
                          f" {getattr(exc, 'strerror', None) or exc}") from None


# each array's shape after its first axis (one entry a decision)
CHUNK_SHAPES = {"players": (), "deck": (), "turn": (), "hand": (HAND_SIZE,), "rows": (4, 5),
                "seen": (105,), "penalties": (MAX_SEATS,), "scores": (MAX_SEATS,),
                "target": (HAND_SIZE,), "outcome": (MAX_SEATS,), "round": ()}


def _check_chunk(path: str, arrays: Dict[str, np.ndarray]) -> None:
    """Refuse a chunk whose arrays are not those `generate` writes (shapes, one entry a
    decision, seat counts 2..10): a chunk made by hand would fail deep in the training."""
    size = len(arrays["players"]) if arrays["players"].ndim == 1 else -1
    for key, shape in CHUNK_SHAPES.items():
        if arrays[key].shape != (size,) + shape:
            raise ConfigError(f"the training chunk {path} is not one of 'nimmt train"
                              f" generate': its {key} has the shape {arrays[key].shape}"
                              f" (expected {(size,) + shape})")
    if size and not (arrays["players"].min() >= 2 and arrays["players"].max() <= MAX_SEATS):
        raise ConfigError(f"the training chunk {path} is not one of 'nimmt train generate':"
                          f" its seat counts are not all 2..{MAX_SEATS}")


def load_chunks(folder: str) -> Tuple[RawViews, Dict[str, np.ndarray]]:
    """Every chunk of `folder`, in order: the raw views and the targets (`target`,
    `outcome`, `round`)."""
    names = sorted(n for n in os.listdir(folder) if n.startswith("chunk_")
                   and n.endswith(".npz"))
    if not names:
        raise ConfigError(f"no training chunks in {folder}")
    parts, extra = [], {"target": [], "outcome": [], "round": []}
    for name in names:
        z = read_npz(os.path.join(folder, name), tuple(RawViews.__dataclass_fields__)
                     + tuple(extra), "a training chunk")
        _check_chunk(os.path.join(folder, name), z)
        parts.append(RawViews(**{k: z[k] for k in RawViews.__dataclass_fields__}))
        for k in extra:
            extra[k].append(z[k])
    return RawViews.concat(parts), {k: np.concatenate(v) for k, v in extra.items()}
