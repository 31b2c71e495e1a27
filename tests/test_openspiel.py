"""The OpenSpiel adapter (solver/openspiel.py, the `openspiel` extra): skipped where
open_spiel is not installed.

- Random games played through OpenSpiel's interface, every state checked against the
  project's own engine: each round's deal rebuilt from the chance outcomes as the rules deal
  it, its turns replayed as a game record (core.record), the row choice asked exactly when
  the lowest card is lower than every row end, the round and game ends, the returns.
- OpenSpiel's own checks (random_sim_test), hidden hands kept hidden.
- OpenSpiel's zero-sum solvers against the exact solver on 2-player positions of 1 to 3
  cards: value iteration (a linear program at each simultaneous node) and the sequence-form
  LP of the turn-based conversion (which reads the information states).
- The examples shown in docs/openspiel.md, run as shown: value iteration, and CFR+ through
  the turn-based conversion near the equilibrium.
"""
import os
import random
import re
import subprocess
import sys

import numpy as np
import pytest

from solver import solve
from solver.core.position import Position
from solver.core.record import replay
from solver.errors import ConfigError, NimmtError
from tests.positions_gen import random_midround

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROW_ACTIONS = [104, 105, 106, 107]


@pytest.fixture(scope="module")
def pyspiel():
    module = pytest.importorskip("pyspiel")
    import solver.openspiel  # noqa: F401  (registers python_nimmt)
    return module


def load(pyspiel, **params):
    return pyspiel.load_game("python_nimmt", params)


def expected_returns(taken):
    if len(taken) == 2:
        return [taken[1] - taken[0], taken[0] - taken[1]]
    return [-t for t in taken]


def marked(plane):
    return sorted(int(i) + 1 for i in np.flatnonzero(plane))


class Referee:
    """The game as the project's engine sees it, fed only what OpenSpiel shows: chance
    outcomes, each player's card, the row chosen."""

    def __init__(self, players, deck, hand_size, start=None):
        self.players, self.deck, self.hand_size = players, deck, hand_size
        self.start = start
        self.turns = []
        self.dealt = []
        self.banked = [0] * players
        self.start_penalties = list(start.penalties) if start else [0] * players

    def deal(self, card):
        self.dealt.append(card)
        n, h = self.players, self.hand_size
        if len(self.dealt) == n * h + 4:   # h cards to each in turn, then the 4 row cards
            hands = [sorted(self.dealt[k * h:(k + 1) * h]) for k in range(n)]
            rows = [[c] for c in self.dealt[n * h:]]
            self.start = Position.create(rows, hands, deck=self.deck)
            self.turns, self.dealt = [], []

    def position(self):
        return replay({**self.start.to_dict(), "turns": self.turns})

    def totals(self):
        now = self.position().penalties if self.start else (0,) * self.players
        return [b + p for b, p in zip(self.banked, now)]

    def end_round(self):
        self.banked = self.totals()
        self.start = None


def check_views(state, referee, observer, info, revealed=None):
    """Each player's observation and information state tensors, and legal cards, agree with
    the engine's position."""
    position = referee.position()
    for k in range(referee.players):
        observer.set_from(state, k)
        d = observer.dict
        assert np.array_equal(np.asarray(state.observation_tensor(k)), observer.tensor)
        hand = d["hand"] if "hand" in d else d["hands"][k]
        # a revealed card is out of its hand
        assert marked(hand) == [c for c in position.hands[k] if not revealed or c != revealed[k]]
        assert [marked(d["rows"][r]) for r in range(4)] == [list(r) for r in position.rows]
        assert d["penalties"].tolist() == list(position.penalties)
        assert d["scores"].tolist() == referee.banked
        played = sorted(c for turn in referee.turns for c in turn["cards"])
        assert marked(d["played"]) == played
        assert [marked(d["revealed"][j]) for j in range(referee.players)] == (
            [[c] for c in revealed] if revealed else [[]] * referee.players)
        if revealed is None:
            assert state.legal_actions(k) == [c - 1 for c in position.hands[k]]
        info.set_from(state, k)
        turns = referee.turns + ([{"cards": list(revealed)}] if revealed else [])
        for t, turn in enumerate(turns):
            assert [marked(info.dict["turns"][t, j]) for j in range(referee.players)] == [
                [c] for c in turn["cards"]]
            chosen = [r for r in turn.get("row_choices", []) if r is not None]
            assert np.flatnonzero(info.dict["row_choices"][t]).tolist() == chosen
        assert not info.dict["turns"][len(turns):].any()


def play_and_check(pyspiel, params, seed, start=None):
    from open_spiel.python.observation import INFO_STATE_OBS_TYPE, make_observation
    game = load(pyspiel, **params)
    players = params.get("players", 2)
    deck = 104 if params.get("variant", "standard") == "standard" else 10 * players + 4
    referee = Referee(players, deck, params.get("hand_size", 10), start)
    single, threshold = params.get("single_round", False), params.get("threshold", 66)
    observer, info = make_observation(game), make_observation(game, INFO_STATE_OBS_TYPE)
    rng = random.Random(seed)
    state = game.new_initial_state()
    rounds = 0
    while not state.is_terminal():
        if referee.start is None:
            assert state.is_chance_node()
            outcomes = state.chance_outcomes()
            left = sorted(set(range(1, deck + 1)) - set(referee.dealt))
            assert [a + 1 for a, _ in outcomes] == left
            assert all(p == pytest.approx(1 / len(left)) for _, p in outcomes)
            card = rng.choice(left)
            state.apply_action(card - 1)
            referee.deal(card)
            continue
        assert state.is_simultaneous_node()
        check_views(state, referee, observer, info)
        taken = [t - s for t, s in zip(referee.totals(), referee.start_penalties)]
        assert state.returns() == expected_returns(taken)
        position = referee.position()
        cards = [rng.choice(hand) for hand in position.hands]
        state.apply_actions([c - 1 for c in cards])
        turn = {"cards": cards}
        low = cards.index(min(cards))
        if min(cards) < min(row[-1] for row in position.rows):
            # rules.md: the lowest card, lower than every row end, makes its owner choose
            assert state.current_player() == low
            assert state.legal_actions() == ROW_ACTIONS
            assert all(state.legal_actions(k) == [] for k in range(players) if k != low)
            check_views(state, referee, observer, info, revealed=cards)
            row = rng.randrange(4)
            state.apply_action(104 + row)
            turn["row_choices"] = [row if k == low else None for k in range(players)]
        referee.turns.append(turn)
        if not referee.position().hand_size:
            rounds += 1
            over = single or max(referee.totals()) >= threshold
            assert state.is_terminal() == over
            if not over:
                referee.end_round()
        else:
            assert state.is_simultaneous_node()
    taken = [t - s for t, s in zip(referee.totals(), referee.start_penalties)]
    assert state.returns() == expected_returns(taken)
    return rounds


GAMES = [
    ({"players": 2}, 0),
    ({"players": 2, "variant": "10n+4", "single_round": True}, 1),
    ({"players": 2, "variant": "10n+4", "threshold": 30}, 2),
    ({"players": 3, "threshold": 25}, 3),
    ({"players": 5, "variant": "10n+4", "single_round": True}, 4),
    ({"players": 5, "threshold": 20, "hand_size": 6}, 5),
    ({"players": 10, "single_round": True}, 6),
    ({"players": 10, "variant": "10n+4", "threshold": 15}, 7),
]


@pytest.mark.parametrize("params,seed", GAMES, ids=[str(p) for p, _ in GAMES])
def test_random_games_follow_the_engine(pyspiel, params, seed):
    rounds = play_and_check(pyspiel, params, seed)
    assert rounds == 1 if params.get("single_round") else rounds >= 1


def test_a_game_from_a_position_goes_on_with_deals(pyspiel):
    start = Position.from_text("24; 3 10, 7, 12 15 18, 21; 1 2 4, 5 6 8; 7 2")
    rounds = play_and_check(pyspiel, {"position": start.to_text(), "variant": "10n+4",
                                      "threshold": 20}, 8, start=start)
    assert rounds >= 2


def test_openspiel_random_simulations(pyspiel):
    for params in [{}, {"players": 4, "variant": "10n+4", "single_round": True},
                   {"players": 3, "hand_size": 6, "threshold": 10},
                   {"position": "24; 3 10, 7, 12 15 18, 21; 1 2 4, 5 6 8; 7 2",
                    "variant": "10n+4", "single_round": True}]:
        pyspiel.random_sim_test(load(pyspiel, **params), num_sims=2, serialize=True,
                                verbose=False)


def test_flat_joint_actions_and_games_from_a_position_in_strings_and_pickles(pyspiel):
    """`legal_actions()` at a turn lists OpenSpiel's flat joint actions (player 0's index the
    lowest digit), which `apply_action` plays; a game from a position (its notation's commas)
    goes through its own string and a pickle."""
    import pickle
    game = load(pyspiel, players=3, hand_size=4, single_round=True)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    hands = [state.legal_actions(k) for k in range(3)]
    assert state.legal_actions() == list(range(4 ** 3))
    other = state.clone()
    state.apply_action(1 + 4 * 2 + 16 * 3)
    other.apply_actions([hands[0][1], hands[1][2], hands[2][3]])
    assert str(state) == str(other)
    with pytest.raises(pyspiel.SpielError, match="too many to list"):
        big = load(pyspiel, players=7).new_initial_state()
        while big.is_chance_node():
            big.apply_action(big.legal_actions()[0])
        big.legal_actions()
    game = load(pyspiel, position="24; 9, 14, 16, 24; 3 10, 1 11", variant="10n+4",
                single_round=True)
    assert "position=24; 9/ 14/ 16/ 24; 3 10/ 1 11" in str(game)
    assert str(pyspiel.load_game(str(game))) == str(game)
    state = game.new_initial_state()
    assert str(pickle.loads(pickle.dumps(state))) == str(state)


def test_an_illegal_action_is_refused_and_leaves_the_state_as_it_was(pyspiel):
    """A card dealt twice, a card not in hand, a row action at a turn, a card at a row
    choice, a joint action of the wrong length, anything after the end: IllegalMoveError,
    the state unchanged and still playable."""
    from solver.errors import IllegalMoveError
    game = load(pyspiel, players=2, hand_size=2, single_round=True, variant="10n+4")
    state = game.new_initial_state()
    state.apply_action(4)
    illegal = [lambda s: s.apply_action(4), lambda s: s.apply_action(200),
               lambda s: s.apply_actions([1, 2])]
    for action in (5, 6, 7, 19, 20, 21, 22):       # player 1 holds 5 6, player 2 7 8
        state.apply_action(action)
    turn = state.clone()
    illegal += [lambda s: s.apply_actions([6, 4]), lambda s: s.apply_actions([4]),
                lambda s: s.apply_actions([4, 107]), lambda s: s.apply_action(4 ** 2)]
    row_choice = turn.clone()
    row_choice.apply_actions([4, 6])                # 5 is lower than every row end
    illegal += [lambda s: s.apply_action(5), lambda s: s.apply_actions([5, 104])]
    done = row_choice.clone()
    done.apply_action(105)
    done.apply_actions([5, 7])
    done.apply_action(104)
    assert done.is_terminal()
    illegal += [lambda s: s.apply_actions([0, 1])]
    for at, tries in ((state, illegal[:0]), (turn, illegal[3:7]), (row_choice, illegal[7:9]),
                      (done, illegal[9:])):
        for attempt in tries:
            before = str(at)
            with pytest.raises(IllegalMoveError):
                attempt(at)
            assert str(at) == before
    dealing = game.new_initial_state()
    dealing.apply_action(4)
    for attempt in illegal[:3]:
        with pytest.raises(IllegalMoveError):
            attempt(dealing)
    dealing.apply_action(5)
    assert str(dealing) == "dealt 5 6"
    row_choice.apply_action(104)                    # still playable after the refusals
    assert row_choice.current_player() == pyspiel.PlayerId.SIMULTANEOUS


def test_the_rl_environment_plays_whole_games(pyspiel):
    """OpenSpiel's RL environment sends joint actions at every node, the row choice too (the
    players without a move send anything); the rewards it hands out add up to the returns."""
    from open_spiel.python import rl_environment
    env = rl_environment.Environment("python_nimmt", players=4, threshold=30)
    rng = random.Random(5)
    rows_chosen = 0
    for _ in range(3):
        step = env.reset()
        total = [0.0] * 4
        while not step.last():
            legal = step.observations["legal_actions"]
            rows_chosen += any(actions == ROW_ACTIONS for actions in legal)
            step = env.step([rng.choice(actions) if actions else 0 for actions in legal])
            total = [t + r for t, r in zip(total, step.rewards)]
        assert total == env.get_state.returns() and max(total) <= 0 and min(total) <= -30
    assert rows_chosen > 0


def test_game_info(pyspiel):
    two = load(pyspiel, variant="10n+4", single_round=True)
    assert two.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert two.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert two.num_distinct_actions() == 108 and two.max_chance_outcomes() == 24
    assert two.max_utility() == -two.min_utility() == sum(
        min(7, 5 if c % 11 == 0 else 3 if c % 10 == 0 else 2 if c % 5 == 0 else 1)
        for c in range(1, 25))
    many = load(pyspiel, players=4)
    assert many.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert many.max_utility() == 0
    given = load(pyspiel, position="24; 9, 14, 16, 24; 3 10, 1 11", variant="10n+4",
                 single_round=True)
    assert given.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    state = given.new_initial_state()
    # a given position is of complete information: both hands are public
    table = "24; 9, 14, 16, 24; 3 10, 1 11; 0 0"
    assert state.information_state_string(1) == f"player 2; round 1 {table}"
    assert state.observation_string(0) == f"player 1; {table}; played -"


def test_hidden_hands_stay_hidden(pyspiel):
    """Player 1 cannot tell two deals apart that differ only in how the others' cards are
    split; player 2 can."""
    game = load(pyspiel, players=3, single_round=True)
    cards = random.Random(9).sample(range(1, 105), 34)
    swapped = cards[:10] + cards[20:30] + cards[10:20] + cards[30:]
    states = []
    for deal in (cards, swapped):
        state = game.new_initial_state()
        for card in deal:
            state.apply_action(card - 1)
        states.append(state)
    a, b = states
    for view in ("information_state_string", "information_state_tensor",
                 "observation_string", "observation_tensor"):
        assert getattr(a, view)(0) == getattr(b, view)(0), view
        assert getattr(a, view)(1) != getattr(b, view)(1), view
    assert "?, ?" in a.observation_string(0)


def test_the_strings_shown_in_the_docs(pyspiel):
    """docs/openspiel.md's strings: a 4-player deal (seed 3), player 1's 9 too low."""
    text = open(os.path.join(ROOT, "docs/openspiel.md"), encoding="utf-8").read()
    shown = re.findall(r"^```text\n(player 1; .*)\n```", text, re.M)
    game = load(pyspiel, players=4)
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    state.apply_actions([rng.choice(state.legal_actions(k)) for k in range(4)])
    assert state.current_player() == 0
    assert shown == [state.observation_string(0), state.information_state_string(0)]


def test_observation_types(pyspiel):
    """Every hand, none, or no public information: the pieces and strings follow."""
    from open_spiel.python.observation import make_observation
    game = load(pyspiel, players=3, single_round=True)
    state = game.new_initial_state()
    for card in random.Random(2).sample(range(1, 105), 34):
        state.apply_action(card - 1)
    hands = [[a + 1 for a in state.legal_actions(k)] for k in range(3)]
    kind = pyspiel.PrivateInfoType
    for recall in (False, True):
        hand = "start_hand" if recall else "hand"
        for private, public, pieces in [
                (kind.ALL_PLAYERS, True, {hand + "s", "scores"}),
                (kind.NONE, True, {"scores"}),
                (kind.SINGLE_PLAYER, False, {hand})]:
            observer = make_observation(game, pyspiel.IIGObservationType(
                public_info=public, perfect_recall=recall, private_info=private))
            observer.set_from(state, 1)
            assert pieces <= set(observer.dict) and "player" in observer.dict
            text = observer.string_from(state, 1)
            shown = {kind.ALL_PLAYERS: hands, kind.NONE: [None] * 3,
                     kind.SINGLE_PLAYER: [None, hands[1], None]}[private]
            assert ", ".join("?" if h is None else " ".join(map(str, h))
                             for h in shown) in text
            if private == kind.ALL_PLAYERS:
                assert [marked(observer.dict[hand + "s"][k]) for k in range(3)] == hands
            if not public:
                assert set(observer.dict) == {"player", hand}


def lp_solver_or_skip():
    """OpenSpiel's LP solver (its value iteration and sequence-form LP use it), or a skip: it
    imports cvxopt up to open_spiel 1.6.1, cvxpy calling ECOS in later versions."""
    module = pytest.importorskip("open_spiel.python.algorithms.lp_solver")
    if hasattr(module, "cp"):
        pytest.importorskip("ecos")


def test_value_iteration_matches_the_exact_solver(pyspiel):
    lp_solver_or_skip()
    from open_spiel.python.algorithms import value_iteration
    worst = 0.0
    for size in (1, 2, 3):
        for k in range(4):
            position = random_midround(random.Random(100 * size + k), size)
            game = load(pyspiel, position=position.to_text(), variant="10n+4", single_round=True)
            values = value_iteration.value_iteration(game, -1, 1e-10)
            value = values[str(game.new_initial_state())]
            exact = solve(position).value
            assert value == pytest.approx(exact, abs=1e-6), position.to_text()
            worst = max(worst, abs(value - exact))
    assert worst < 1e-6


def test_sequence_form_lp_on_the_turn_based_game_matches_the_exact_solver(pyspiel):
    """The turn-based conversion lets player 2 choose unseen after player 1: its information
    states must hide player 1's card, or the LP's value would be player 2's best reply."""
    lp_solver_or_skip()
    from open_spiel.python.algorithms import sequence_form_lp
    for size in (1, 2, 3):
        for k in range(2):
            position = random_midround(random.Random(100 * size + k), size)
            game = load(pyspiel, position=position.to_text(), variant="10n+4", single_round=True)
            value, _, _, _ = sequence_form_lp.solve_zero_sum_game(
                pyspiel.convert_to_turn_based(game))
            assert value == pytest.approx(solve(position).value, abs=1e-6), position.to_text()


@pytest.mark.parametrize("params,message", [
    ({"players": 11}, "players must be 2..10, got 11"),
    ({"variant": "pro"}, "unknown variant 'pro' (standard or 10n+4)"),
    ({"position": "24; 9, 14, 16, 24; 3 10, 1 11"},
     "position has deck 24 but variant standard with 2 players has 104 cards"),
    ({"position": "24; 9, 14, 16, 24; 3 10, ?", "variant": "10n+4"},
     "position: every hand must be visible"),
    ({"position": "24; 9, 14, 16, 24; 3 10, 1 11", "variant": "10n+4", "players": 3},
     "position has 2 players but players = 3"),
    ({"hand_size": 5}, "a whole game needs more than 16 cards played a round"),
    ({"position": "24; 9, 14"}, "expected 'DECK; ROWS; HANDS[; PENALTIES]'"),
])
def test_bad_parameters_are_refused_in_one_line(pyspiel, params, message):
    with pytest.raises(NimmtError) as refused:
        load(pyspiel, **params)
    assert message in str(refused.value) and "\n" not in str(refused.value)
    if "players" in params or "hand_size" in params:
        assert isinstance(refused.value, ConfigError)


def test_without_open_spiel_the_import_says_what_to_install():
    done = subprocess.run(
        [sys.executable, "-c",
         "import sys; sys.modules['pyspiel'] = None; import solver.openspiel"],
        cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT), capture_output=True, text=True)
    assert done.returncode != 0
    assert done.stderr.strip().splitlines()[-1] == (
        "ImportError: the OpenSpiel adapter needs open_spiel: pip install 'nimmt[openspiel]'"
        " (or open_spiel)")


def shown_examples(path):
    """The ```python blocks of a document that load python_nimmt (shown, not doctests):
    each with the outputs its `print` lines state in their comments."""
    text = open(os.path.join(ROOT, path), encoding="utf-8").read()
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)
    return [b for b in blocks if "python_nimmt" in b and ">>>" not in b]


def test_the_shown_examples_print_what_they_say(pyspiel, capsys):
    lp_solver_or_skip()
    examples = shown_examples("docs/openspiel.md")
    assert len(examples) == 2     # value iteration, CFR+
    for code in examples:
        expected = [line.rsplit("# ", 1)[1].strip() for line in code.splitlines()
                    if line.startswith("print(")]
        exec(compile(code, "docs/openspiel.md", "exec"), {})
        assert capsys.readouterr().out.splitlines() == expected
