"""A score adds its terms as one numerator over one denominator and rounds
a fraction on the two integers (game._total, game._rounded): the same
numbers as adding them as Fractions and rounding with `round(x, 4)`, which
cost as much as the rest of scoring a game."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

from interpreter.game import _number, _total


def reference(values):
    total = sum(values)
    if isinstance(total, Fraction):
        return int(total) if total.denominator == 1 else float(round(total, 4))
    return total


def same(a, b) -> bool:
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("seed", range(5))
def test_terms_added_as_one_fraction_give_the_sum_of_fractions(seed):
    rnd = random.Random(seed)
    for _ in range(2000):
        values = [Fraction(rnd.randint(-50, 50), rnd.randint(1, 12)) if rnd.random() < 0.3 else rnd.randint(-30, 30)
                  for _ in range(rnd.randint(0, 6))]
        values = [int(v) if isinstance(v, Fraction) and v.denominator == 1 and rnd.random() < 0.5 else v
                  for v in values]
        assert same(_total(values), reference(values)), values


@pytest.mark.parametrize("value", [Fraction(1, 20000), Fraction(3, 20000), Fraction(-1, 20000), Fraction(-3, 20000),
                                   Fraction(9, 2), Fraction(-9, 2), Fraction(1, 3), Fraction(-2, 3),
                                   Fraction(123456789, 7), Fraction(5, 1), Fraction(10**30 + 1, 3 * 10**8)])
def test_a_fraction_is_rounded_half_to_even_as_round_does(value):
    assert same(_number(value), reference([value]))
    assert same(_total([1, value, Fraction(1, 2)]), reference([1, value, Fraction(1, 2)]))


def test_a_term_that_is_neither_int_nor_fraction_is_added_as_sum_adds_it():
    assert same(_total([1, True, Fraction(1, 2)]), reference([1, True, Fraction(1, 2)]))
    assert same(_total([]), 0)
