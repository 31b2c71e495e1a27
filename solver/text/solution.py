"""Plain-text reports of exact solutions (`nimmt solve`), built on render.py's table."""
from typing import Dict, List, Optional

from ..exact.solution import Line, SearchStats, Solution
from .render import player_name, render_position


def format_strategy(strategy: Dict[int, float]) -> str:
    return ", ".join(f"{c} ({p:.1%})" for c, p in sorted(strategy.items()))


def format_provisional(strategies: List[Dict[int, float]], bounds: str, seconds: float) -> str:
    """The provisional answer shown while a long exact solve runs (cards played less than 1%
    of the time together as "others")."""
    def strategy(s: Dict[int, float]) -> str:
        kept = {c: p for c, p in s.items() if p >= 0.01}
        rest = 1.0 - sum(kept.values())
        return format_strategy(kept) + (f", others {rest:.1%}" if rest >= 0.0005 else "")

    shown = "; ".join(f"{player_name(k)}: {strategy(s)}" for k, s in enumerate(strategies))
    return (f"provisional answer after {seconds:.0f} s, NOT proven (the search player's regret"
            f" matching): {shown}; {bounds or 'no bounds proven yet'}; the exact answer when"
            f" the proof ends")


def format_exact_duration(cards: int, duration: str, resumable: bool) -> str:
    keep = ("" if resumable else
            "; --progress-file FILE would keep the work of a stopped solve for the next run")
    return (f"solving a {cards}-card position exactly: {duration} on one core; a provisional"
            f" answer comes first (--exact-only: none){keep}")


def format_solution(solution: Solution, show_stats: bool = False) -> str:
    lines = [render_position(solution.position), ""]
    lines.append(f"value {solution.value:.6g} (player 2's bullheads minus player 1's from now"
                 " to the end of the round; player 1 maximizes it, player 2 minimizes it)")
    lines.append("")
    if solution.position.hand_size == 0:
        return "\n".join(lines + ["the round is over: nothing left to play"])
    lines.append("equilibrium strategies for this turn")
    lines += [f"  {player_name(k)}: {format_strategy(s)}"
              for k, s in enumerate(solution.strategies)]
    lines += ["", *format_card_values(solution), "", *format_principal_line(solution.principal_line)]
    if show_stats:
        lines += ["", *format_stats(solution.stats)]
    return "\n".join(lines)


def format_card_values(solution: Solution) -> List[str]:
    lines = ["every card against the opponent's equilibrium strategy"
             " (value for player 1; loss for the card's owner)"]
    losses = solution.card_losses()
    for k, values in enumerate(solution.card_values):
        strategy = solution.strategies[k]
        lines.append(f"  {player_name(k)}")
        for card, value in sorted(values.items()):
            note = f"played {strategy[card]:.1%}" if card in strategy else ""
            if value is None:
                lines.append(f"    {card:>3}  value not computed (search limit, or --no-card-values)"
                             f"  {note}".rstrip())
                continue
            lines.append(f"    {card:>3}  value {value:>9.4f}  loses {losses[k][card]:>7.4f}  {note}"
                         .rstrip())
    return lines


def format_principal_line(line: Optional[List[Line]]) -> List[str]:
    lines = ["principal line (the most likely play of each turn under the equilibrium)"]
    if line is None:
        return lines + ["  (not computed: interrupted)"]
    for t, turn in enumerate(line):
        text = (f"  turn {t + 1}: P1 {turn.cards[0]:>2}, P2 {turn.cards[1]:>2}"
                f"  p={turn.probability:.3f}  value before {turn.value_before:.4g}")
        if turn.row_choice is not None:
            text += f"  | P{turn.row_choice[0] + 1} chooses row {turn.row_choice[1]}"
        taken = [f"P{k + 1} +{p}" for k, p in enumerate(turn.penalties) if p]
        if taken:
            text += "  | bullheads " + ", ".join(taken)
        lines.append(text)
    if not line:
        lines.append("  (the round is over)")
    return lines


def format_stats(stats: SearchStats) -> List[str]:
    probes = stats.tt_probes
    hit_rate = f" ({stats.tt_hits / probes:.1%} of {probes} probes)" if probes else ""
    return ["search statistics",
            f"  nodes                       {stats.nodes}"
            f" (+ {stats.small_nodes} small endgame nodes)",
            f"  transposition table hits    {stats.tt_hits}{hit_rate}",
            f"  matrix games solved         {stats.matrix_games}",
            f"  children never evaluated    {stats.children_never_evaluated:.1%}",
            f"  seconds                     {stats.seconds:.3f}"]
