"""One reader of typed money (``ledger.currencies.amount_to_minor``) behind the ledger's forms
and the staff's table templates: both read the same amounts the same way."""

from __future__ import annotations

import pytest
from django import forms

from ledger.currencies import AmountProblem, AmountRefused, amount_to_minor
from ledger.forms import to_minor_units
from tables.web.inputs import InputRefused, money_to_minor


@pytest.mark.parametrize(
    ("typed", "currency", "minor"),
    [
        ("25", "cash", 2500),
        ("25.5", "cash", 2550),
        ("1,000.50", "cash", 100050),
        ("0.01", "cash", 1),
        ("2.50", "cash", 250),
        ("100", "practice", 100),
        ("1,50,000", "practice", 150000),
    ],
)
def test_the_ledger_and_the_templates_read_an_amount_alike(typed, currency, minor):
    assert amount_to_minor(typed, currency) == minor
    assert to_minor_units(typed, currency, signed=False) == minor
    assert money_to_minor(typed, currency=currency) == minor


@pytest.mark.parametrize(
    ("typed", "currency", "problem"),
    [
        ("twenty", "cash", AmountProblem.NOT_A_NUMBER),
        ("1e3", "cash", AmountProblem.NOT_A_NUMBER),
        ("NaN", "cash", AmountProblem.NOT_A_NUMBER),
        ("٢٥", "cash", AmountProblem.NOT_A_NUMBER),
        ("", "cash", AmountProblem.NOT_A_NUMBER),
        ("-5", "cash", AmountProblem.NEGATIVE),
        ("25.001", "cash", AmountProblem.TOO_PRECISE),
        ("1.5", "practice", AmountProblem.TOO_PRECISE),
        ("10000000001", "cash", AmountProblem.TOO_LARGE),
        ("9" * 5000, "practice", AmountProblem.TOO_LARGE),
    ],
)
def test_both_refuse_the_same_amounts(typed, currency, problem):
    with pytest.raises(AmountRefused) as refused:
        amount_to_minor(typed, currency, signed=False)
    assert refused.value.problem == problem
    with pytest.raises(forms.ValidationError):
        to_minor_units(typed, currency, signed=False)
    with pytest.raises(InputRefused):
        money_to_minor(typed, currency=currency)


def test_signed_amounts_keep_their_sign_and_the_largest_is_exact():
    assert amount_to_minor("-5", "cash") == -500
    assert amount_to_minor("+5", "cash") == 500
    assert amount_to_minor("10000000000", "cash") == 10**12
    with pytest.raises(AmountRefused):
        amount_to_minor("-10000000000.01", "cash")
