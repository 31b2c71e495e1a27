"""`nimmt play`: a game against bots at the terminal."""
import random
import sys
from typing import Callable, List

import click

from .. import errors
from ..core.player import Player, PlayerView
from ..core.position import Position
from ..core.rules import GameConfig, two_player_variant
from ..core.turn import TurnOutcome
from ..errors import EndOfInput, GameQuit, plural, quote
from ..play.bots import make_bot, parse_bot_names
from ..play.runner import RoundResult, close_all, play_game
from ..reading import read_line
from ..text.render import describe_turn, render_position, render_row
from .app import SEED, VARIANTS, main, threshold_option


# play -------------------------------------------------------------------------------------
# the 2-player 24-card game: every card dealt, each hand known to the other; there the
# search player hands positions of 7 cards and fewer to the exact solver
COMPLETE_INFORMATION_BOT = "mcts"


class TerminalPlayer(Player):
    """The human at the terminal: reads cards and rows from stdin, re-asks on bad input;
    `hint` asks the `belief` bot what it would play in your seat (in the 2-player 24-card
    game, where the other hand is shown, the search player, exact from 7 cards)."""
    name = "you"

    def __init__(self, names: List[str]):
        self.names = names
        self.stdin = sys.stdin
        if self.stdin is None:               # started with stdin closed (<&-)
            raise errors.NimmtError("cannot read stdin: it is closed")

    def choose_card(self, view: PlayerView) -> int:
        click.echo()
        click.echo(render_position(self._position(view), names=self.names,
                                   scores=view.scores))
        return self._ask(f"turn {view.turn + 1}, your card", lambda n: n in view.hand,
                         f"play one of {' '.join(map(str, view.hand))}",
                         lambda: self._card_hint(view))

    def choose_row(self, view: PlayerView, card: int) -> int:
        revealed = ", ".join(f"{self.names[k]} {c}" for k, c in enumerate(view.revealed))
        click.echo(f"revealed: {revealed}")
        click.echo(f"your {card} is lower than every row end: take the row of your choice")
        for i, row in enumerate(view.rows):
            click.echo("  " + render_row(i, row))
        return self._ask("row to take (0-3)", lambda n: 0 <= n <= 3, "a row is 0, 1, 2 or 3",
                         lambda: self._row_hint(view, card))

    # hints: the default player of a hidden hand in your seat, seed 0 (the same view, the
    # same hint); in the 2-player 24-card game the search player, exact from 7 cards
    def _card_hint(self, view: PlayerView) -> str:
        from ..advice import DEFAULT_PLAYER, network_advice
        if len(view.hand) == 1:
            return f"hint: {view.hand[0]}, your last card"
        if two_player_variant(view.config.players, view.config.deck):
            bot = make_bot(COMPLETE_INFORMATION_BOT, 0)
            strategy = bot.card_strategy(view)
            if strategy is None:
                return f"hint: the search player would play {bot.choose_card(view)}"
            mix = ", ".join(f"{c} ({p:.0%})" for c, p in sorted(strategy.items()) if p > 0)
            return f"hint: the exact equilibrium plays {mix}"
        advice = network_advice(self._position(view), DEFAULT_PLAYER, 0, view)
        if advice.get("interrupted"):
            raise KeyboardInterrupt           # a Ctrl-C during the hint stops the game
        first = [f"{c['card']} ({'bullheads ' if i == 0 else ''}{c['expected_bullheads']:.1f},"
                 f" {'policy ' if i == 0 else ''}{c['probability']:.0%})"
                 for i, c in enumerate(advice["cards"][:3])]
        return (f"hint: {DEFAULT_PLAYER} would play {advice['play']}, the least score (the"
                f" bullheads a card is expected to cost you to the end of the round, plus the"
                f" policy's prior); its first choices {', '.join(first)}")

    @staticmethod
    def _row_hint(view: PlayerView, card: int) -> str:
        from ..advice import DEFAULT_PLAYER
        complete = two_player_variant(view.config.players, view.config.deck)
        player = COMPLETE_INFORMATION_BOT if complete else DEFAULT_PLAYER
        bot = make_bot(player, 0)
        row = bot.choose_row(view, card)
        if complete and bot.exact_applies(view, playing=1):
            return f"hint: the exact solver takes row {row}"
        hint = f"hint: {'the search player' if complete else player} would take row {row}"
        estimates = getattr(bot, "last_rows", None)     # a bot that searched the rows
        if estimates:
            hint += (", expecting you to take to the end of the round "
                     + ", ".join(f"{v:.1f} (row {r})" for r, v in enumerate(estimates)))
        return hint

    def _ask(self, prompt: str, valid: Callable[[int], bool], hint: str,
             advise: Callable[[], str]) -> int:
        while True:
            click.echo(f"{prompt}? ", nl=False)
            try:
                line = read_line(self.stdin, "the input")
            except KeyboardInterrupt:
                click.echo()              # the error line then starts a line of its own
                raise
            if not line:
                click.echo()
                raise EndOfInput("end of input: game abandoned")
            answer = line.strip().lower()
            if answer in ("q", "quit", "exit"):
                raise GameQuit()
            if answer in ("h", "hint", "?"):
                click.echo(f"  {advise()}")
                continue
            try:       # int() refuses digits such as '²' and more than 4,300 of them
                number = (int(answer) if answer.isascii() and answer.lstrip("-").isdigit()
                          else None)      # int() would read other scripts' digits too
            except ValueError:
                number = None
            if number is not None and valid(number):
                return number
            typed = line.strip().encode("utf-8", "surrogateescape").decode("utf-8", "replace")
            click.echo(f"  {quote(typed, 40)} is not possible: {hint} (or hint, or quit)")

    @staticmethod
    def _position(view: PlayerView) -> Position:
        hands = [list(view.hand) if k == view.seat else None for k in range(view.players)]
        if two_player_variant(view.config.players, view.config.deck):
            hands[1 - view.seat] = view.unseen()          # every card dealt: it is known
        return Position.create([list(r) for r in view.rows], hands, list(view.penalties),
                               view.config.deck)


@main.command()
@click.option("--players", "-n", type=click.IntRange(2, 10), default=4, show_default=True)
@click.option("--bots", default=None,
              help="Bots of seats 2..N, comma-separated, at most N - 1; fewer are seated in turn"
                   " (e.g. random,greedy)."
                   "  [default: belief, the strongest measured; mcts in the 2-player 10n+4"
                   " game, where it plays the exact equilibrium from 7 cards]")
@click.option("--variant", type=VARIANTS, default="standard", show_default=True)
@threshold_option
@click.option("--seed", type=SEED, default=None, help="Seed for reproducible deals and bots.")
@click.option("--record", "record_file", default=None, metavar="FILE.jsonl",
              help="Add each round's game record to FILE as the round ends (one a line; for"
                   " 'nimmt review FILE --round N').")
def play(players, bots, variant, threshold, seed, record_file):
    """Play a whole game against bots: you are player 1 (type a card, hint, or quit).

    \b
    Examples:
      nimmt play --players 3 --bots greedy,random --seed 1
      nimmt play --record games.jsonl; nimmt review games.jsonl --round 1
    """
    from ..play.recordsfile import RecordsFile

    config = GameConfig.named(players, variant, threshold=threshold)
    if bots is None:
        two_players = two_player_variant(config.players, config.deck)
        bots = COMPLETE_INFORMATION_BOT if two_players else "belief"
    names = parse_bot_names(bots)
    if len(names) > players - 1:
        raise errors.ConfigError(f"{len(names)} bots for the {players - 1} other seat"
                                 f"{'s' if players > 2 else ''} of a {players}-player game:"
                                 " give at most as many (fewer are seated in turn)")
    rng = random.Random(seed)
    seat_names = ["you"] + [f"{names[k % len(names)]}-{k + 2}" for k in range(players - 1)]
    seats: List[Player] = [TerminalPlayer(seat_names)]
    seats += [make_bot(names[k % len(names)], rng.getrandbits(64)) for k in range(players - 1)]

    def round_done(i: int, result: RoundResult, scores) -> None:
        if records is not None:
            records.write_round(result.record, seat_names, i + 1)
        click.echo(f"\nround {i + 1} over: " + ", ".join(
            f"{seat_names[k]} +{p} = {s}" for k, (p, s) in enumerate(zip(result.penalties, scores))))

    def turn_done(t: int, outcome: TurnOutcome) -> None:
        click.echo(describe_turn(t, outcome.turn.cards, outcome.taken, outcome.taken_rows,
                                 seat_names))

    records = None
    if record_file is not None:
        records = RecordsFile(record_file)
        records.open()

    def tell_kept() -> None:                # where the rounds finished are, if any
        if records is not None and records.kept():
            click.echo(records.kept())

    try:
        result = play_game(config, seats, rng.getrandbits(64), on_round=round_done,
                           on_turn=turn_done)
    except GameQuit:
        click.echo("game abandoned")
        result = None
    except EndOfInput:
        tell_kept()
        raise
    finally:
        close_all(seats)
        if records is not None:
            records.unlock()
    if result is not None:
        winners = " and ".join(seat_names[k] for k in result.winners)
        verb = "wins" if len(result.winners) == 1 and winners != "you" else "win"
        click.echo(f"\ngame over after {plural(len(result.rounds), 'round')}: {winners} {verb}")
    tell_kept()
