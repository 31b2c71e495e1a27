"""The 95% interval of a mean, the one place it is computed (tournaments, the search player,
a batch's report), and of a share.

A normal approximation: mean +- 1.96 standard errors, the standard deviation from the sample
(n - 1). Fewer than two values give no spread: the interval is the mean itself (one value
of a tournament) or unbounded (one visit of a search: nothing is known of its spread).
A share (k of n) has Wilson's score interval instead: the normal one shrinks to nothing at
0 of n or n of n, which is no evidence that the share is exactly 0 or 1.
"""
import math
from typing import Sequence, Tuple

Z95 = 1.959964          # normal quantile of a two-sided 95% interval

Interval = Tuple[float, float, float]     # (mean, low, high)


def mean_ci95(values: Sequence[float]) -> Interval:
    """Mean of `values` and its 95% interval; (0, 0, 0) for no value, (v, v, v) for one."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    total = float(sum(values))
    if n < 2:
        return total, total, total
    mean = total / n
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(variance / n)
    return mean, mean - half, mean + half


def mean_ci95_of_sums(n: int, total: float, squares: float) -> Interval:
    """The same from running sums (count, sum, sum of squares), as the search keeps them:
    NaN for no value, an unbounded interval for one."""
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = total / n
    if n < 2:
        return mean, -math.inf, math.inf
    variance = max(0.0, (squares - n * mean * mean) / (n - 1))
    half = Z95 * math.sqrt(variance / n)
    return mean, mean - half, mean + half


def share_ci95(count: int, total: int) -> Interval:
    """The share `count / total` and its 95% Wilson score interval; (0, 0, 1) for no total."""
    if total <= 0:
        return 0.0, 0.0, 1.0
    share = count / total
    z2 = Z95 * Z95
    centre = (share + z2 / (2 * total)) / (1 + z2 / total)
    half = Z95 / (1 + z2 / total) * math.sqrt(share * (1 - share) / total
                                              + z2 / (4 * total * total))
    return share, max(0.0, centre - half), min(1.0, centre + half)
