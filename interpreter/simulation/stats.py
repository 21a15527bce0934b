"""Statistics for simulation sweeps, in plain Python (no numpy needed).

- `wilson`: the Wilson score interval of a proportion (works with fractional
  successes, as when a shared win counts 1/k for each of k winners).
- `describe`: mean, sample standard deviation and quantiles of a sample.
- `newcombe`: the interval of a difference of two independent proportions
  (Newcombe's hybrid score method, built from two Wilson intervals).
- `student_p`, `student_quantile`: Student's t distribution (two-sided
  p-value and quantile), from the regularised incomplete beta function.
- `paired`: the mean of per-seed differences with a Student t interval and
  p-value, for designs with common random numbers.
- `holm`: Holm-Bonferroni adjusted p-values for a family of tests.
- `Sprt`: a two-sided sequential probability ratio test on paired differences.
"""
from __future__ import annotations

import functools
import math

Z95 = 1.959963984540054  # two-sided 95% quantile of the standard normal


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for `successes` out of `n` (0..1 bounds).

    >>> lo, hi = wilson(50, 100); round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    >>> wilson(0, 0)
    (0.0, 1.0)
    >>> wilson(0, 3)[0]
    0.0
    """
    if n <= 0:
        return 0.0, 1.0
    p = min(max(successes / n, 0.0), 1.0)
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    # rounding can put a bound a hair on the wrong side of p (5.6e-17 for 0 of 3)
    return min(max(0.0, centre - half), p), max(min(1.0, centre + half), p)


def proportion(successes: float, n: int) -> dict:
    """A rate with its Wilson 95% interval."""
    low, high = wilson(successes, n)
    return {"rate": successes / n if n else 0.0, "wins": successes, "games": n, "low": low, "high": high}


def quantile(sorted_values: list, q: float) -> float:
    """Linear interpolation between order statistics (R type 7, numpy's default).

    >>> quantile([1, 2, 3, 4], 0.5)
    2.5
    """
    if not sorted_values:
        return float("nan")
    pos = (len(sorted_values) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    frac = pos - lo
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * frac


QUANTILES = (("min", 0.0), ("q05", 0.05), ("q25", 0.25), ("median", 0.5), ("q75", 0.75), ("q95", 0.95), ("max", 1.0))


def mean_sd(values: list) -> tuple[float, float]:
    """Mean and sample standard deviation (n - 1); sd 0 for fewer than 2 values."""
    n = len(values)
    if n == 0:
        return float("nan"), float("nan")
    mean = math.fsum(values) / n
    if n < 2:
        return mean, 0.0
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var)


def describe(values: list) -> dict:
    """n, mean, sd and quantiles (min, 5%, 25%, median, 75%, 95%, max)."""
    ordered = sorted(values)
    mean, sd = mean_sd(ordered)
    out = {"n": len(ordered), "mean": mean, "sd": sd}
    for name, q in QUANTILES:
        out[name] = quantile(ordered, q)
    return out


def newcombe(s1: float, n1: int, s2: float, n2: int, z: float = Z95) -> tuple[float, float, float]:
    """Difference p1 - p2 of two independent proportions with Newcombe's
    hybrid score 95% interval: (difference, low, high)."""
    if n1 <= 0 or n2 <= 0:
        return float("nan"), -1.0, 1.0
    p1, p2 = s1 / n1, s2 / n2
    l1, u1 = wilson(s1, n1, z)
    l2, u2 = wilson(s2, n2, z)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, max(-1.0, low), min(1.0, high)


def normal_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b).

    >>> round(incomplete_beta(2, 3, 0.4), 6)
    0.5248
    """
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def student_p(t: float, df: float) -> float:
    """Two-sided p-value of a Student t statistic with `df` degrees of freedom.

    >>> round(student_p(2.0, 10), 6)
    0.073388
    """
    if math.isnan(t):
        return float("nan")
    if math.isinf(t):
        return 0.0
    return incomplete_beta(df / 2.0, 0.5, df / (df + t * t))


@functools.lru_cache(maxsize=4096)
def student_quantile(confidence: float, df: float) -> float:
    """The t with P(|T| <= t) = `confidence` for `df` degrees of freedom (the
    multiplier of a two-sided interval), by bisection on `student_p`.

    >>> round(student_quantile(0.95, 4), 4)
    2.7764
    """
    alpha = 1.0 - confidence
    low, high = 0.0, 1.0
    while student_p(high, df) > alpha:
        low, high = high, high * 2.0
    for _ in range(200):
        mid = (low + high) / 2.0
        if student_p(mid, df) > alpha:
            low = mid
        else:
            high = mid
        if high - low < 1e-13 * high:
            break
    return (low + high) / 2.0


MIN_PAIRS = 2  # differences a paired interval needs (one gives no spread)


def paired(differences: list, confidence: float = 0.95) -> dict:
    """Mean of per-seed differences with a Student t interval (mean ±
    t(n-1)·sd/√n) and a two-sided p-value of the one-sample t test. With
    fewer than two differences there is no spread to measure: the interval
    and the p-value are NaN."""
    n = len(differences)
    mean, sd = mean_sd(differences)
    nan = float("nan")
    if n < MIN_PAIRS:
        return {"n": n, "difference": mean, "sd": nan, "half_width": nan, "low": nan, "high": nan, "p": nan}
    se = sd / math.sqrt(n)
    half = student_quantile(confidence, n - 1) * se
    if se > 0:
        p = student_p(mean / se, n - 1)
    else:  # every difference the same: none (p 1) or a constant shift (p 0)
        p = 1.0 if mean == 0 else 0.0
    return {"n": n, "difference": mean, "sd": sd, "half_width": half, "low": mean - half, "high": mean + half, "p": p}


def mean_interval(values, confidence: float = 0.95) -> tuple[float, float, float]:
    """(mean, low, high): the mean of a sample with its Student t interval."""
    e = paired(list(values), confidence)
    return e["difference"], e["low"], e["high"]


def holm(pvalues: list) -> list:
    """Holm-Bonferroni adjusted p-values (same order as given); a NaN p-value
    (no test) stays NaN and does not count in the family."""
    tested = [i for i, p in enumerate(pvalues) if p == p]
    adjusted = [float("nan")] * len(pvalues)
    for i, p in zip(tested, _holm([pvalues[i] for i in tested])):
        adjusted[i] = p
    return adjusted


def _holm(pvalues: list) -> list:
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


class Sprt:
    """Two-sided sequential probability ratio test on paired differences.

    H0: the mean difference is 0; H1: it is +delta or -delta. Two one-sided
    Wald tests run side by side, each at alpha/2, with the normal likelihood
    and the variance estimated from the differences seen so far (the usual
    approximation when sigma is unknown). For the test against +delta:

        LLR+ = (delta / var) * (sum(x) - n * delta / 2)

    and symmetrically for -delta. Bounds: A = ln(beta / (1 - alpha/2)) and
    B = ln((1 - beta) / (alpha/2)). H1 is accepted ("changed") when either
    LLR reaches B; H0 ("no change as large as delta") when both are at or
    below A. No decision is taken before `min_games` differences, so the
    variance estimate is not taken from a handful of games.
    """

    def __init__(self, delta: float, alpha: float = 0.05, beta: float = 0.05, min_games: int = 30):
        if delta <= 0:
            raise ValueError("the effect size of a sequential test must be positive")
        self.delta, self.alpha, self.beta, self.min_games = delta, alpha, beta, min_games
        self.lower = math.log(beta / (1 - alpha / 2))
        self.upper = math.log((1 - beta) / (alpha / 2))
        self.n = 0
        self.total = 0.0
        self.squares = 0.0
        self.decision: str | None = None
        self.llr = (0.0, 0.0)

    def update(self, differences) -> str | None:
        """Add differences; return "changed", "no change" or None (continue)."""
        for x in differences:
            self.n += 1
            self.total += x
            self.squares += x * x
        if self.decision is not None or self.n < max(2, self.min_games):
            return self.decision
        mean = self.total / self.n
        var = max((self.squares - self.n * mean * mean) / (self.n - 1), 0.0)
        var = max(var, 1e-12 * self.delta * self.delta)
        d = self.delta
        up = d / var * (self.total - self.n * d / 2)
        down = -d / var * (self.total + self.n * d / 2)
        self.llr = (up, down)
        if up >= self.upper or down >= self.upper:
            self.decision = "changed"
        elif up <= self.lower and down <= self.lower:
            self.decision = "no change"
        return self.decision

    def to_dict(self) -> dict:
        return {"effect": self.delta, "alpha": self.alpha, "beta": self.beta, "games": self.n,
                "decision": self.decision or "undecided", "llr_up": self.llr[0], "llr_down": self.llr[1],
                "bounds": [self.lower, self.upper]}
