"""Round and whole-game runners: seats (`core.player.Player`) at a table, turn by turn.

Each seat sees the table through a `PlayerView` (what its seat may know). Every round played
produces a game record (docs/formats.md), which `core.record` replays; every turn is played
by `core.turn.apply_turn`.

Randomness comes only from `random.Random` objects built from the seeds given, so a game is
determined by its seed and its players.
"""
import operator
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .. import errors
from ..core.player import Player, PlayerView
from ..core.deal import deal
from ..core.position import Position
from ..core.rules import (ROWS, GameConfig, fewest_bullheads_chooser, play_turn, row_bullheads,
                          target_row)
from ..core.turn import Turn, TurnOutcome, apply_turn
from ..errors import IllegalMoveError
from .program import end_all_input, launch_all


@dataclass
class RoundResult:
    record: Dict[str, Any]           # the game record of the round (docs/formats.md)
    penalties: Tuple[int, ...]       # bullheads each seat took
    final: Position                  # the table after the last turn


@dataclass
class GameResult:
    rounds: List[RoundResult] = field(default_factory=list)
    scores: Tuple[int, ...] = ()

    @property
    def winners(self) -> List[int]:
        """Seats with the lowest total (equal lowest totals share the win)."""
        low = min(self.scores)
        return [k for k, s in enumerate(self.scores) if s == low]


def play_round(config: GameConfig, players: Sequence[Player],
               rng: Optional[random.Random] = None,
               scores: Optional[Sequence[int]] = None,
               start: Optional[Position] = None,
               on_turn: Optional[Callable[[int, TurnOutcome], None]] = None,
               turns: Sequence[Turn] = ()) -> RoundResult:
    """Play one round dealt with `rng`, or finish `start`, a position with every hand visible
    (`rng` is then not needed: the players have their own randomness). `turns`, if given,
    are played first as they stand (a record's turns so far: a missing row choice takes the
    cheapest row), and the players' views show them as the round's earlier turns.

    `on_turn(t, outcome)` is told what each turn did (cards, rows taken, new position)."""
    if len(players) != config.players:
        raise errors.ConfigError(f"{config.players} players needed, got {len(players)}")
    if start is None and rng is None:
        raise TypeError("play_round needs rng (a random.Random) to deal the round, or start"
                        " (a position to finish)")
    position = start if start is not None else deal(config, rng)
    if len(turns) > position.hand_size:
        raise errors.ConfigError(f"{len(turns)} turns given for a round of"
                                 f" {position.hand_size}")
    scores = tuple(scores) if scores is not None else (0,) * config.players
    record = position.to_dict()
    if any(scores):            # the totals of earlier rounds: a view rebuilt from the record
        record["scores"] = list(scores)      # needs them (record_view)
    record["turns"] = []
    played: List[Tuple[int, ...]] = []
    table = _Table(config, position, played, scores)
    launch_all(players)                # program bots: their start-ups side by side
    for t in range(position.hand_size):
        turn = turns[t] if t < len(turns) else _ask_turn(players, table, t)
        outcome = apply_turn(table.position, turn, t)
        record["turns"].append(outcome.turn.to_dict())
        played.append(outcome.turn.cards)
        table.row_choices.append(outcome.chosen_rows)
        table.position = outcome.position
        if on_turn:
            on_turn(t, outcome)
    penalties = tuple(p - q for p, q in zip(table.position.penalties, position.penalties))
    result = RoundResult(record, penalties, table.position)
    for p in players:
        p.round_over(record, penalties)
    return result


def _ask_turn(players: Sequence[Player], table: "_Table", t: int) -> Turn:
    """Turn `t` as the players choose it: each seat's card from its view, then the row of a
    too-low card from its owner's view with the turn's cards revealed."""
    cards = tuple(ask_card(p, table.view(k, t)) for k, p in enumerate(players))
    choices: List[Optional[int]] = [None] * len(players)
    # only the lowest card of a turn can be too low, and it is resolved first
    low = min(range(len(players)), key=lambda k: cards[k])
    if target_row(table.position.rows, cards[low]) is None:
        view = table.view(low, t, revealed=cards)
        choices[low] = ask_row(players[low], view, cards[low])
    return Turn(cards, tuple(choices))


class _Table:
    """The running state of a round, from which each seat's view is cut."""

    def __init__(self, config: GameConfig, position: Position,
                 played: List[Tuple[int, ...]], scores: Tuple[int, ...]):
        self.config, self.position, self.played, self.scores = config, position, played, scores
        self.start_rows = position.rows
        self.row_choices: List[Tuple[Optional[int], ...]] = []   # by earlier turn, by seat

    def view(self, seat: int, turn: int, revealed: Optional[Tuple[int, ...]] = None) -> PlayerView:
        """Seat `seat`'s view; with `revealed` (a row choice during the resolution), the card
        the seat plays is out of its hand."""
        hand = self.position.hands[seat]
        if revealed is not None:
            hand = tuple(c for c in hand if c != revealed[seat])
        return PlayerView(self.config, seat, self.position.rows, hand, self.start_rows,
                          tuple(self.played), self.position.penalties, self.scores, turn,
                          revealed, tuple(self.row_choices))


def _answer(player: Player, view: PlayerView, value: Any, what: str) -> int:
    """A player's answer as an int: any integer type (a numpy integer, say) is taken, anything
    else (a float, a string, None, a bool) is an illegal move."""
    if not isinstance(value, bool):
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise IllegalMoveError(f"{player.name} (player {view.seat + 1}) answered"
                           f" {errors.quote(value)} for {what}: not an integer")


def ask_card(player: Player, view: PlayerView) -> int:
    card = _answer(player, view, player.choose_card(view), "a card")
    if card not in view.hand:
        raise IllegalMoveError(f"{player.name} (player {view.seat + 1}) played"
                               f" {errors.quote_json(card)},"
                               f" not in its hand {list(view.hand)}")
    return card


def ask_row(player: Player, view: PlayerView, card: int) -> int:
    row = _answer(player, view, player.choose_row(view, card), "a row")
    if not 0 <= row < ROWS:
        raise IllegalMoveError(f"{player.name} (player {view.seat + 1}) chose row"
                               f" {errors.quote_json(row)}"
                               f" (must be 0..3)")
    return row


def game_over(scores: Sequence[int], threshold: int) -> bool:
    """The game ends when some total reaches or exceeds the threshold."""
    return max(scores) >= threshold


def close_all(players: Sequence[Player]) -> None:
    """`close()` every player that has it (a program bot's program ends): what the maker of
    the players does once their game is over, stopped or not."""
    end_all_input(players)             # program bots: their last seconds side by side
    for player in players:
        close = getattr(player, "close", None)        # a player of one's own may lack it
        if close is not None:
            close()


def play_game(config: GameConfig, players: Sequence[Player], seed: Any = None,
              on_round: Optional[Callable[[int, RoundResult, Tuple[int, ...]], None]] = None,
              on_turn: Optional[Callable[[int, TurnOutcome], None]] = None) -> GameResult:
    """Play rounds until some total reaches the threshold; `on_round(i, result, scores)` after
    each round, `on_turn` as in `play_round`."""
    rng = random.Random(seed)
    result = GameResult(scores=(0,) * config.players)
    while not game_over(result.scores, config.threshold):
        round_result = play_round(config, players, rng, result.scores, on_turn=on_turn)
        result.rounds.append(round_result)
        result.scores = tuple(s + p for s, p in zip(result.scores, round_result.penalties))
        if on_round:
            on_round(len(result.rounds) - 1, round_result, result.scores)
    return result


def random_round_penalties(config: GameConfig, rng: random.Random) -> List[int]:
    """One round of random play in plain Python: what the C simulator does, the reference
    of the benchmark. Random deal, uniformly random cards, a too-low card takes the cheapest
    row. Returns the bullheads each player took."""
    size = config.hand_size
    cards = rng.sample(range(1, config.deck + 1), config.players * size + ROWS)
    hands = [cards[k * size:(k + 1) * size] for k in range(config.players)]
    rows = [[c] for c in cards[config.players * size:]]
    penalties = [0] * config.players
    for _ in range(size):
        played = [hand.pop(rng.randrange(len(hand))) for hand in hands]
        rows, taken = play_turn(rows, played, fewest_bullheads_chooser)
        penalties = [p + row_bullheads(t) for p, t in zip(penalties, taken)]
    return penalties
