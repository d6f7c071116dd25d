"""``tables.presenters.words.Words``: the active language's words, each looked up once a
process, read as Django's ``gettext`` and ``ngettext`` read them, whichever language was asked
before."""

from __future__ import annotations

import pytest
from django.test import override_settings
from django.utils import translation
from django.utils.translation import gettext, ngettext

from tables.presenters.words import PLURAL_KEPT_BELOW, Words, _memo


@pytest.fixture(autouse=True)
def _default_language_afterwards():
    yield
    translation.activate("en")


def test_each_language_reads_its_own_words_whichever_was_asked_first():
    read = []
    for language in ("hi", "en", "hi", "en"):
        with translation.override(language):
            words = Words()
            read.append((words.gettext("Drop now"), words.gettext("Drop now")))
    assert read == [
        ("अभी ड्रॉप", "अभी ड्रॉप"),
        ("Drop now", "Drop now"),
        ("अभी ड्रॉप", "अभी ड्रॉप"),
        ("Drop now", "Drop now"),
    ]


@pytest.mark.parametrize("language", ["en", "hi"])
@pytest.mark.parametrize("count", [0, 1, 2, 7, PLURAL_KEPT_BELOW - 1, PLURAL_KEPT_BELOW, 10**6, -1])
def test_a_plural_reads_as_ngettext_reads_it(language, count):
    with translation.override(language):
        expected = ngettext("%(drops)s drop", "%(drops)s drops", count)
        words = Words()
        for _ in range(2):  # the second from the memo, where it is kept
            assert words.ngettext("%(drops)s drop", "%(drops)s drops", count) == expected
    assert Words().ngettext("%(drops)s drop", "%(drops)s drops", 1) == "%(drops)s drop"


def test_the_one_and_the_many_differ_in_english():
    with translation.override("en"):
        words = Words()
        assert words.ngettext("%(drops)s drop", "%(drops)s drops", 1) == "%(drops)s drop"
        assert words.ngettext("%(drops)s drop", "%(drops)s drops", 2) == "%(drops)s drops"


def test_with_no_language_active_the_words_are_the_messages():
    with translation.override(None):
        assert Words().gettext("Drop now") == "Drop now"
    with translation.override("hi"):
        assert Words().gettext("Drop now") == "अभी ड्रॉप"


def test_a_changed_default_language_is_read_afresh():
    """With no language active, the site's default decides."""
    translation.deactivate()
    assert Words().gettext("Drop now") == "Drop now"
    with override_settings(LANGUAGE_CODE="hi"):
        translation.deactivate()
        assert Words().gettext("Drop now") == gettext("Drop now") == "अभी ड्रॉप"
    translation.deactivate()
    assert Words().gettext("Drop now") == "Drop now"


def test_changed_catalogs_forget_the_words_kept():
    """A test that changes the languages or their files (Django's ``setting_changed``) reads
    them afresh: nothing kept from before is read again."""
    with translation.override("en"):
        kept = _memo("en")
        Words().gettext("Drop now")
        assert kept
        with override_settings(LOCALE_PATHS=[]):
            assert _memo("en") is not kept and not _memo("en")
