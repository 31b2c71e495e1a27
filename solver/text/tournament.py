"""The tournament's table (`nimmt tournament`), in Markdown."""
from typing import Any, Dict

from ..errors import plural


def format_table(summary: Dict[str, Any]) -> str:
    """The tournament summary as a markdown table."""
    lines = [f"{plural(summary['games'], 'game')}, {plural(summary['rounds'], 'round')},"
             f" {summary['players']} players,"
             f" deck {summary['deck']}, threshold {summary['threshold']}, seed {summary['seed']}",
             "",
             "| bot | seat-games | bullheads/round | 95% CI | mean score | win rate |",
             "|---|---:|---:|---|---:|---:|"]
    for bot in summary["bots"]:
        lo, hi = bot["ci95"]
        lines.append(f"| {bot['name']} | {bot['seat_games']} | {bot['mean_penalty_per_round']:.2f}"
                     f" | [{lo:.2f}, {hi:.2f}] | {bot['mean_score']:.1f}"
                     f" | {100 * bot['win_rate']:.1f}% |")
    return "\n".join(lines)
