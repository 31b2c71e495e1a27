"""The words of `nimmt batch report`: a `Report` as a few tables (docs/report.md)."""
from typing import List, Optional

from ..batch.report import Report, RowChoices, Share
from ..errors import plural

BAR_WIDTH = 40          # the histogram's longest bar, in characters


def format_report(report: Report, path: str) -> str:
    counts = report.counts
    lines = [f"{path}: {plural(report.results, 'result')}: {counts['solved']} solved,"
             f" {counts['limit']} stopped by a limit (not proven),"
             f" {plural(counts['error'], 'error')}"]
    if report.torn_bytes:
        lines.append(f"(a torn last line of {plural(report.torn_bytes, 'byte')} skipped: the batch"
                     " was stopped while writing it)")
    lines += values_section(report) + first_turn_section(report)
    lines += row_choices_section(report.row_choices, report.unrecorded)
    lines += seconds_section(report)
    return "\n".join(lines)


def format_plot(path: str) -> str:
    return f"plot: {path}"


def values_section(report: Report) -> List[str]:
    values = report.values
    if values is None:
        return ["", "no position solved: no values"]
    lines = ["", f"value (player 2's bullheads minus player 1's), {values.count} solved"
                 f" position{'s' if values.count != 1 else ''}",
             f"  mean {values.mean:.2f}, 95% interval {values.ci95[0]:.2f} to"
             f" {values.ci95[1]:.2f}",
             "  " + "  ".join(f"{label} {value:.2f}" for label, value in values.quantiles)]
    largest = max(b.count for b in values.bins)
    labels = [f"[{b.low:g}, {b.high:g})" for b in values.bins]
    width = max(len(label) for label in labels)
    for label, b in zip(labels, values.bins):
        bar = "#" * round(BAR_WIDTH * b.count / largest)
        lines.append(f"  {label:<{width}} {b.count:4d} {bar}".rstrip())
    return lines


def first_turn_section(report: Report) -> List[str]:
    if report.values is None:
        return []
    total = report.mixed.total
    sizes = "  ".join(f"{a}x{b} {n} ({100 * n / total:.1f}%)" for (a, b), n in report.supports)
    return ["", "first turn of the equilibrium",
            f"  mixed (a player plays 2+ cards)        {share(report.mixed)}",
            f"  support sizes (player 1 x 2)           {sizes}"]


def row_choices_section(choices: Optional[RowChoices], unrecorded: int) -> List[str]:
    if choices is None:
        return ["", "row choices: not recorded (solve with 'nimmt batch solve --row-choices')"]
    lines = ["", f"row choices at the first turn, {choices.positions} solved positions"
                 + (f" ({unrecorded} more did not record them)" if unrecorded else ""),
             f"  a too-low card played with p > 0       {share(choices.with_choice)}",
             f"  of those, a best row not the cheapest  {share(choices.not_cheapest)}",
             f"  probability of such a row choice       {choices.probability:.3f}"
             f" (mean over the {choices.positions} positions)"]
    if choices.cost_mean is not None:
        lines.append(f"  the cheapest row instead costs         {choices.cost_mean:.2f} more"
                     f" on average, {choices.cost_max:.2f} at most ("
                     f"{choices.plays_not_cheapest} of {choices.plays} joint plays)")
    return lines


def seconds_section(report: Report) -> List[str]:
    if not report.hands:
        return []
    lines = ["", "solve seconds by cards a hand",
             "  cards  solved  median     p90     max  limit"]
    for hand in report.hands:
        figures = "".join(f"{seconds(hand.quantile(q)):>8}" for q in (0.5, 0.9, 1.0))
        lines.append(f"  {hand.cards:5d} {len(hand.seconds):7d}{figures} {hand.limit:6d}")
    return lines


def share(s: Share) -> str:
    value, low, high = s.ci95
    return (f"{s.count} of {s.total}, {100 * value:.1f}%"
            f" (95% interval {100 * low:.1f}% to {100 * high:.1f}%)")


def seconds(value: Optional[float]) -> str:
    return "-" if value is None else f"{value:.2f}"


