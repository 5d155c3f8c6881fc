"""The interface's language: how it is chosen, the catalogs, and formatting by language.

The completeness of the Dutch interface (every page and output rendered in
Dutch, nothing left in English) is tested beside each surface: see
tests/test_i18n_*.py.
"""

from __future__ import annotations

import datetime
import gettext
import subprocess
import sys
from pathlib import Path

import pytest

from lawdiff import i18n

ROOT = Path(__file__).resolve().parent.parent


def test_choose_follows_the_order_option_env_config_locale_english(tmp_path: Path) -> None:
    config = tmp_path / "lawdiff" / "config.toml"
    config.parent.mkdir()
    config.write_text('lang = "nl"\n', encoding="utf-8")
    base = {"XDG_CONFIG_HOME": str(tmp_path), "LANG": "en_GB.UTF-8"}
    assert i18n.choose(None, base) == "nl"  # the configuration before the locale
    assert i18n.choose("en", base) == "en"  # the option before everything
    assert i18n.choose(None, {**base, "LAWDIFF_LANG": "en"}) == "en"  # the variable before the configuration
    assert i18n.choose(None, {"LANG": "nl_NL.UTF-8", "HOME": str(tmp_path)}) == "nl"
    assert i18n.choose(None, {"LC_ALL": "C", "LANG": "nl_NL.UTF-8", "HOME": str(tmp_path)}) == "en"
    assert i18n.choose(None, {"LC_MESSAGES": "nl_BE", "LANG": "en_US", "HOME": str(tmp_path)}) == "nl"
    assert i18n.choose(None, {"HOME": str(tmp_path)}) == "en"


def test_a_language_without_an_interface_is_an_error_where_chosen_and_passed_over_in_the_locale(tmp_path: Path) -> None:
    with pytest.raises(i18n.LanguageError, match="--lang: no interface in 'fr'; use one of en, nl"):
        i18n.choose("fr", {})
    with pytest.raises(i18n.LanguageError, match="LAWDIFF_LANG"):
        i18n.choose(None, {"LAWDIFF_LANG": "de"})
    assert i18n.choose(None, {"LANG": "fr_FR.UTF-8", "HOME": str(tmp_path)}) == "en"
    bad = tmp_path / "lawdiff" / "config.toml"
    bad.parent.mkdir()
    bad.write_text("lang = [", encoding="utf-8")  # a broken configuration does not stop a command
    assert i18n.choose(None, {"XDG_CONFIG_HOME": str(tmp_path), "LANG": "nl_NL"}) == "nl"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("nl-NL,nl;q=0.9,en;q=0.8", "nl"),
        ("en-US,en;q=0.9,nl;q=0.8", "en"),
        ("fr-FR,fr;q=0.9,nl;q=0.5,en;q=0.4", "nl"),
        ("de;q=1, en;q=0.2, nl;q=0.7", "nl"),
        ("nl;q=0, en", "en"),
        ("*", "en"),
        ("", "en"),
        (None, "en"),
        ("nl;q=abc, en;q=0.1", "en"),
    ],
)
def test_accept_language_picks_the_best_language_lawdiff_has(header: str | None, expected: str) -> None:
    assert i18n.from_accept_language(header) == expected


def test_the_request_language_is_its_own_and_the_process_language_stays() -> None:
    assert i18n.language() == "en"
    with i18n.use("nl"):
        assert i18n.language() == "nl"
        with i18n.use("en"):
            assert i18n.language() == "en"
        assert i18n.language() == "nl"
    assert i18n.language() == "en"


def test_dates_numbers_and_names_follow_the_language() -> None:
    day = datetime.date(2026, 12, 2)
    with i18n.use("nl"):
        assert i18n.format_date(day) == "2 december 2026"
        assert i18n.format_percent(0.73) == "73%"
        assert i18n.format_number(1234.5, 1) == "1.234,5"
        assert sorted(["Zwart", "'s-Gravesande", "Élise", "emma", "IJsbrand"], key=i18n.sort_key) == [
            "Élise",
            "emma",
            "'s-Gravesande",
            "IJsbrand",
            "Zwart",
        ]
    with i18n.use("en"):
        assert i18n.format_date(day) == "December 2, 2026"
        assert i18n.format_percent(0.735, 1) == "73.5%"


def test_the_decimal_signs_kept_are_babels() -> None:
    from babel.numbers import get_decimal_symbol

    assert set(i18n.DECIMAL_SIGNS) == set(i18n.LANGUAGES)
    for language, sign in i18n.DECIMAL_SIGNS.items():
        assert sign == get_decimal_symbol(language), language


def test_the_shipped_catalogs_are_complete_and_compiled() -> None:
    """Every message the code marks is in each catalog, translated and not fuzzy, and the .mo is the .po compiled."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "catalogs.py"), "check"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import catalogs
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    for lang in catalogs.LANGUAGES:
        in_catalog = {
            m.id if isinstance(m.id, str) else m.id[0] for m in catalogs.read(catalogs.po_path(lang), lang) if m.id
        }
        in_code = {m.id if isinstance(m.id, str) else m.id[0] for m in catalogs.extracted() if m.id}
        assert sorted(in_code - in_catalog) == [], f"run scripts/catalogs.py update and translate them in {lang}"


def test_the_compiled_catalog_is_what_gettext_reads() -> None:
    for lang in i18n.LANGUAGES:
        if lang == i18n.DEFAULT:
            continue
        found = gettext.find(i18n.DOMAIN, str(i18n.LOCALE_DIR), languages=[lang])
        assert found is not None, f"no compiled catalog for {lang} in {i18n.LOCALE_DIR}"


# Synonyms the glossary (../shared/GLOSSARY-nl.md, copied in lawdiff/locale/GLOSSARY-nl.md) rules out: one
# Dutch word per concept, and for clauses these are not the words of Dutch legislative drafting
# (a clause is "ingevoegd", "vervallen", "vernummerd").
BANNED = ("verwijderd", "toegevoegd", "hernummerd")


def test_the_dutch_catalog_uses_no_banned_synonym() -> None:
    po = (i18n.LOCALE_DIR / "nl" / "LC_MESSAGES" / "lawdiff.po").read_text(encoding="utf-8")
    strings = [line for line in po.splitlines() if line.startswith(("msgstr", '"')) and not line.startswith('""')]
    found = [line for line in strings for word in BANNED if word in line.lower()]
    assert found == [], "use the glossary's word (lawdiff/locale/GLOSSARY-nl.md)"
