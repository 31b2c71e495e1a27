"""The games file of a tournament (`nimmt tournament --out FILE`): a `linefile.LineFile`
whose first line describes the tournament and each further line is one finished game, so
that a stopped tournament resumes where it stopped and a finished one keeps its games.

Line 1: `{"tournament": {"players", "deck", "threshold", "seed", "bots"}}`; then one line a
game, in the order they finish: `{"game": g, "seats": [bot of each seat], "rounds": [[the
bullheads of each seat in a round], ...], "scores": [each seat's total], "winners": [the
seats, numbered 1..N, of the lowest total], "records": [each round's game record]}`. Games
are seeded one by one from the tournament's seed (tournament.py), so a game read back is
the game a new run would play: a resumed tournament sums up as one run would. A file of
another tournament is refused; one of the same tournament with more games than asked lends
the first `games` of them.
"""
from typing import Any, Dict, List

from .. import errors
from ..core.record import position_after, replay_steps
from ..core.rules import HAND_SIZE
from ..linefile import LineFile, json_line
from .runner import GameResult, game_over
from .tournament import GameSummary, lineup

ADVICE = "give a new --out file (or remove this one)"


class GamesFile(LineFile):
    def __init__(self, path: str):
        super().__init__(path, "nimmt tournament")
        self.torn_bytes = 0            # of a torn last line that `resume` removed

    def resume(self, header: Dict[str, Any]) -> Dict[int, GameSummary]:
        """The games the file holds ({game number: summary}) once a torn last line is
        removed; a new (or empty) file gets its first line. `header`: this tournament's
        description (`tournament.describe`); a file of another is refused, as is one whose
        lines are not games of it, and left as it was."""
        lines = self.run_lines({"tournament": header},
                               lambda record: is_game(record, header))
        if not lines:
            self.torn_bytes = self._size      # a torn first line, replaced by this run's
            return {}
        first = json_line(lines[0], True)
        if not (isinstance(first, dict) and isinstance(first.get("tournament"), dict)):
            raise errors.NimmtError(f"{self.name} is not a games file of 'nimmt tournament':"
                                    f" its first line does not describe a tournament; {ADVICE}")
        theirs = first["tournament"]
        for key, ours in header.items():
            if theirs.get(key) != ours:
                raise errors.NimmtError(
                    f"{self.name} holds the games of another tournament (its {key}"
                    f" {errors.quote_json(theirs.get(key), 60)}, this one's"
                    f" {errors.quote_json(ours, 60)}); {ADVICE}")
        games: Dict[int, GameSummary] = {}
        for number, raw in enumerate(lines[1:], 2):
            if not raw.strip():
                continue                   # a blank line (an editor's): no game, no harm
            record = json_line(raw, False)
            try:
                summary = game_of(record, header)
                if record["game"] in games:
                    raise NotAGame(f"game {record['game']} is there twice")
                games[record["game"]] = summary
            except NotAGame as why:
                raise errors.NimmtError(
                    f"{self.name}: its line {number} is not a game of this tournament ({why});"
                    f" remove that line (the game is played again) or give a new --out"
                    f" file") from None
        self.torn_bytes = self.cut_torn_line()
        return games

    def write_game(self, game: int, seats, summary: GameSummary, written=None) -> None:
        """Append a finished game, on disk when this returns (then `written()`, before a
        Ctrl-C held meanwhile takes its course)."""
        line = {"game": game, "seats": list(seats),
                "rounds": [list(r) for r in summary.round_penalties],
                "scores": list(summary.scores), "winners": [k + 1 for k in summary.winners]}
        if summary.records is not None:
            line["records"] = summary.records
        self.append(line, written)


def _counts(value: Any, players: int) -> bool:
    return (isinstance(value, list) and len(value) == players
            and all(errors.is_integer(v) and v >= 0 for v in value))


class NotAGame(Exception):
    """Why a line of a games file is not a whole game of its tournament."""


def game_of(record: Any, header: Dict[str, Any]) -> GameSummary:
    """A game line's summary; `NotAGame`, saying the first thing wrong, when it is not a
    whole game of the tournament described by `header`: its number, its seats by the
    rotation, the seat counts of its numbers, and numbers that agree (each total the sum of
    its seat's rounds, the game over at its last round and not before, the winners the
    lowest totals, each round's record replayed by the rules to that round's bullheads)."""
    players, threshold = header["players"], header["threshold"]
    if not (isinstance(record, dict) and errors.is_integer(record.get("game"))
            and record["game"] >= 0):
        raise NotAGame("no game number, a whole number from 0")
    rounds, winners = record.get("rounds"), record.get("winners")
    if record.get("seats") != lineup(header["bots"], players, record["game"]):
        raise NotAGame(f"its seats are not game {record['game']}'s turn of the bots")
    if not (isinstance(rounds, list) and rounds and all(_counts(r, players) for r in rounds)):
        raise NotAGame(f"its rounds are not lists of {players} bullhead counts")
    if not _counts(record.get("scores"), players):
        raise NotAGame(f"its scores are not {players} totals")
    if not (isinstance(winners, list) and winners
            and all(errors.is_integer(k) and 1 <= k <= players for k in winners)):
        raise NotAGame(f"its winners are not seats 1 to {players}")
    scores = [sum(r[seat] for r in rounds) for seat in range(players)]
    before = [s - last for s, last in zip(scores, rounds[-1])]
    if record["scores"] != scores:
        raise NotAGame(f"its scores {record['scores']} are not the sums of its rounds"
                       f" {scores}")
    if game_over(before, threshold):
        raise NotAGame(f"a total reached {threshold} before its last round")
    if not game_over(scores, threshold):
        raise NotAGame(f"no total reaches {threshold}: the game is not over")
    if winners != [k + 1 for k in GameResult(scores=tuple(scores)).winners]:
        raise NotAGame(f"its winners {winners} are not the seats of the lowest total")
    records = record.get("records")
    if records is not None:
        if not (isinstance(records, list) and len(records) == len(rounds)):
            raise NotAGame("its records are not one for each round")
        for number, (one, taken) in enumerate(zip(records, rounds), 1):
            if not _replays_to(one, taken, header):
                raise NotAGame(f"round {number}'s record, replayed by the rules, does not"
                               f" give that round's bullheads")
    return GameSummary([tuple(r) for r in rounds], tuple(record["scores"]),
                       [k - 1 for k in winners])


def is_game(record: Any, header: Dict[str, Any]) -> bool:
    try:
        game_of(record, header)
    except NotAGame:
        return False
    return True


def _replays_to(record: Any, taken: List[int], header: Dict[str, Any]) -> bool:
    """A whole round of the tournament's game whose turns give these bullheads."""
    if not (isinstance(record, dict) and record.get("deck") == header["deck"]):
        return False
    try:
        start, outcomes = replay_steps(record)
    except errors.NimmtError:
        return False
    end = position_after(start, outcomes)
    return (start.players == header["players"] and start.hand_size == HAND_SIZE
            and end.hand_size == 0
            and [b - a for a, b in zip(start.penalties, end.penalties)] == taken)
