"""Languages (README "Languages"): the Hindi catalogue is complete and compiled, every
player-facing string is marked for translation, and amounts and pages follow the viewer's
language.

What the marking checks cover, honestly:
- templates: every player-facing template (all of ``templates/`` but the admin's and support's
  staff pages) has no text node and no ``title``/``aria-label``/``placeholder``/``alt``/
  ``*-confirm`` attribute with words outside ``{% translate %}``/``{% blocktranslate %}``
  (a few symbols and technical words are allowed by name). Text that comes from variables is
  the Python side's job.
- Python: in the player-facing modules listed in ``PLAYER_MODULES`` no ``messages.*`` call,
  raised exception, form ``label``/``help_text``/``error_messages`` or ``default_message`` is a
  bare string or f-string (``_()``/``gettext_lazy()`` with ``%(name)s`` placeholders instead).
  Internal invariants and provider-facing messages that no player sees are listed by name.
- refusals: every code of the pure engine (``tables.rules.errors.Refusal``) and of the tables'
  services (``tables.services.TableRefusal``) has a marked sentence with a Hindi translation,
  and renders with its params in both languages (``tables/web/messages.py``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils import translation
from django.utils.translation.template import templatize

ROOT = Path(settings.BASE_DIR)
PO = ROOT / "locale" / "hi" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")

STAFF_TEMPLATES = ("admin/", "tables/support/", "ledger/admin/")
ALLOWED_WORDS = {"SHA-256:"}

PLAYER_MODULES = [
    "accounts/friends/errors.py",
    "accounts/friends/views.py",
    "accounts/forms.py",
    "accounts/models.py",
    "accounts/services.py",
    "accounts/throttle.py",
    "accounts/views.py",
    "accounts/push/forms.py",
    "accounts/push/receivers.py",
    "accounts/push/views.py",
    "tables/live/turn_push.py",
    "tables/tournaments/reminders.py",
    "ledger/errors.py",
    "ledger/forms.py",
    "ledger/views.py",
    "ledger/payments/services.py",
    "ledger/payments/views.py",
    "ledger/services/cashier.py",
    "tables/history/presenters.py",
    "tables/history/views.py",
    "tables/web/messages.py",
    "tables/presenters/cards.py",
    "tables/presenters/moves.py",
    "tables/presenters/results.py",
    "tables/presenters/table.py",
    "tables/web/rules_pages.py",
    "tables/web/friends.py",
    "tables/web/views.py",
    "tables/tournaments/hooks.py",
    "tables/tournaments/services.py",
    "tables/tournaments/views.py",
    "tables/services/_context.py",
    "tables/services/errors.py",
    "tables/services/friends.py",
    "tables/services/limits.py",
    "tables/services/matching.py",
    "tables/services/play.py",
    "tables/services/seating.py",
    "tables/services/settlement.py",
    # support's pages: staff read them in their own language too
    "tables/support/presenters.py",
    "tables/support/views.py",
]
# Never shown to a player: invariants that mean a bug, and answers to a payment provider.
NOT_PLAYER_FACING = {
    ("tables/services/settlement.py", "negative payout"),
    ("ledger/payments/services.py", "The callback names no deposit of ours."),
    ("ledger/payments/services.py", "The callback amount differs from the deposit."),
    ("ledger/payments/services.py", "The refund names no payment."),
    ("ledger/payments/services.py", "The refund names no deposit of ours (yet)."),
    ("ledger/payments/services.py", "A refund of a deposit that is not paid (yet)."),
    # staff-only fields and forms (the admin)
    ("accounts/models.py", "When the player confirmed being 18 or older."),
    ("accounts/models.py", "Staff checked the player's identity"),
    ("accounts/models.py", "Paise; empty: no limit."),
    ("ledger/forms.py", "Positive credits the wallet"),
    ("ledger/payments/services.py", "This withdrawal was already decided"),
}


def _po() -> polib.POFile:
    return polib.pofile(str(PO))


def test_the_hindi_catalogue_has_no_untranslated_or_fuzzy_entry():
    po = _po()
    assert not po.untranslated_entries(), [e.msgid for e in po.untranslated_entries()]
    assert not po.fuzzy_entries(), [e.msgid for e in po.fuzzy_entries()]
    assert po.percent_translated() == 100


def test_every_hindi_translation_keeps_the_placeholders_of_its_english():
    placeholder = re.compile(r"%\([a-z_]+\)[sd]|<[a-z/][^>]*>")
    for entry in _po().translated_entries():
        wanted = sorted(placeholder.findall(entry.msgid))
        got = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        for text in got:
            assert sorted(placeholder.findall(text)) == wanted, entry.msgid


def test_the_committed_mo_matches_the_po():
    """CI needs no gettext: the compiled catalogue is committed, and must say what the .po says
    (``manage.py compilemessages`` or ``scripts/compile_messages`` after changing the .po)."""
    assert MO.exists(), "compile the catalogue: scripts/compile_messages"
    po = {(e.msgctxt, e.msgid, e.msgid_plural): _texts(e) for e in _po().translated_entries()}
    mo = {(e.msgctxt, e.msgid, e.msgid_plural): _texts(e) for e in polib.mofile(str(MO)) if e.msgid}
    assert po == mo, "locale/hi/LC_MESSAGES/django.mo is stale: scripts/compile_messages"


def _texts(entry: polib._BaseEntry) -> tuple[str, ...]:
    if entry.msgid_plural:
        return tuple(entry.msgstr_plural[k] for k in sorted(entry.msgstr_plural))
    return (entry.msgstr,)


def _templates() -> list[Path]:
    return sorted((ROOT / "templates").rglob("*.html"))


def _source_msgids() -> set[str]:
    found: set[str] = set()
    # templatize writes gettext(u'msgid') / pgettext(u'context', u'msgid'): the msgid is the
    # first literal, or the second after a context
    literal = r"u'(?:[^'\\]|\\.)*'"
    call = re.compile(rf"\b(n?p?)gettext\(({literal})(?:,\s*({literal}))?")
    for path in _templates():
        for prefix, first, second in call.findall(templatize(path.read_text(), origin=str(path))):
            found.add(ast.literal_eval(second if "p" in prefix and second else first))
    names = {"_", "gettext", "gettext_lazy", "_lazy", "ngettext", "ngettext_lazy"}
    for folder in ("accounts", "ledger", "tables", "rummy_site"):
        for path in (ROOT / folder).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if (
                    isinstance(node, ast.Call)
                    and getattr(node.func, "id", getattr(node.func, "attr", "")) in names
                    and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)
                ):
                    found.add(node.args[0].value)
    return found


def test_every_marked_string_is_in_the_hindi_catalogue():
    """A string marked in a template or in Python but missing from locale/hi (run
    ``manage.py makemessages -l hi`` and translate it) fails here, gettext or not."""
    catalogue = {e.msgid for e in _po() if not e.obsolete}
    missing = sorted(_source_msgids() - catalogue)
    assert not missing, missing


_ATTRIBUTE = re.compile(
    r'\b(?:title|aria-label|placeholder|alt|data-confirm|hx-confirm)="([^"{]*[A-Za-z][^"{]*)"'
)


def _unmarked(path: Path) -> list[str]:
    """Words in a template outside {% translate %} / {% blocktranslate %}: template syntax is
    taken out first (marked blocks, comments, tags, variables), then the HTML tags, keeping the
    player-facing attributes; what is left must have no word."""
    source = path.read_text()
    source = re.sub(
        r"{%\s*blocktrans(?:late)?\b.*?{%\s*endblocktrans(?:late)?\s*%}", "", source, flags=re.S
    )
    source = re.sub(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}", "", source, flags=re.S)
    # htmx's configuration (JSON in a meta tag), not words
    source = re.sub(r"{%\s*block htmx_config\s*%}.*?{%\s*endblock\s*%}", "", source, flags=re.S)
    source = re.sub(r"{#.*?#}|{%.*?%}|{{.*?}}", "", source, flags=re.S)
    problems = [f"attribute {m!r}" for m in _ATTRIBUTE.findall(source)]
    text = re.sub(r"<[^>]*>|&[a-z]+;|&#\d+;", " ", source)
    problems += [
        word
        for word in text.split()
        if re.search(r"[A-Za-z]{2,}", word) and word not in ALLOWED_WORDS
    ]
    return problems


def _player_templates() -> list[str]:
    names = [str(p.relative_to(ROOT / "templates")) for p in _templates()]
    return [n for n in names if not n.startswith(STAFF_TEMPLATES)]


@pytest.mark.parametrize("name", _player_templates())
def test_a_player_template_has_no_unmarked_words(name):
    assert _unmarked(ROOT / "templates" / name) == []


def test_the_unmarked_words_check_finds_words():
    """The check itself: plain words and titles are found, marked ones are not."""
    sample = ROOT / "templates" / "_sample_for_test.html"
    sample.write_text(
        '{% load i18n %}<p title="Hello there">Plain words</p>'
        '<p>{% translate "Marked" %}</p>{% blocktranslate %}Also {{ x }}{% endblocktranslate %}'
    )
    try:
        assert _unmarked(sample) == ["attribute 'Hello there'", "Plain", "words"]
    finally:
        sample.unlink()


def _bare_strings(tree: ast.AST) -> list[tuple[int, str]]:
    """String literals or f-strings where a player-facing text must be marked."""

    def text_of(node: ast.AST | None) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value if re.search(r"[A-Za-z]{2,}", node.value) else None
        if isinstance(node, ast.JoinedStr):
            return ast.unparse(node)
        return None

    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        candidates: list[ast.AST | None] = []
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            candidates += node.exc.args[:1]
        if isinstance(node, ast.Call):
            func = node.func
            name = getattr(func, "attr", getattr(func, "id", ""))
            owner = getattr(getattr(func, "value", None), "id", "")
            if owner == "messages" and len(node.args) > 1:
                candidates.append(node.args[1])
            if name == "ValidationError":
                candidates += node.args[:1]
            for keyword in node.keywords:
                if keyword.arg in ("label", "help_text"):
                    candidates.append(keyword.value)
                if keyword.arg in ("error_messages", "help_texts") and isinstance(
                    keyword.value, ast.Dict
                ):
                    candidates += keyword.value.values
        if isinstance(node, ast.Assign) and any(
            getattr(t, "id", "") in ("default_message", "help_texts") for t in node.targets
        ):
            value = node.value
            candidates += value.values if isinstance(value, ast.Dict) else [value]
        for candidate in candidates:
            text = text_of(candidate)
            if text is not None:
                found.append((getattr(candidate, "lineno", 0), text))
    return found


@pytest.mark.parametrize("module", PLAYER_MODULES)
def test_player_facing_python_messages_are_marked(module):
    found = _bare_strings(ast.parse((ROOT / module).read_text()))
    unmarked = [
        f"{module}:{line}: {text}"
        for line, text in found
        if not any(module == m and prefix in text for m, prefix in NOT_PLAYER_FACING)
    ]
    assert not unmarked, unmarked


def test_the_bare_string_check_finds_them():
    tree = ast.parse(
        'messages.error(request, "Plain")\nraise TableError(f"Seat {n} is taken")\n'
        'messages.error(request, _("Marked"))\nraise TableError(_("Marked %(n)s") % {"n": 1})\n'
    )
    assert sorted(text for _line, text in _bare_strings(tree)) == ["Plain", "f'Seat {n} is taken'"]


# --- refusals, translated by their codes ----------------------------------------------------
_CARD_SAMPLES = {"card": "QH", "cards": ("QH", "KH", "10S")}


def _catalogues():
    from tables.rules.errors import Refusal
    from tables.services.errors import TABLE_MESSAGES, TableRefusal
    from tables.web.messages import ENGINE_MESSAGES

    return [(Refusal, ENGINE_MESSAGES), (TableRefusal, TABLE_MESSAGES)]


def test_every_refusal_code_has_an_english_sentence_and_a_hindi_translation():
    from tables.rules.errors import ENGLISH, Refusal

    assert set(ENGLISH) == set(Refusal)
    hindi = {e.msgid: e.msgstr for e in _po().translated_entries() if not e.msgctxt}
    for codes, catalogue in _catalogues():
        assert set(catalogue) == set(codes), set(codes) ^ set(catalogue)
        for code in codes:
            msgid = catalogue[code]._args[0]
            assert msgid.strip(), code
            assert hindi.get(msgid, "").strip(), (code, msgid)


def _engine_samples(code):
    """The params the engine names ``code`` with, each with a sample value."""
    import string

    from tables.rules.errors import ENGLISH

    names = {name for _text, name, _spec, _conv in string.Formatter().parse(ENGLISH[code]) if name}
    samples = {"seat": 2, "count": 4, "meld": 3, "low": 2, "high": 6, "first": 2, "last": 3}
    samples |= {"packs": 2, "players": 6, "hand_size": 13, "end": "low", "variant": "pool101"}
    samples |= {"names": ("colour", "size"), "choices": ("drop", "auto_play"), "value": "'ZZ'"}
    return {name: _CARD_SAMPLES.get(name, samples.get(name, f"<{name}>")) for name in sorted(names)}


def _refusal_cases():
    from tables.rules.errors import Refusal
    from tables.services.errors import TableRefusal

    cases = [pytest.param("engine", code, id=f"engine-{code}") for code in Refusal]
    return cases + [pytest.param("table", code, id=f"table-{code}") for code in TableRefusal]


@pytest.mark.parametrize("language", ["en", "hi"])
@pytest.mark.parametrize(("kind", "code"), _refusal_cases())
def test_every_refusal_renders_with_its_params_in_both_languages(kind, code, language):
    from tables.rules.errors import RulesError
    from tables.services.errors import TABLE_MESSAGES, TableError
    from tables.web.messages import ENGINE_MESSAGES, refusal_text, refusal_words

    if kind == "engine":
        params = _engine_samples(code)
        exc = RulesError(code, **params)
        msgid = ENGINE_MESSAGES[code]._args[0]
    else:
        msgid = TABLE_MESSAGES[code]._args[0]
        params = {name: f"<{name}>" for name in re.findall(r"%\(([a-z_]+)\)s", msgid)}
        exc = TableError(code, **params)
    with translation.override(language):
        text = refusal_words(refusal_text(exc))
        wanted = translation.gettext(msgid)
    assert text and "%(" not in text and "{" not in text, text
    assert text[-1] in ".।", text
    if language == "hi":
        assert wanted != msgid, "no Hindi for " + msgid
    for name in re.findall(r"%\(([a-z_]+)\)s", wanted):
        value = params[name]
        if name == "card":
            assert "Q♥" in text
        elif name == "cards":
            assert "Q♥ K♥ 10♠" in text
        elif name == "variant":
            assert "pool101" not in text
        elif isinstance(value, tuple):
            assert ", ".join(value) in text
        else:
            assert str(value) in text, (name, text)


def test_engine_refusals_read_in_hindi_with_the_card():
    from tables.rules.errors import InvalidMove, Refusal
    from tables.web.messages import refusal_text, refusal_words

    not_held = InvalidMove(Refusal.NOT_HELD, card="QH")
    not_turn = InvalidMove(Refusal.NOT_SEATS_TURN, seat=2)
    assert str(not_held) == "you do not hold QH"
    assert str(not_turn) == "it is not seat 2's turn"
    with translation.override("hi"):
        assert refusal_words(refusal_text(not_held)) == "आपके पास Q♥ नहीं है।"
        assert refusal_words(refusal_text(not_turn)) == "अभी आपकी बारी नहीं है।"
    with translation.override("en"):
        assert refusal_words(refusal_text(not_turn)) == "It is not your turn."
        assert refusal_words(refusal_text(not_held)) == "You do not hold Q♥."


def test_table_refusals_are_worded_when_shown_in_the_language_then_active():
    from tables.services.errors import SeatUnavailable, TableRefusal

    taken = SeatUnavailable(TableRefusal.SEAT_TAKEN, seat=3)
    with translation.override("en"):
        assert str(taken) == "Seat 3 is taken."
    with translation.override("hi"):
        assert str(taken) == translation.gettext("Seat %(seat)s is taken.") % {"seat": 3}
        assert str(taken) != "Seat 3 is taken."


# --- amounts -----------------------------------------------------------------------------------
@pytest.mark.parametrize("language", ["en", "hi"])
def test_amounts_are_grouped_the_indian_way_in_both_languages(language):
    from ledger.currencies import format_amount

    with translation.override(language):
        assert format_amount(10_000_000, "cash") == "₹1,00,000.00"
        assert format_amount(123_456_789_012, "cash") == "₹1,23,45,67,890.12"
        assert format_amount(2500, "cash") == "₹25.00"
        assert format_amount(-1250, "cash") == "-₹12.50"
    with translation.override("hi"):
        assert format_amount(150_000, "practice") == "1,50,000 चिप्स"
    with translation.override("en"):
        assert format_amount(150_000, "practice") == "1,50,000 chips"
        assert format_amount(1, "practice") == "1 chip"
