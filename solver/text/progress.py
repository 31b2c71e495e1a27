"""Progress on stderr: one line redrawn in place and erased at the end, drawn only when
stderr is a terminal (a log or a pipe gets no progress; a long exact solve's provisional
answer, which is no progress, goes to stderr in both cases)."""
import sys
import time
from typing import Optional, TextIO, Tuple

from ..exact.engine import proven_bounds
from ..review import ReviewEvents


def bar(fraction: float, width: int = 30) -> str:
    """`[#######.......]`: a progress bar `fraction` (0..1) of the way."""
    filled = int(width * min(1.0, max(0.0, fraction)))
    return f"[{'#' * filled}{'.' * (width - filled)}]"


class StatusLine:
    """A line on stderr redrawn in place, erased by `close`; nothing when not a terminal."""

    def __init__(self, stream: Optional[TextIO] = None):
        self.stream = stream if stream is not None else sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.shown = False

    def show(self, text: str) -> None:
        if self.tty:
            self.stream.write("\r" + text + "\033[K")
            self.stream.flush()
            self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False


class ExactProgress(StatusLine):
    """The exact search's nodes and seconds, and the bounds on the value proven so far."""

    def __call__(self, nodes: int, bounds: Tuple[float, float], seconds: float) -> None:
        proven = proven_bounds(*bounds)
        self.show(f"searching: {nodes:,} nodes, {seconds:.1f} s"
                  + (f", {proven}" if proven else "") + " ")


class SearchProgress(StatusLine):
    """A search's progress bar: its iterations (or the network search's worlds), seconds."""

    def __call__(self, fraction: float, count: int, seconds: float,
                 unit: str = "iterations") -> None:
        self.show(f"{bar(fraction)} thinking: {count:,} {unit}, {seconds:.1f} s ")


class GamesProgress(StatusLine):
    """`[#######.........]  12/40 games  3.1 s  ETA 7 s`: a tournament's games, the estimate
    from this run's pace (games of an earlier run, `done_before`, do not count in it)."""
    WIDTH = 30

    def __init__(self, total: int, label: str = "games", stream: Optional[TextIO] = None,
                 done_before: int = 0):
        super().__init__(stream)
        self.total, self.label, self.before = total, label, done_before
        self.start = time.perf_counter()

    def __call__(self, done: int) -> None:
        elapsed = time.perf_counter() - self.start
        new = done - self.before
        eta = elapsed / new * (self.total - done) if new > 0 else 0.0
        self.show(f"{bar(done / self.total, self.WIDTH)} {done:>{len(str(self.total))}}"
                  f"/{self.total} {self.label}  {elapsed:.1f} s  ETA {eta:.0f} s")


class BatchProgress(StatusLine):
    """`[#####......]  12/40 positions  3.1 s  ETA 7 s  1 error`: a batch's positions, the
    estimate from this run's pace (positions done by an earlier run do not count in it)."""
    WIDTH = 30

    def __init__(self, total: int, done_before: int = 0, stream: Optional[TextIO] = None):
        super().__init__(stream)
        self.total, self.before = total, done_before
        self.start = time.perf_counter()

    def __call__(self, done: int, errors: int = 0) -> None:
        elapsed = time.perf_counter() - self.start
        now = done - self.before
        eta = f"ETA {elapsed / now * (self.total - done):.0f} s" if now > 0 else "ETA ?"
        failed = f"  {errors} error{'s' if errors != 1 else ''}" if errors else ""
        self.show(f"{bar(done / self.total if self.total else 1.0, self.WIDTH)}"
                  f" {done:>{len(str(self.total))}}/{self.total} positions  {elapsed:.1f} s"
                  f"  {eta}{failed}")


class ReviewProgress(StatusLine, ReviewEvents):
    """`turn 3/10, 8 cards: searching: 1,234 nodes, 2.1 s`: a review's turn and the search
    under way (the exact solver's or the search player's)."""

    def __init__(self, stream: Optional[TextIO] = None):
        super().__init__(stream)
        self.where = ""

    def turn(self, number: int, turns: int, hand_size: int) -> None:
        self.where = f"turn {number + 1}/{turns}, {hand_size} card{'s' if hand_size != 1 else ''}"
        self.show(self.where)

    def exact(self, nodes: int, bounds: Tuple[float, float], seconds: float) -> None:
        self.show(f"{self.where}: solving: {nodes:,} nodes, {seconds:.1f} s ")

    def search(self, fraction: float, iterations: int, seconds: float) -> None:
        self.show(f"{self.where}: {bar(fraction, 20)} estimating: {iterations:,} iterations ")
