"""Bots as programs, both ends of one protocol: a bot that is another program
(`program:path=FILE`, `ProgramBot`) sits at nimmt's tables (`tournament`, `play`, the paired
benchmarks) by reading and writing lines, whatever its language; and `nimmt engine`
(`serve`) answers the same lines with one of nimmt's bots, for a table that is not
nimmt's.

The protocol (docs/formats.md, "Program bots"): nimmt starts FILE once per seat and game,
with no arguments and the bot's seed in the environment (`NIMMT_SEED`), and writes one JSON
object a line to its standard input:

- `{"ask": "card", "view": VIEW}`: the program answers with a line holding its card;
- `{"ask": "row", "card": C, "view": VIEW}`: its card C is lower than every row end; it
  answers with a line holding the row it takes (0..3);
- `{"tell": "round_over", "record": RECORD, "penalties": [...]}`: the round's game record,
  as `nimmt play --record` writes it; no answer.

VIEW is the seat's `PlayerView` as JSON, players counted from 1 (`view_dict`). At the end of
the game nimmt closes the program's input; a program still running a moment later is
killed. An answer that is no card in hand (or no row), a program that ends, or one that
does not answer within `seconds` (default 60) stops the game with one line saying so.
Its standard error is the terminal's: a program may print its own diagnostics there.
"""
import errno
import json
import os
import re
import select
import signal
import subprocess
import time
import weakref
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from ..core.jsontext import parse_json
from ..core.player import Player, PlayerView
from ..core.position import MAX_PENALTY, ROUND_ALLOWANCE
from ..core.rules import (GameConfig, UnneededRowChoice, play_recorded_turn, row_bullheads,
                          target_row)
from ..errors import ConfigError, IllegalMoveError, NimmtError, is_integer, quote, quote_json
from ..limits import MAX_SECONDS

DEFAULT_SECONDS = 60.0      # to answer one question: a program that hangs stops the game
CLOSE_SECONDS = 2.0         # after its input closes, before a program still running is killed
MAX_LINE = 1 << 20          # an answer longer than this is no card
DIGITS = re.compile(rb"-?[0-9]+")


def view_dict(view: PlayerView) -> Dict[str, Any]:
    """A view as the program reads it: every field of `PlayerView`, players and turns
    counted from 1 (rows from 0, as in records)."""
    return {"players": view.players, "deck": view.config.deck,
            "threshold": view.config.threshold, "seat": view.seat + 1, "turn": view.turn + 1,
            "hand": list(view.hand), "rows": [list(r) for r in view.rows],
            "start_rows": [list(r) for r in view.start_rows],
            "played": [list(t) for t in view.played],
            "row_choices": [list(t) for t in view.row_choices],
            "penalties": list(view.penalties), "scores": list(view.scores),
            "out_of_play": list(view.out_of_play),
            "revealed": None if view.revealed is None else list(view.revealed)}


def view_from_dict(data: Any) -> PlayerView:
    """The `PlayerView` of a VIEW (`view_dict`'s inverse); a ConfigError saying what is wrong
    with a malformed one."""
    if not isinstance(data, dict):
        raise ConfigError(f"a view is a JSON object, got {quote_json(data, 60)}")
    missing = [key for key in VIEW_KEYS if key not in data]
    if missing:
        raise ConfigError(f"the view lacks {', '.join(repr(k) for k in missing)}")

    def cards(value: Any, what: str) -> Tuple[int, ...]:
        if not (isinstance(value, list) and all(is_integer(c) for c in value)):
            raise ConfigError(f"the view's {what} must be a list of integers, got"
                              f" {quote_json(value, 60)}")
        return tuple(value)

    def table(value: Any, what: str, none: bool = False) -> Tuple[Tuple[Any, ...], ...]:
        if not (isinstance(value, list) and all(isinstance(t, list) for t in value)):
            raise ConfigError(f"the view's {what} must be a list of lists, got"
                              f" {quote_json(value, 60)}")
        if none:
            return tuple(tuple(None if c is None else cards([c], what)[0] for c in t)
                         for t in value)
        return tuple(cards(t, what) for t in value)

    for key in ("players", "deck", "threshold", "seat", "turn"):
        if not is_integer(data[key]):
            raise ConfigError(f"the view's {key!r} must be an integer, got"
                              f" {quote_json(data[key], 60)}")
    config = GameConfig(players=data["players"], deck=data["deck"],
                        threshold=data["threshold"])
    if not 1 <= data["seat"] <= config.players:
        raise ConfigError(f"the view's seat must be 1..{config.players}, got {data['seat']}")
    rows = data["rows"]
    if not (isinstance(rows, list) and len(rows) == 4
            and all(isinstance(r, list) and 1 <= len(r) <= 5 for r in rows)):
        raise ConfigError(f"the view's rows must be 4 rows of 1..5 cards, got"
                          f" {quote_json(rows, 60)}")
    revealed = data["revealed"]
    view = PlayerView(config, data["seat"] - 1, table(data["rows"], "rows"),
                      cards(data["hand"], "hand"), table(data["start_rows"], "start_rows"),
                      table(data["played"], "played"), cards(data["penalties"], "penalties"),
                      cards(data["scores"], "scores"), data["turn"] - 1,
                      None if revealed is None else cards(revealed, "revealed"),
                      table(data["row_choices"], "row_choices", none=True),
                      cards(data["out_of_play"], "out_of_play"))
    check_view(view)
    return view


def check_view(view: PlayerView) -> None:
    """What `PlayerView` leaves unchecked (the views nimmt makes are right by construction), for
    a view that comes from another tool: each turn's cards and row choices one per seat, every
    card in the deck, rows rising, no card twice on the rows or both in hand and elsewhere, no
    negative count."""
    n, deck = view.players, view.config.deck
    if any(len(t) != n for t in view.played) or len(view.row_choices) != len(view.played) \
            or any(len(t) != n for t in view.row_choices):
        raise ConfigError(f"the view's played and row_choices must hold one list of {n} a"
                          " turn, as many of each")
    if any(r is not None and not 0 <= r <= 3 for t in view.row_choices for r in t):
        raise ConfigError("the view's row_choices must be rows 0..3 or null")
    asked_row = view.revealed is not None       # a row question: the hand lacks its card
    # `played` holds every earlier turn, or none: a position given without its history
    # (as `position_view` makes it) starts its rows there
    if len(view.played) not in (0, view.turn) \
            or len(view.hand) + view.turn + asked_row != view.config.hand_size:
        raise ConfigError(f"the view's turn {view.turn + 1} does not fit its {len(view.played)}"
                          f" turns played and {len(view.hand)} cards in hand (a round deals"
                          f" {view.config.hand_size} a hand; played holds every earlier turn,"
                          " or none)")
    on_rows = [c for row in view.rows for c in row]
    played = [c for t in view.played for c in t]
    seen = on_rows + played \
        + [c for row in view.start_rows for c in row] + list(view.out_of_play) \
        + list(view.revealed or ())
    if any(not 1 <= c <= deck for c in seen):
        raise ConfigError(f"the view's cards must be 1..{deck}")
    if len(view.start_rows) != 4:
        raise ConfigError("the view's start_rows must be 4 rows")
    falling = [list(r) for r in view.rows + view.start_rows if list(r) != sorted(set(r))]
    if falling or len(set(on_rows)) != len(on_rows):
        raise ConfigError("the view's rows must each rise, card by card, no card twice"
                          + (f": {falling[0]}" if falling else ": a card on two rows"))
    # a hand card twice, on the rows, played or revealed: PlayerView refused it already
    gone = sorted(set(view.hand) & set(seen))
    if gone:
        raise ConfigError(f"card {gone[0]} of the view's hand is also among the round's first"
                          f" cards or out of play")
    if len(set(played)) != len(played):
        raise ConfigError("a card is played twice in the view's played turns")
    if asked_row:
        revealed = list(view.revealed)
        if len(revealed) != n or len(set(revealed)) != n \
                or set(revealed) & set(on_rows + played + list(view.out_of_play)):
            raise ConfigError(f"the view's revealed must be this turn's {n} cards, one a seat,"
                              " none of them on the rows, played before or out of play")
    if not all(0 <= p <= MAX_PENALTY + ROUND_ALLOWANCE for p in view.penalties) \
            or not all(0 <= p <= MAX_PENALTY for p in view.scores):
        raise ConfigError(f"the view's penalties and scores must be 0..{MAX_PENALTY:,} (the"
                          f" penalties of a round that began there a little more)")
    out = list(view.out_of_play)
    if len(set(out)) != len(out) or set(out) & set(on_rows + played + [
            c for row in view.start_rows for c in row]):
        raise ConfigError("the view's out_of_play must hold each card once, none of them on"
                          " the rows or played this round")
    hidden, unseen = (n - 1) * len(view.hand), len(view.unseen())
    if unseen < hidden:
        raise ConfigError(f"the view's {n - 1} other hands of {len(view.hand)} cards need"
                          f" {hidden} unseen cards, only {unseen} are left (the others are"
                          " in hand, on the table, played or out of play)")
    check_history(view)


def check_history(view: PlayerView) -> None:
    """The earlier turns played by the rules from `start_rows` (each too-low card taking the
    row of `row_choices`) lead to `rows`, and no seat has fewer bullheads in `penalties` than
    those turns gave it (more: taken before the start, as a record that begins mid-round)."""
    rows: List[List[int]] = [list(r) for r in view.start_rows]
    taken = [0] * view.players
    for t, (cards, choices) in enumerate(zip(view.played, view.row_choices)):
        try:
            rows, took, _ = play_recorded_turn(rows, cards, choices)
        except UnneededRowChoice as exc:
            raise ConfigError(f"the view's turn {t + 1} gives a row choice to seat"
                              f" {exc.seat + 1}, whose card {cards[exc.seat]} was not lower"
                              f" than every row end") from None
        except (ValueError, TypeError):
            raise ConfigError(f"the view's turn {t + 1} cannot be played on its rows") from None
        for k, cards_taken in enumerate(took):
            taken[k] += row_bullheads(cards_taken)
    now = [list(r) for r in view.rows]
    if now != rows:
        raise ConfigError(f"the view's rows {now} are not where its start_rows and played"
                          f" turns lead: {rows}")
    short = [k for k in range(view.players) if view.penalties[k] < taken[k]]
    if short:
        raise ConfigError(f"the view's penalties give seat {short[0] + 1}"
                          f" {view.penalties[short[0]]} bullheads, fewer than the"
                          f" {taken[short[0]]} its played turns took")


VIEW_KEYS = ("players", "deck", "threshold", "seat", "turn", "hand", "rows", "start_rows",
             "played", "row_choices", "penalties", "scores", "out_of_play", "revealed")


def serve(bot: Player, lines: Iterable[str], answer: Callable[[int], None]) -> None:
    """The other end (`nimmt engine`): each message line to `bot`, each answer to `answer`.
    A malformed message, or a card or row the bot cannot give for it, raises a NimmtError
    naming the line."""
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            message = parse_json(line)
            if not isinstance(message, dict):
                raise ConfigError("a message is a JSON object")
            if "ask" in message and "tell" in message:
                raise ConfigError('a message asks ("ask") or tells ("tell"), not both')
            if message.get("tell") == "round_over":
                bot.round_over(message.get("record"), message.get("penalties"))
                continue
            ask = message.get("ask")
            if ask not in ("card", "row"):
                raise ConfigError(f'a message asks a "card" or a "row", or tells'
                                  f' "round_over", got {quote_json(message, 60)}')
            raw = message.get("view")
            if isinstance(raw, dict) and (ask == "card") != (raw.get("revealed") is None):
                raise ConfigError('the view\'s "revealed" is null at a card question, the'
                                  ' turn\'s cards at a row question')
            view = view_from_dict(raw)
            if ask == "card":
                if not view.hand:
                    raise ConfigError("a card is asked of an empty hand")
                answer(bot.choose_card(view))
            else:
                card = message.get("card")
                if not is_integer(card) or view.revealed is None \
                        or card != view.revealed[view.seat]:
                    raise ConfigError('a row question names its "card", the seat\'s own of'
                                      ' the view\'s "revealed"')
                if target_row(view.rows, card) is not None:
                    raise ConfigError(f"a row question's card {card} is not lower than every"
                                      f" row end of the view's rows: it takes no row by"
                                      f" choice")
                if card != min(view.revealed):
                    raise ConfigError(f"a row question's card {card} is not the lowest of the"
                                      f" turn's cards {list(view.revealed)}: the lowest is"
                                      f" resolved first, and only it can be too low")
                answer(bot.choose_row(view, card))
        except NimmtError as exc:
            raise type(exc)(f"line {number}: {exc}") from None


def _end_input(process: subprocess.Popen) -> None:
    try:
        process.stdin.close()
    except OSError:
        pass


def _start_failure(path: str, exc: OSError) -> str:
    """Why a program did not start: a script whose `#!` interpreter is missing fails as if
    the script itself were (ENOENT), so that case is named."""
    if exc.errno == errno.ENOENT and os.path.isfile(path):
        try:
            with open(path, "rb") as f:
                first = f.readline(4096)
        except OSError:
            first = b""
        if first.startswith(b"#!"):
            interpreter = first[2:].decode("utf-8", "replace").strip().split(" ")[0]
            return f"its #! interpreter {quote(interpreter)} is missing"
    return exc.strerror or str(exc)


def _stop(process: subprocess.Popen, ended: Optional[float] = None) -> None:
    """End a program: its input closed (at `ended`, a monotonic time, if it already was), then
    killed if it outlives `CLOSE_SECONDS` from then."""
    if process.poll() is None:
        _end_input(process)
        left = CLOSE_SECONDS if ended is None else ended + CLOSE_SECONDS - time.monotonic()
        try:
            process.wait(max(0.0, left))
        except subprocess.TimeoutExpired:
            _kill_group(process)
            process.wait()
    process.stdout.close()


def _kill_group(process: subprocess.Popen) -> None:
    """Kill a program and what it started: it leads a session of its own (its group's id
    is its pid, not reused while it is not yet waited for)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, AttributeError):   # gone; not POSIX
        process.kill()


def launch_all(players: Sequence[Player]) -> None:
    """Start the programs of a table's program bots together, before the first question, so
    that their start-ups overlap."""
    for player in players:
        if isinstance(player, ProgramBot):
            player.launch()


def end_all_input(players: Sequence[Player]) -> None:
    """Close the input of every program bot of a table at once, so that their
    `CLOSE_SECONDS` of grace overlap when the table then closes them one by one."""
    for player in players:
        if isinstance(player, ProgramBot):
            player.end_input()


class ProgramBot(Player):
    """The program at `path` (an executable file), asked over pipes; started at its first
    question, so that a spec can be checked without starting anything."""

    def __init__(self, seed=None, path: Optional[str] = None, seconds: float = DEFAULT_SECONDS):
        if path is None:
            raise ConfigError("bot 'program' needs the program: program:path=FILE")
        if not 0 < seconds <= MAX_SECONDS:
            raise ConfigError(f"bot 'program': seconds must be in (0, {MAX_SECONDS:g}],"
                              f" got {quote(seconds)}")
        self.name = f"program:path={path}"
        if os.path.isdir(path):
            raise ConfigError(f"bot {quote(self.name)}: {quote(path)} is a directory, not a"
                              f" program file")
        if not os.path.isfile(path):
            raise ConfigError(f"bot {quote(self.name)}: no program file {quote(path)}")
        if not os.access(path, os.X_OK):
            raise ConfigError(f"bot {quote(self.name)}: {quote(path)} is not executable"
                              f" (chmod +x, with a #! line naming its interpreter)")
        self.path, self.seconds, self.seed = path, seconds, seed
        self._process: Optional[subprocess.Popen] = None
        self._input_ended: Optional[float] = None
        self._buffer = b""

    def close(self) -> None:
        """End the program now (else when the bot is collected, or at exit)."""
        if self._process is not None:
            self._finalizer.detach()
            _stop(self._process, self._input_ended)
            self._process = None

    def launch(self) -> None:
        """Start the program now, if it is not running (else at its first question)."""
        if self._process is None:
            self._start()

    def end_input(self) -> None:
        """Close the program's input (the game is over) without waiting for it to end."""
        if self._process is not None and self._input_ended is None:
            _end_input(self._process)
            self._input_ended = time.monotonic()

    def choose_card(self, view: PlayerView) -> int:
        return self._ask({"ask": "card", "view": view_dict(view)}, view, "a card")

    def choose_row(self, view: PlayerView, card: int) -> int:
        return self._ask({"ask": "row", "card": card, "view": view_dict(view)}, view, "a row")

    def round_over(self, record: Dict[str, Any], penalties: Sequence[int]) -> None:
        if self._process is not None:
            self._send({"tell": "round_over", "record": record,
                        "penalties": list(penalties)}, None)

    # the pipes ------------------------------------------------------------------------------
    def _start(self) -> None:
        env = dict(os.environ, NIMMT_SEED="" if self.seed is None else str(self.seed))
        try:
            # a session of its own: the terminal's Ctrl-C stops nimmt, which ends the program
            # (closes its input, then kills it), rather than hitting the program mid-answer
            process = subprocess.Popen([os.path.abspath(self.path)], stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, env=env, close_fds=True,
                                       start_new_session=True)
        except OSError as exc:
            raise ConfigError(f"bot {quote(self.name)}: cannot start {quote(self.path)}:"
                              f" {_start_failure(self.path, exc)}") from None
        self._input_ended = None
        self._finalizer = weakref.finalize(self, _stop, process)
        self._process = process

    def _send(self, message: Dict[str, Any], view: Optional[PlayerView]) -> None:
        line = (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8")
        try:
            self._process.stdin.write(line)
            self._process.stdin.flush()
        except OSError:                       # it ended: said when its answer is read
            if view is not None:
                self._ended(view, "before it was asked", "its input")

    def _ask(self, message: Dict[str, Any], view: PlayerView, what: str) -> Any:
        self.launch()
        self._check_nothing_more(view)
        self._send(message, view)
        line = self._read_line(view, what)
        digits = DIGITS.fullmatch(line.strip())
        try:
            # plain digits are read as an integer with a leading zero too (C's "%02d")
            answer = int(digits.group()) if digits else json.loads(line)
        except ValueError:
            answer = None
        if not is_integer(answer):            # said as the program wrote it
            self.close()
            # more digits than Python reads as a number are still an integer: no card, no row
            why = ("not in its hand" if what == "a card" else "must be 0..3") \
                if digits else "not an integer"
            raise IllegalMoveError(f"{self.name} (player {view.seat + 1}) answered"
                                   f" {quote(line.decode('utf-8', 'replace').strip(), 40)}"
                                   f" for {what}: {why}")
        self._check_nothing_more(view)        # a second line for the same question
        return answer

    def _read_line(self, view: PlayerView, what: str) -> bytes:
        fd = self._process.stdout.fileno()
        deadline = time.monotonic() + self.seconds
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                self.close()
                raise IllegalMoveError(f"{self.name} (player {view.seat + 1}) did not answer"
                                       f" {what} within {self.seconds:g} s{self._unended()}")
            data = os.read(fd, 65536)
            if not data:
                self._ended(view, f"without answering {what}{self._unended()}", "its output")
            self._buffer += data
            if len(self._buffer) > MAX_LINE:
                self.close()
                raise IllegalMoveError(f"{self.name} (player {view.seat + 1}) answered more than"
                                       f" {MAX_LINE} bytes for {what}")
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _unended(self) -> str:
        """What a message adds when the program left a line without its newline."""
        partial = self._buffer.decode("utf-8", "replace").strip()
        return (f" (it wrote {quote(partial, 40)} without the newline that ends an answer)"
                if partial else "")

    def _check_nothing_more(self, view: PlayerView) -> None:
        """Refuse a line that no question asked for (two lines to one question): taken as
        the next answer, it would put the game off by one."""
        fd = self._process.stdout.fileno()
        if not self._buffer and select.select([fd], [], [], 0)[0]:
            self._buffer = os.read(fd, 65536)      # b"": it ended, said when it is asked
        if not self._buffer.strip():
            self._buffer = b""                     # blank lines after an answer: harmless
        else:
            extra = self._buffer.decode("utf-8", "replace").strip().splitlines()[0]
            self.close()
            raise IllegalMoveError(f"{self.name} (player {view.seat + 1}) wrote a line that no"
                                   f" question asked for: {quote(extra, 40)}")

    def _ended(self, view: PlayerView, when: str, pipe: str) -> None:
        """Say how a program whose `pipe` ("its input" or "its output") broke did so: it
        ended (its status), or it closed that pipe and runs on."""
        try:
            status = self._process.wait(CLOSE_SECONDS)
        except subprocess.TimeoutExpired:
            self.close()
            raise IllegalMoveError(f"{self.name} (player {view.seat + 1}) closed {pipe}"
                                   f" {when}") from None
        self.close()
        how = f"exit status {status}" if status >= 0 else f"killed by signal {-status}"
        raise IllegalMoveError(f"{self.name} (player {view.seat + 1}) ended {when} ({how})")
