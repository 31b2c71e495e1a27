"""A batch of exact solves: the input's lines as tasks, solved by worker processes, each
result appended to the results file as it comes.

The parent reads and checks every line (a line that is no position of the 2-player 24-card
game with both hands is recorded as an error at once), hands one position at a time to each
worker (`solver.workers`), and writes what comes back. A worker that dies (killed, out of
memory) is replaced and its position given to the new one; a position on which a second
worker dies is recorded as an error. Ctrl-C (KeyboardInterrupt in the parent) terminates the
workers: every line written stays whole, and the same command resumes. A worker whose parent
died stops its search within a quarter of a second, and an idle one within half a second.
"""
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Deque, Dict, List, Optional

from .. import errors
from ..core.jsontext import parse_json
from ..core.position import Position
from ..exact.engine import Engine, check_solvable
from ..exact.solution import RowChoice
from ..limits import Limit
from ..reading import not_utf8
from .memory import TablePlan
from ..workers import run_workers
from .results import ResultsFile

DECK = 24          # the exact solver's game: 2 players, cards 1..24
MAX_DEATHS = 2                 # workers that may die on one position before it is an error


@dataclass(frozen=True)
class Task:
    """One non-blank line of the input: its number (1-based), its key (the position's text
    notation, or the line itself when it is not a valid position), and the position or the
    one-line error that refused it."""
    line: int
    key: str
    position: Optional[Position] = None
    error: Optional[str] = None


@dataclass(frozen=True)
class BatchOptions:
    limit: Limit
    card_values: bool
    tables: TablePlan
    row_choices: bool = False      # the first turn's row choices (docs/formats.md)


@dataclass
class BatchSummary:
    """How a batch went: lines in the input, done before this run (and how many of those are
    not solved), and this run's counts."""
    total: int
    skipped: int = 0
    torn_bytes: int = 0
    unsolved_before: int = 0
    counts: Dict[str, int] = field(default_factory=lambda: {"solved": 0, "limit": 0, "error": 0})

    def count(self, record: Dict[str, Any]) -> None:
        self.counts[record["status"]] += 1

    @property
    def done(self) -> int:
        return self.skipped + sum(self.counts.values())

    @property
    def unsolved(self) -> int:
        """The results file's positions not solved (stopped by a limit, or errors)."""
        return self.unsolved_before + self.counts["limit"] + self.counts["error"]


def read_tasks(text: str) -> List[Task]:
    """The tasks of an input: each non-blank line a position (JSON or the text notation)."""
    tasks = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        try:
            if not_utf8(line):
                raise errors.JsonFormatError("the line is not UTF-8 text")
            position = parse_line(line)
        except errors.NimmtError as exc:
            tasks.append(Task(number, line, error=one_line(str(exc))))
        else:
            tasks.append(Task(number, position.to_text(), position))
    return tasks


def parse_line(line: str) -> Position:
    position = (Position.from_dict(parse_json(line)) if line.startswith(("{", "["))
                else Position.from_text(line))
    if position.deck != DECK:
        raise errors.NotSolvableError(f"not a position of the 2-player 24-card game: deck"
                                      f" {position.deck}, not {DECK}")
    position, _ = position.deduced()       # a hidden hand the cards seen make known, as solve
    check_solvable(position)
    return position


def one_line(message: str) -> str:
    return " ".join(message.split())


def solve_task(task: Task, options: BatchOptions,
               progress: Optional[Callable] = None) -> Optional[Dict[str, Any]]:
    """The result line of one position (None when `progress` stopped the search); the
    parent adds the worker's number."""
    assert task.position is not None
    position = task.position
    record: Dict[str, Any] = {"line": task.line, "position": task.key}
    start = time.perf_counter()
    try:
        with Engine(position, options.tables.table_mb(position.hand_size)) as engine:
            solution = engine.solve(position, options.limit, progress,
                                    card_values=options.card_values)
            choices = (engine.first_turn_row_choices(solution, progress)
                       if options.row_choices else None)
            if engine.interrupted:
                return None
    except errors.SearchLimitError as exc:
        if exc.interrupted:
            return None
        lower, upper = exc.bounds if exc.bounds else (None, None)
        record.update(status="limit", value=None,
                      bounds={"lower": lower, "upper": upper},     # None: not proven
                      stats=exc.stats.to_dict() if exc.stats is not None else None,
                      error=f"value NOT proven: {one_line(str(exc))}")
    except (errors.NimmtError, ValueError) as exc:
        record.update(status="error", value=None, error=one_line(str(exc)))
    except MemoryError as exc:
        record.update(status="error", value=None, retry=True,
                      error=f"out of memory: {exc}" if str(exc) else "out of memory")
    else:
        data = solution.to_dict()
        record.update(status="solved", value=solution.value, strategies=data["strategies"])
        if options.card_values:
            record["card_values"] = data["card_values"]
        if options.row_choices:         # None: a limit stopped them after the solve
            record["row_choices"] = None if choices is None else [
                row_choice_record(probability, choice) for probability, choice in choices]
        record["stats"] = data["stats"]
    record["seconds"] = round(time.perf_counter() - start, 3)
    return record


def row_choice_record(probability: float, choice: RowChoice) -> Dict[str, Any]:
    return {"player": choice.player + 1, "cards": list(choice.cards), "probability": probability,
            "row": choice.row, "cheapest_row": choice.cheapest_row,
            "cheapest_row_costs_more": choice.cheapest_row_costs_more}


def error_record(task: Task, message: str, worker: Optional[int] = None,
                 retry: bool = False) -> Dict[str, Any]:
    """An error line; `retry`: the failure was the machine's, not the position's (out of
    memory, workers lost), so a run resumed on the same file solves the position again."""
    record = {"line": task.line, "position": task.key, "status": "error", "value": None,
              "error": message, "seconds": 0.0, "worker": worker}
    if retry:
        record["retry"] = True
    return record


# worker processes --------------------------------------------------------------------------
class _Solve:
    """A worker's work: one position's result line (a class, so that it pickles where
    workers are spawned)."""

    def __init__(self, options: BatchOptions):
        self.options = options

    def __call__(self, task: Task, watch: Callable) -> Optional[Dict[str, Any]]:
        return solve_task(task, self.options, watch)


def result_writer(results: ResultsFile, summary: BatchSummary,
                  on_result: Optional[Callable[[Dict[str, Any], BatchSummary], None]]
                  ) -> Callable[[Dict[str, Any]], None]:
    """Append a result line to `results`, count it in `summary` once it is on disk (a Ctrl-C
    held meanwhile leaves the count true), then call `on_result(record, summary)`."""
    def write(record: Dict[str, Any]) -> None:
        results.append(record, lambda: summary.count(record))
        if on_result is not None:
            on_result(record, summary)
    return write


def run_batch(tasks: List[Task], results: ResultsFile, options: BatchOptions, jobs: int,
              on_result: Optional[Callable[[Dict[str, Any], BatchSummary], None]] = None,
              summary: Optional[BatchSummary] = None,
              on_death: Optional[Callable[[int, Optional[int], int, bool], None]] = None
              ) -> BatchSummary:
    """Solve the tasks not done yet with `jobs` worker processes, appending each result to
    `results`; `on_result(record, summary)` after each line written; `on_death(input line,
    exit code, worker, solved again)` when a worker process ends with its position."""
    summary = summary or BatchSummary(len(tasks))
    pending: Deque[Task] = deque(tasks)

    write = result_writer(results, summary, on_result)

    def next_position() -> Optional[Task]:
        while pending:
            task = pending.popleft()
            if task.position is not None:
                return task
            write(error_record(task, task.error or "not a position"))
        return None

    solvable = sum(1 for t in tasks if t.position is not None)
    if solvable == 0:
        next_position()
        return summary

    def solved(task: Task, record: Dict[str, Any], worker: int) -> None:
        record["worker"] = worker
        write(record)

    def died(task: Task, code: Optional[int], worker: int, deaths: int) -> bool:
        again = deaths < MAX_DEATHS                  # once more, on a fresh worker
        if on_death is not None:
            on_death(task.line, code, worker, again)
        if again:
            return True
        write(error_record(task, f"{MAX_DEATHS} worker processes ended unexpectedly on this"
                                 f" position (the last with exit status {code})", worker,
                           retry=True))
        return False

    run_workers(next_position, min(jobs, solvable), _Solve(options), "nimmt-batch", solved,
                died)
    return summary
