"""The figures of a batch's `Report` as PNG files (`nimmt batch report --plots DIR`).

matplotlib is an optional dependency (the `plots` extra), imported only here and only when
plots are asked for. Figures are drawn on `matplotlib.figure.Figure` directly (no pyplot, no
window, no global state) and written without a time stamp: the same report gives the same
files. Each is written to a temporary name, then renamed: no half-written PNG is left.
"""
import os
from typing import List

from .. import errors
from ..files import FileKind, check_writable, write_atomically
from .report import Report

DPI = 80
SIZE = (6.0, 3.6)         # inches: 480 x 288 pixels
COLOUR = "#4a73a8"
# a figure may replace a PNG of that name (an earlier report's), not anyone's other file
PNG_FILE = FileKind("a PNG image", lambda head: head.startswith(b"\x89PNG\r\n\x1a\n"))

def _figure_class():
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise errors.NimmtError("--plots needs matplotlib: pip install \"nimmt[plots]\""
                                " (or \"matplotlib\")") from None
    return Figure

def write_plots(report: Report, folder: str) -> List[str]:
    """Draw the report's figures into `folder` (made if missing); the paths written."""
    Figure = _figure_class()
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise errors.NimmtError(f"cannot make the folder"
                                f" {errors.quote(folder, errors.SHORT_PATH)}:"
                                f" {exc.strerror}") from None
    drawings = [("values.png", draw_values), ("first-turn.png", draw_first_turn),
                ("supports.png", draw_supports), ("seconds.png", draw_seconds)]
    for name, _ in drawings:                 # before any is written: all or none
        check_writable(os.path.join(folder, name), PNG_FILE)
    written = []
    for name, draw in drawings:
        figure = Figure(figsize=SIZE, dpi=DPI)
        if draw(report, figure.add_subplot()):
            figure.tight_layout()
            written.append(save(figure, os.path.join(folder, name)))
    return written

def save(figure, path: str) -> str:
    return write_atomically(path, lambda temporary: figure.savefig(
        temporary, format="png", metadata={"Software": None}), suffix=".png")


def draw_values(report: Report, axes) -> bool:
    """The histogram of the values, the mean and median marked."""
    values = report.values
    if values is None:
        return False
    bins = values.bins
    axes.bar([b.low for b in bins], [b.count for b in bins], width=bins[0].high - bins[0].low,
             align="edge", color=COLOUR, edgecolor="white")
    quantiles = dict(values.quantiles)
    axes.axvline(values.mean, color="black", linestyle="--",
                 label=f"mean {values.mean:.2f}")
    axes.axvline(quantiles["median"], color="grey", linestyle=":",
                 label=f"median {quantiles['median']:.2f}")
    axes.set_xlabel("value: player 2's bullheads minus player 1's")
    axes.set_ylabel("positions")
    axes.set_title(f"Values of {values.count} solved positions")
    axes.legend(frameon=False)
    return True

def draw_first_turn(report: Report, axes) -> bool:
    """The shares of the first turn, with their 95% intervals."""
    if report.values is None:
        return False
    shares = [("mixed\nequilibrium", report.mixed)]
    if report.row_choices is not None:
        shares += [("a too-low card\nwith p > 0", report.row_choices.with_choice),
                   ("best row not\nthe cheapest\n(of those)", report.row_choices.not_cheapest)]
    figures = [share.ci95 for _, share in shares]
    heights = [100 * value for value, _, _ in figures]
    errors_below = [100 * (value - low) for value, low, _ in figures]
    errors_above = [100 * (high - value) for value, _, high in figures]
    positions = range(len(shares))
    axes.bar(positions, heights, yerr=[errors_below, errors_above], capsize=6, color=COLOUR)
    for x, (_, share) in zip(positions, shares):
        axes.text(x, 2, f"{share.count} of {share.total}", ha="center", color="white")
    axes.set_xticks(list(positions), [label for label, _ in shares])
    axes.set_ylim(0, 100)
    axes.set_ylabel("% of positions (95% interval)")
    axes.set_title("First turn of the equilibrium")
    return True

def draw_supports(report: Report, axes) -> bool:
    """How many positions have each pair of support sizes."""
    if not report.supports:
        return False
    labels = [f"{a} x {b}" for (a, b), _ in report.supports]
    counts = [count for _, count in report.supports]
    axes.bar(range(len(counts)), counts, color=COLOUR)
    axes.set_xticks(list(range(len(counts))), labels)
    axes.set_xlabel("cards played with probability > 0: player 1 x player 2")
    axes.set_ylabel("positions")
    axes.set_title("Support sizes of the first turn")
    return True


def draw_seconds(report: Report, axes) -> bool:
    """Every solved position's seconds by cards a hand (log scale), the medians joined."""
    hands = [hand for hand in report.hands if hand.seconds]
    if not hands:
        return False
    for hand in hands:
        axes.scatter([hand.cards] * len(hand.seconds), [max(s, 1e-3) for s in hand.seconds],
                     s=10, alpha=0.4, color=COLOUR)
    axes.plot([hand.cards for hand in hands], [max(hand.quantile(0.5), 1e-3) for hand in hands],
              color="black", marker="o", label="median")
    axes.set_yscale("log")
    axes.set_xticks([hand.cards for hand in hands])
    axes.set_xlabel("cards a hand")
    axes.set_ylabel("seconds (wall clock)")
    axes.set_title("Solve time by hand size")
    axes.legend(frameon=False)
    return True
