"""`nimmt best`: the printed percentages of a strategy add to exactly 100 (largest
remainder), with "<1%", ">99%" and "always" where they apply."""
import random
import re

import pytest

from solver.text.advice import format_player


def player(probabilities):
    play = [{"card": 10 * (i + 1), "probability": p} for i, p in enumerate(probabilities)]
    return {"player": 1, "play": play, "cards": [], "row_choices": []}


def printed(probabilities):
    line = format_player(player(probabilities))[0]
    return re.findall(r"\((<1%|>99%|always|\d+%)\)", line)


def test_three_cards_that_rounded_alone_add_to_101():
    shown = printed([56 / 117, 24 / 117, 37 / 117])     # 47.9%, 20.5%, 31.6%: 48 + 21 + 32
    assert shown == ["48%", "20%", "32%"]
    assert sum(int(s[:-1]) for s in shown) == 100


@pytest.mark.parametrize("probabilities, shown", [
    ([1.0], ["always"]),
    ([0.995, 0.005], [">99%", "<1%"]),
    ([0.002, 0.5, 0.498], ["<1%", "50%", "50%"]),
    ([1 / 3] * 3, ["34%", "33%", "33%"]),
    ([0.4117647058823529, 0.5882352941176471], ["41%", "59%"]),
])
def test_marks_and_ties(probabilities, shown):
    assert printed(probabilities) == shown


def test_random_strategies_add_to_100():
    from solver.text.advice import percents
    rng = random.Random(5)
    for _ in range(2000):
        weights = [rng.randint(1, 100) for _ in range(rng.randint(2, 10))]
        total = sum(weights)
        shown = percents([w / total for w in weights])
        numbers = [int(s[:-1]) for s in shown if s[0].isdigit()]
        if len(numbers) == len(shown):           # no "<1%" or ">99%" mark
            assert sum(numbers) == 100, (weights, shown)
