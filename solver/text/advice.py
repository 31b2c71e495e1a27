"""The words of `nimmt best`: an advice (solver/advice.py) as a player reads it."""
import math
from typing import List, Sequence

from ..advice import SAME_VALUE
from ..core.position import Position
from .render import known_hand, player_name


def percent(p: float) -> str:
    if p >= 1.0:
        return "always"
    text = f"{p:.0%}"
    return {"0%": "<1%", "100%": ">99%"}.get(text, text)


def percents(probabilities: Sequence[float]) -> List[str]:
    """A strategy's probabilities as whole percentages that add to exactly 100 (largest
    remainder: each rounded down, then the points left go to the largest remainders), written
    "<1%" for a card played at all but rounded to 0, ">99%" rounded to 100 but not certain,
    "always" for certain."""
    scaled = [100 * p for p in probabilities]
    whole = [math.floor(x + 1e-9) for x in scaled]
    left = round(sum(scaled)) - sum(whole)
    by_remainder = sorted(range(len(scaled)), key=lambda i: (whole[i] - scaled[i], -scaled[i], i))
    for i in by_remainder[:max(0, left)]:
        whole[i] += 1
    return [_percent_text(p, n) for p, n in zip(probabilities, whole)]


def _percent_text(p: float, whole: int) -> str:
    if p >= 1.0:
        return "always"
    if whole <= 0:
        return "<1%"
    if whole >= 100:
        return ">99%"
    return f"{whole}%"


def bullheads_text(n: float) -> str:
    return f"{n:.2f} bullheads"


def count_text(n: int) -> str:
    return f"{n} bullhead{'' if n == 1 else 's'}"


def format_row_advice(advice: dict) -> str:
    """`best --revealed`: the row to take (a bot's choice, or exact with both hands known)."""
    name = player_name(advice["viewer"] - 1).capitalize()
    row, cheapest, bulls = advice["row"], advice["cheapest_row"], advice["row_bullheads"]
    text = (f"{name}: take row {row} ({count_text(bulls[row])}) with your {advice['card']},"
            f" lower than every row end")
    if bulls[row] > bulls[cheapest]:
        text += f", not the cheapest row {cheapest} ({count_text(bulls[cheapest])})"
    cards = " ".join(map(str, advice["revealed"]))
    if advice["method"] == "row":
        text += (f"\n{advice['player']}'s choice with this turn's cards {cards},"
                 f" seed {advice['seed']}")
        if advice.get("row_estimates"):
            values = ", ".join(f"row {r} {v:.2f}" for r, v in enumerate(advice["row_estimates"]))
            text += (f"\neach row's expected bullheads for you to the end of the round, this"
                     f" turn's included: {values}")
        return text
    if bulls[row] > bulls[cheapest]:
        text += f", which costs {advice['cheapest_row_costs_more']:.2f} bullheads more in the end"
    lines = []
    if advice.get("deduced"):
        k = advice["deduced"] - 1
        lines.append(known_hand(k, Position.from_text(advice["position"]).hands[k]))
    values = ", ".join(f"row {r} {v:.4g}" for r, v in enumerate(advice["row_values"]))
    return "\n".join(lines + [text, f"exact, with this turn's cards {cards}: each row's value"
                               f" for player 1 (player 2's bullheads minus player 1's, this"
                               f" turn's included): {values}"])


def format_advice(advice: dict) -> str:
    if advice.get("method") == "search":
        return format_search_advice(advice)
    if advice.get("method") == "network":
        return format_network_advice(advice)
    lines = []
    if advice.get("deduced"):
        k = advice["deduced"] - 1
        hand = next(p for p in advice["players"] if p["player"] == k + 1)["cards"]
        lines.append(known_hand(k, [c["card"] for c in hand]))
    lines += [f"value {advice['value']:.4g} for player 1 (player 2's bullheads minus player"
              " 1's, from now to the end of the round)"]
    for player in advice["players"]:
        lines += [""] + format_player(player)
    return "\n".join(lines)


def format_player(player: dict) -> List[str]:
    k = player["player"] - 1
    name = player_name(k).capitalize()
    opponent = player_name(1 - k)
    shown = percents([p["probability"] for p in player["play"]])
    plays = " or ".join(f"{p['card']} ({text})" for p, text in zip(player["play"], shown))
    if not plays:
        return [f"{name}: nothing to play (the round is over)"]
    lines = [f"{name}: play {plays}"]
    for card in player["cards"]:
        if card["in_equilibrium"]:
            continue
        if card["loss"] is None:
            lines.append(f"  {card['card']}: its cost was not computed within the limit")
        elif card["loss"] <= SAME_VALUE:
            lines.append(f"  {card['card']} is just as good against {opponent}'s strategy")
        else:
            lines.append(f"  {card['card']} loses {bullheads_text(card['loss'])} on average")
    if player["row_choices"] is None:
        lines.append("  the rows to take after a too-low card: not computed within the limit")
    else:
        lines += [format_row_choice(choice, opponent) for choice in player["row_choices"]]
    return lines


def format_row_choice(choice: dict, opponent: str) -> str:
    p = choice["opponent_probability"]
    share = "" if p >= 1.0 else f" ({percent(p)})"        # a pure strategy's card: no share
    text = (f"  {choice['card']} is too low: if {opponent} plays {choice['if_opponent_plays']}"
            f"{share}, take row {choice['row']} ({count_text(choice['row_bullheads'])})")
    if choice["row"] == choice["cheapest_row"]:
        return text
    cost = bullheads_text(choice["cheapest_row_costs_more"])
    if choice["row_bullheads"] > choice["cheapest_bullheads"]:
        return (text + f", not the cheapest row {choice['cheapest_row']}"
                f" ({count_text(choice['cheapest_bullheads'])}), which costs {cost} more in the end")
    return text + f"; row {choice['cheapest_row']}, as cheap now, costs {cost} more in the end"


def format_search_advice(advice: dict) -> str:
    name = player_name(advice["viewer"] - 1).capitalize()
    if advice["play"] is None:
        return f"{name}: nothing to play (the round is over)"
    jobs = advice["jobs"]
    why = ("the card the search tried most" if advice["iterations"] else
           "no card tried: the budget is too small for one iteration")
    lines = [f"{name}: play {advice['play']} ({why})",
             f"search: {advice['iterations']:,} iterations in {advice['seconds']:.2f} s,"
             f" seed {advice['seed']}, {jobs} job{'s' if jobs > 1 else ''}{stopped(advice)}",
             "bullheads expected from now to the end of the round, lowest first:",
             "card  bullheads  95% interval          tried"]
    lines += [format_card_estimate(card) for card in advice["cards"]]
    return "\n".join(lines)


def stopped(advice: dict) -> str:
    return " (stopped early: the answer so far)" if advice.get("interrupted") else ""


def format_card_estimate(card: dict) -> str:
    mean, (lo, hi), visits = card["expected_bullheads"], card["ci95"], card["visits"]
    if mean is None:
        return f"{card['card']:>4}  not tried: the budget is too small"
    interval = f"[{lo:.2f}, {hi:.2f}]" if lo is not None else "-"
    return f"{card['card']:>4}  {mean:>9.2f}  {interval:<16}  {visits:>7,}"


def format_network_advice(advice: dict) -> str:
    name = player_name(advice["viewer"] - 1).capitalize()
    if advice["play"] is None:
        return f"{name}: nothing to play (the round is over)"
    if not advice["cards"]:
        return f"{name}: play {advice['play']} (the last card)"
    known = advice.get("turns_known", 0)
    weighed = (f" (drawn from {advice['candidates']} by how well they explain the"
               f" {known} earlier turn{'s' if known > 1 else ''})"
               if known and advice.get("candidates") else "")
    lines = [f"{name}: play {advice['play']} (the least score)",
             f"{advice['player']}: {advice['worlds']} deals of the hidden hands{weighed},"
             f" {advice['seconds']:.2f} s, seed {advice['seed']}{stopped(advice)}",
             "expected bullheads to the end of the round; least score (those plus the"
             " policy prior) first:",
             "card  bullheads  95% interval      policy  score"]
    lines += [f"{c['card']:>4}  {c['expected_bullheads']:>9.2f}  "
              f"{'[%.2f, %.2f]' % tuple(c['ci95']):<16}  {percent(c['probability']):>6}"
              f"  {c['score']:>5.2f}" for c in advice["cards"]]
    return "\n".join(lines)
