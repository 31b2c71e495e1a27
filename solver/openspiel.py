"""6 nimmt! as an OpenSpiel game (the optional `openspiel` extra): importing this module
registers `python_nimmt` with `pyspiel.register_game`, so that
`pyspiel.load_game("python_nimmt", {...})` gives a game OpenSpiel's algorithms run on.

The game (docs/openspiel.md): the deal as chance nodes, one card at a time; each turn a
simultaneous node where every player picks a card; a too-low card's row choice a decision
node of its owner. Every turn is played by `core.turn.apply_turn` and every deal laid out
by `core.deal.dealt_position`: this module keeps the game's history and the protocol, not
the rules. pyspiel is imported here only.
"""
from dataclasses import dataclass, replace
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

try:
    import pyspiel
except ImportError:
    raise ImportError("the OpenSpiel adapter needs open_spiel: pip install 'nimmt[openspiel]'"
                      " (or open_spiel)") from None

from .core.notation import format_notation
from .core.position import Position
from .core.rules import (HAND_SIZE, ROW_LIMIT, ROWS, STANDARD_DECK, GameConfig, deck_bullheads,
                         target_row, variant_deck)
from .core.turn import Turn, apply_turn
from .errors import ConfigError, IllegalMoveError
from .core.deal import dealt_position
from .play.runner import game_over

SHORT_NAME = "python_nimmt"
ROW_ACTION = STANDARD_DECK          # action ids: card c is c - 1, "take row r" is 104 + r
NUM_ACTIONS = STANDARD_DECK + ROWS
MAX_JOINT_ACTIONS = 1 << 20         # listed by legal_actions() at a simultaneous node
DEFAULTS = {"players": 2, "variant": "standard", "hand_size": HAND_SIZE, "threshold": 66,
            "single_round": False, "position": ""}

_Info = pyspiel.GameType.Information
_Utility = pyspiel.GameType.Utility


def _game_type(information=_Info.IMPERFECT_INFORMATION, utility=_Utility.GENERAL_SUM):
    """The registered type; each game gets its own copy with its information and utility
    (complete information from a position, zero-sum for 2 players)."""
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="6 nimmt! (nimmt)",
        dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=10,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULTS)


def card_action(card: int) -> int:
    return card - 1


def row_action(row: int) -> int:
    return ROW_ACTION + row


@dataclass(frozen=True)
class Setup:
    """A game's parameters, checked: the config of its deals, whether it stops after one
    round, and the position it starts from (None: a deal)."""
    config: GameConfig
    single_round: bool
    start: Optional[Position]

    def __deepcopy__(self, memo):       # a state's clone shares it (see `Progress`)
        return self

    @classmethod
    def from_params(cls, params: Dict) -> "Setup":
        params = dict(DEFAULTS, **params)
        config = GameConfig.named(params["players"], params["variant"],
                                  threshold=params["threshold"], hand_size=params["hand_size"])
        single_round = params["single_round"]
        text = params["position"].replace("/", ",")   # the game string's form (below)
        start = Position.from_text(text) if text else None
        if start is not None:
            if not start.complete_information:
                raise ConfigError("position: every hand must be visible (a game starts from a"
                                  " position of complete information, or from a deal)")
            if start.players != config.players:
                raise ConfigError(f"position has {start.players} players but players ="
                                  f" {config.players}")
            if start.deck != config.deck:
                raise ConfigError(f"position has deck {start.deck} but variant"
                                  f" {params['variant']} with {config.players} players has"
                                  f" {config.deck} cards (variant standard: 104,"
                                  f" 10n+4: {variant_deck(config.players)})")
        if not single_round and config.players * config.hand_size <= ROWS * (ROW_LIMIT - 1):
            # the rows hold 16 more cards: a round of fewer may take no bullhead, and a game
            # of such rounds has no bound on its length, which OpenSpiel needs
            raise ConfigError(f"a whole game needs more than {ROWS * (ROW_LIMIT - 1)} cards"
                              f" played a round (players x hand_size, here"
                              f" {config.players * config.hand_size}): set single_round=True")
        return cls(config, single_round, start)

    @property
    def players(self) -> int:
        return self.config.players

    @property
    def deck(self) -> int:
        return self.config.deck

    @property
    def deal_length(self) -> int:
        return self.config.players * self.config.hand_size + ROWS

    @property
    def max_turns(self) -> int:
        """The most turns a round of this game has (the tensors' turn slots)."""
        if self.start is not None and self.single_round:
            return self.start.hand_size
        return max(self.config.hand_size, self.start.hand_size if self.start else 0)

    @property
    def max_bullheads(self) -> int:
        """The most bullheads one player can take in the game."""
        deck = deck_bullheads(self.deck)
        return deck if self.single_round else self.config.threshold + deck

    def max_length(self) -> int:
        """Chance outcomes and moves (a joint move counts one) of the longest game: a whole
        game takes a bullhead each round, so it ends within players x threshold rounds."""
        round_moves = 2 * self.config.hand_size
        first = 2 * self.start.hand_size if self.start else self.deal_length + round_moves
        if self.single_round:
            return first
        return first + self.players * self.config.threshold * (self.deal_length + round_moves)

    def game_info(self) -> "pyspiel.GameInfo":
        worst = self.max_bullheads
        two = self.players == 2
        return pyspiel.GameInfo(num_distinct_actions=NUM_ACTIONS,
                                max_chance_outcomes=self.deck,
                                num_players=self.players,
                                min_utility=float(-worst),
                                max_utility=float(worst if two else 0),
                                utility_sum=0.0 if two else None,
                                max_game_length=self.max_length())


class NimmtGame(pyspiel.Game):
    """6 nimmt! for OpenSpiel; parameters in DEFAULTS (docs/openspiel.md)."""

    def __init__(self, params=None):
        self.setup = Setup.from_params(params or {})
        # from a position to the end of its round every hand is known: OpenSpiel calls a
        # simultaneous-move game of complete information PERFECT_INFORMATION
        complete = self.setup.start is not None and self.setup.single_round
        information = _Info.PERFECT_INFORMATION if complete else _Info.IMPERFECT_INFORMATION
        utility = _Utility.ZERO_SUM if self.setup.players == 2 else _Utility.GENERAL_SUM
        params = dict(params or {})
        if "position" in params:
            # OpenSpiel's game string ("python_nimmt(players=2,position=...)", what a pickle
            # and load_game(str(game)) read) splits on commas: the notation's commas as "/"
            params["position"] = params["position"].replace(",", "/")
        super().__init__(_game_type(information, utility), self.setup.game_info(), params)

    def new_initial_state(self):
        return NimmtState(self, self.setup)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return NimmtObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                             params, self.setup)


@dataclass(frozen=True)
class RoundHistory:
    """One round: the position after its deal (or the given one) and its turns, each the
    cards played and the row taken by choice (None: no card was too low)."""
    start: Position
    turns: Tuple[Tuple[Tuple[int, ...], Optional[int]], ...] = ()


@dataclass(frozen=True)
class Progress:
    """Everything of a state that moves, as one value that a move replaces, never changes:
    OpenSpiel clones a Python state by deep-copying each of its attributes, and a clone
    shares this one (deep-copying the positions made a clone 15 times slower)."""
    banked: Tuple[int, ...]                     # totals of the finished rounds
    rewards: Tuple[float, ...]                  # of the last move
    dealt: Tuple[int, ...] = ()                 # this round's deal so far, in order
    rounds: Tuple[RoundHistory, ...] = ()
    position: Optional[Position] = None         # None while dealing
    pending: Optional[Tuple[int, ...]] = None   # a turn's cards awaiting the row choice
    over: bool = False

    def __deepcopy__(self, memo):
        return self


class NimmtState(pyspiel.State):
    """A moment of the game: dealing, choosing cards (simultaneous), choosing a row (the
    too-low card's owner), or over."""

    def __init__(self, game, setup: Setup):
        super().__init__(game)
        self.setup = setup
        self.now = Progress(banked=(0,) * setup.players, rewards=(0.0,) * setup.players)
        if setup.start is not None:
            self._begin_round(setup.start)

    # OpenSpiel's state interface ---------------------------------------------------------
    def current_player(self):
        if self.now.over:
            return pyspiel.PlayerId.TERMINAL
        if self.now.position is None:
            return pyspiel.PlayerId.CHANCE
        if self.now.pending is not None:
            return self.too_low_owner
        return pyspiel.PlayerId.SIMULTANEOUS

    def _legal_actions(self, player):
        now = self.now
        if now.over or now.position is None:
            return []
        if now.pending is not None:
            return [row_action(r) for r in range(ROWS)] if player == self.too_low_owner else []
        if player == pyspiel.PlayerId.SIMULTANEOUS:
            return list(range(self._joint_actions()))
        return [card_action(c) for c in now.position.hands[player]]

    # a simultaneous node's joint moves as OpenSpiel numbers them ("flat" joint actions):
    # player 0's index into its legal actions is the lowest mixed-radix digit
    def _joint_actions(self) -> int:
        count = int(np.prod([len(h) for h in self.now.position.hands], dtype=np.float64))
        if count > MAX_JOINT_ACTIONS:
            raise pyspiel.SpielError(
                f"{count:.3g} joint moves at this node are too many to list: ask each"
                f" player's legal_actions(player) and play them with apply_actions")
        return count

    def _joint_to_actions(self, flat: int) -> List[int]:
        if not 0 <= flat < self._joint_actions():
            raise IllegalMoveError(f"joint action {flat} is not one of this node's"
                                   f" {self._joint_actions()}")
        actions = []
        for hand in self.now.position.hands:
            actions.append(card_action(hand[flat % len(hand)]))
            flat //= len(hand)
        return actions

    def chance_outcomes(self):
        left = sorted(set(range(1, self.setup.deck + 1)) - set(self.now.dealt))
        return [(card_action(c), 1.0 / len(left)) for c in left]

    def _refuse_illegal(self, actions: Sequence[int], joint: bool) -> None:
        """An action that is not legal here is refused before it changes the state (OpenSpiel
        leaves that to the game): a chance outcome among the cards left (`apply_action`), a
        row choice 0..3 (alone, or as the owner's entry of a joint action), each player's
        entry of a simultaneous move among its legal actions."""
        now = self.now
        if now.over:
            raise IllegalMoveError("the game is over: no action is legal")
        if now.position is None:
            if joint or actions[0] not in {a for a, _ in self.chance_outcomes()}:
                raise IllegalMoveError(f"a deal takes one card not dealt yet with apply_action"
                                       f" (action = card - 1), got {list(actions)}")
            return
        if joint and len(actions) != self.setup.players:
            raise IllegalMoveError(f"a joint action holds one action a player"
                                   f" ({self.setup.players}), got {list(actions)}")
        if now.pending is not None:
            owner = self.too_low_owner
            if not ROW_ACTION <= actions[owner if joint else 0] < ROW_ACTION + ROWS:
                raise IllegalMoveError(f"player {owner + 1} chooses a row here: action"
                                       f" {ROW_ACTION} + row (0..3), got {list(actions)}")
            return
        for k, action in enumerate(actions):
            if action not in self._legal_actions(k):
                raise IllegalMoveError(f"player {k + 1} cannot play action {action}: not a card"
                                       f" of their hand (action = card - 1)")

    def _apply_action(self, action):
        if self.now.position is not None and self.now.pending is None and not self.now.over:
            self._apply_actions(self._joint_to_actions(action))     # a flat joint action
            return
        self._refuse_illegal([action], joint=False)
        if self.now.position is None:
            # a deal changes no return: the rewards of the last move stand until the next
            # move, as OpenSpiel reads them at decision nodes only
            dealt = self.now.dealt + (action + 1,)
            self.now = replace(self.now, dealt=dealt)
            if len(dealt) == self.setup.deal_length:
                self._begin_round(dealt_position(self.setup.config, dealt))
            return
        choices = [None] * self.setup.players
        choices[self.too_low_owner] = action - ROW_ACTION
        self._play(self.now.pending, choices)

    def _apply_actions(self, actions):
        actions = list(actions)
        self._refuse_illegal(actions, joint=True)
        if self.now.pending is not None:
            # OpenSpiel's RL environment sends every move of a simultaneous game as a joint
            # action: at a row choice, the owner's entry is the row, the others have none
            self._apply_action(actions[self.too_low_owner])
            return
        cards = tuple(a + 1 for a in actions)
        # only the lowest card of a turn can be too low: it is resolved first, on these rows
        if target_row(self.now.position.rows, min(cards)) is None:
            self.now = replace(self.now, pending=cards, rewards=(0.0,) * self.setup.players)
        else:
            self._play(cards, [None] * self.setup.players)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action + 1}"
        if action >= ROW_ACTION:
            return f"take row {action - ROW_ACTION}"
        return f"play {action + 1}"

    def is_terminal(self):
        return self.now.over

    def returns(self):
        """2 players: the other's bullheads minus one's own (the exact solver's value for
        player 1); more: minus one's bullheads. Counted from the game's start."""
        taken = self.taken()
        if self.setup.players == 2:
            return [float(taken[1] - taken[0]), float(taken[0] - taken[1])]
        return [float(-t) for t in taken]

    def rewards(self):
        return list(self.now.rewards)

    def __str__(self):
        now = self.now
        if now.position is None:
            text = "dealt " + " ".join(str(c) for c in now.dealt)
        else:
            text = now.position.to_text()
        if now.pending is not None:
            text += "; revealed " + " ".join(str(c) for c in now.pending)
        if not self.setup.single_round:
            number = len(now.rounds) + (now.position is None)
            text += f"; round {number}, totals " + " ".join(map(str, self.totals()))
        return text

    # the game's bookkeeping --------------------------------------------------------------
    @property
    def too_low_owner(self) -> int:
        pending = self.now.pending
        return min(range(self.setup.players), key=lambda k: pending[k])

    def totals(self) -> Tuple[int, ...]:
        """Each player's bullheads: finished rounds and this one (a position's included)."""
        now = self.now
        if now.position is None:
            return now.banked
        return tuple(b + p for b, p in zip(now.banked, now.position.penalties))

    def taken(self) -> Tuple[int, ...]:
        """The bullheads each player took since the game's start."""
        start = self.setup.start.penalties if self.setup.start else (0,) * self.setup.players
        return tuple(t - s for t, s in zip(self.totals(), start))

    def _begin_round(self, position: Position) -> None:
        self.now = replace(self.now, position=position,
                           rounds=self.now.rounds + (RoundHistory(position),))
        self._end_round_if_over()

    def _play(self, cards: Tuple[int, ...], choices: Sequence[Optional[int]]) -> None:
        before = self.returns()
        history = self.now.rounds[-1]
        outcome = apply_turn(self.now.position, Turn(cards, tuple(choices)), len(history.turns))
        row = next((c for c in choices if c is not None), None)
        history = replace(history, turns=history.turns + ((cards, row),))
        self.now = replace(self.now, rounds=self.now.rounds[:-1] + (history,),
                           position=outcome.position, pending=None)
        self._end_round_if_over()
        self.now = replace(self.now, rewards=tuple(r - b for r, b in zip(self.returns(), before)))

    def _end_round_if_over(self) -> None:
        if self.now.position.hand_size > 0:
            return
        if self.setup.single_round or game_over(self.totals(), self.setup.config.threshold):
            self.now = replace(self.now, over=True)
        else:
            self.now = replace(self.now, banked=self.totals(), position=None, dealt=())

    # what a player sees ------------------------------------------------------------------
    def hand_of(self, player: int) -> Tuple[int, ...]:
        """The player's hand now: while dealing, their cards dealt so far; at a row choice,
        without the card they revealed."""
        now = self.now
        if now.position is None:
            size = self.setup.config.hand_size
            return tuple(sorted(now.dealt[player * size:(player + 1) * size]))
        hand = now.position.hands[player]
        return hand if now.pending is None else tuple(c for c in hand if c != now.pending[player])

    def rows_now(self) -> Tuple[Tuple[int, ...], ...]:
        if self.now.position is None:
            start = self.setup.players * self.setup.config.hand_size
            return tuple((c,) for c in self.now.dealt[start:])
        return self.now.position.rows

    def played_before(self) -> Tuple[int, ...]:
        """Cards played in the earlier turns of this round."""
        if self.now.position is None:
            return ()
        return tuple(sorted(c for cards, _ in self.now.rounds[-1].turns for c in cards))


class NimmtObserver:
    """Observations (perfect_recall False) and information states (True) of a seat, as
    tensors and strings, in the PyObserver interface of OpenSpiel's Python games; layout in
    docs/openspiel.md."""

    def __init__(self, iig_obs_type, params, setup: Setup):
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.setup = setup
        self.recall = iig_obs_type.perfect_recall
        self.public = iig_obs_type.public_info
        private = iig_obs_type.private_info
        self.private = ("all" if private == pyspiel.PrivateInfoType.ALL_PLAYERS else
                        "none" if private == pyspiel.PrivateInfoType.NONE else "single")
        n, deck = setup.players, setup.deck
        pieces = [("player", (n,))]
        hand = "start_hand" if self.recall else "hand"
        if self.private == "all" or (setup.start is not None and self.public):
            pieces.append((hand + "s", (n, deck)))
        elif self.private == "single":
            pieces.append((hand, (deck,)))
        if self.public and self.recall:
            pieces += [("start_rows", (ROWS, deck)), ("start_penalties", (n,)),
                       ("scores", (n,)), ("turns", (setup.max_turns, n, deck)),
                       ("row_choices", (setup.max_turns, ROWS))]
        elif self.public:
            pieces += [("rows", (ROWS, deck)), ("played", (deck,)), ("revealed", (n, deck)),
                       ("penalties", (n,)), ("scores", (n,))]
        self.tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in pieces), np.float32)
        self.dict = {}
        offset = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[offset:offset + size].reshape(shape)
            offset += size

    def _visible(self, player: int, k: int, given_round: bool) -> bool:
        """Whether `player` sees player k's hand: their own, every hand for ALL_PLAYERS, and
        in the round of a given position every hand (it is public: complete information)."""
        if self.private == "all" or (self.private == "single" and k == player):
            return True
        return given_round and self.public

    def _given_round(self, state: NimmtState, number: int) -> bool:
        return number == 0 and self.setup.start is not None

    def _hands(self, state: NimmtState, player: int, start: bool) -> List[Optional[Tuple]]:
        """The hands this observer shows (None: hidden), now or at the round's start (while
        dealing: the cards dealt so far)."""
        dealing = state.now.position is None
        given = not dealing and self._given_round(state, len(state.now.rounds) - 1)
        return [(state.now.rounds[-1].start.hands[k] if start and not dealing
                 else state.hand_of(k)) if self._visible(player, k, given) else None
                for k in range(self.setup.players)]

    def set_from(self, state: NimmtState, player: int) -> None:
        self.tensor.fill(0)
        d = self.dict
        d["player"][player] = 1
        hands = self._hands(state, player, self.recall)
        for name in ("hand", "start_hand"):
            if name in d:
                _mark(d[name], hands[player])
        for name in ("hands", "start_hands"):
            if name in d:
                for k, hand in enumerate(hands):
                    _mark(d[name][k], hand)
        if not self.public:
            return
        d["scores"][:] = state.now.banked
        if self.recall:
            self._set_history(state)
            return
        for r, row in enumerate(state.rows_now()):
            _mark(d["rows"][r], row)
        _mark(d["played"], state.played_before())
        for k, card in enumerate(state.now.pending or ()):
            d["revealed"][k, card - 1] = 1
        if state.now.position is not None:
            d["penalties"][:] = state.now.position.penalties

    def _set_history(self, state: NimmtState) -> None:
        d = self.dict
        if state.now.position is None:
            for r, row in enumerate(state.rows_now()):
                _mark(d["start_rows"][r], row)
            return
        history = state.now.rounds[-1]
        for r, row in enumerate(history.start.rows):
            _mark(d["start_rows"][r], row)
        d["start_penalties"][:] = history.start.penalties
        turns = history.turns + (((state.now.pending, None),) if state.now.pending else ())
        for t, (cards, row) in enumerate(turns):
            for k, card in enumerate(cards):
                d["turns"][t, k, card - 1] = 1
            if row is not None:
                d["row_choices"][t, row] = 1

    def string_from(self, state: NimmtState, player: int) -> str:
        parts = [f"player {player + 1}"]
        if self.recall:
            parts += self._history_text(state, player)
        else:
            parts.append(self._table_text(self._hands(state, player, False), state.rows_now(),
                                          state.now.position))
            if self.public:
                parts.append("played " + _cards(state.played_before()))
                if state.now.pending:
                    parts.append("revealed " + _cards(state.now.pending))
        if self.public and not self.setup.single_round:
            parts.append("totals " + " ".join(map(str, state.totals())))
        return "; ".join(parts)

    def _table_text(self, hands, rows, position: Optional[Position]) -> str:
        """The project's one-line notation, hidden hands as `?` (while dealing: the rows and
        hands dealt so far); without public information, the hands only."""
        if not self.public:
            return "hands " + ", ".join("?" if h is None else _cards(h) for h in hands)
        penalties = position.penalties if position is not None else (0,) * self.setup.players
        return format_notation(self.setup.deck, rows, hands, penalties)

    def _history_text(self, state: NimmtState, player: int) -> List[str]:
        """Every round this player saw: its start as they saw it, then each turn's cards and
        the row taken by choice; the current deal as far as dealt."""
        parts = []
        for number, history in enumerate(state.now.rounds):
            current = number == len(state.now.rounds) - 1 and state.now.position is not None
            given = self._given_round(state, number)
            hands = [h if self._visible(player, k, given) else None
                     for k, h in enumerate(history.start.hands)]
            parts.append(f"round {number + 1} "
                         + self._table_text(hands, history.start.rows, history.start))
            if not self.public:
                continue
            for cards, row in history.turns:
                parts.append("cards " + _cards(cards)
                             + (f" row {row}" if row is not None else ""))
            if current and state.now.pending:
                parts.append("cards " + _cards(state.now.pending) + " row to choose")
        if state.now.position is None and not state.now.over:
            parts.append(f"round {len(state.now.rounds) + 1} dealing "
                         + self._table_text(self._hands(state, player, False),
                                            state.rows_now(), None))
        return parts


def _mark(plane, cards) -> None:
    for card in cards or ():
        plane[card - 1] = 1


def _cards(cards: Sequence[int]) -> str:
    return " ".join(str(c) for c in cards) if cards else "-"


pyspiel.register_game(_game_type(), NimmtGame)
