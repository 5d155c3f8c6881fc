"""The interface's message catalogs: extract, update, compile, check (Babel).

    python3 scripts/catalogs.py update    # extract every marked message from lawdiff/ and merge them
                                          # into each language's .po (new entries empty, gone ones dropped)
    python3 scripts/catalogs.py compile   # .po -> .mo beside it (the wheel ships the .mo)
    python3 scripts/catalogs.py check     # exit 1, naming them, on untranslated or fuzzy entries,
                                          # or a .mo older than its .po
    python3 scripts/catalogs.py union LANG OTHER.po
                                          # take OTHER's translations of the messages LANG's .po lacks or
                                          # leaves empty (after a merge: git checkout --ours the .po,
                                          # git show MERGE_HEAD:<path> > other.po, union, update, compile)

A translator edits ``lawdiff/locale/<lang>/LC_MESSAGES/lawdiff.po`` (with any
PO editor, or by hand), then runs ``compile``.  The tests (tests/test_i18n.py)
fail on a message in the code that the catalog lacks, and on a .mo that is
not the compiled .po.
"""

from __future__ import annotations

import io
import sys
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "lawdiff" / "locale"
# Fixed so that the files change only when a message does (no creation date of the day they were written).
HEADER = {
    "project": "lawdiff",
    "domain": "lawdiff",
    "charset": "utf-8",
    "copyright_holder": "the lawdiff authors",
    "msgid_bugs_address": "the lawdiff issue tracker",
    "last_translator": "the rules committee's translators",
    "creation_date": datetime(2026, 12, 2, tzinfo=UTC),
    "revision_date": datetime(2026, 12, 2, tzinfo=UTC),
    "fuzzy": False,
}
LANGUAGES = ("nl",)
METHOD_MAP = [("lawdiff/**.py", "python")]


def extracted() -> Catalog:
    """Every message the code marks, with where it stands (Babel's extraction over lawdiff/)."""
    catalog = Catalog(**HEADER)  # type: ignore[arg-type]
    for filename, lineno, message, comments, context in extract_from_dir(
        str(ROOT), METHOD_MAP, comment_tags=("Translators:",), strip_comment_tags=True
    ):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "lawdiff.po"


def read(path: Path, lang: str) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=lang, domain="lawdiff")


def compiled(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def written(catalog: Catalog, **options: object) -> bytes:
    out = io.BytesIO()
    # Sorted by message and without locations: two branches that add messages rarely touch the same lines.
    write_po(out, catalog, width=100, sort_output=True, no_location=True, **options)  # type: ignore[arg-type]
    return out.getvalue()


def update() -> None:
    template = extracted()
    for lang in LANGUAGES:
        path = po_path(lang)
        catalog = read(path, lang) if path.exists() else Catalog(locale=lang, **HEADER)  # type: ignore[arg-type]
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        for name, value in HEADER.items():
            setattr(catalog, name, value)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(written(catalog))
    print(f"{len(template)} messages extracted; {', '.join(LANGUAGES)} updated")


def compile_all() -> None:
    for lang in LANGUAGES:
        path = po_path(lang)
        path.with_suffix(".mo").write_bytes(compiled(read(path, lang)))


def problems() -> list[str]:
    found: list[str] = []
    for lang in LANGUAGES:
        path = po_path(lang)
        catalog = read(path, lang)
        for message in catalog:
            if not message.id:
                continue
            where = f"{path.relative_to(ROOT)}: {message.id!r}"
            if message.fuzzy:
                found.append(f"{where} is fuzzy")
            elif not message.string or (isinstance(message.string, tuple) and not all(message.string)):
                found.append(f"{where} has no translation")
        mo = path.with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != compiled(catalog):
            found.append(f"{mo.relative_to(ROOT)} is not the compiled {path.name}: run scripts/catalogs.py compile")
    return found


def union(lang: str, other: Path) -> None:
    path = po_path(lang)
    ours, theirs = read(path, lang), read(other, lang)
    for message in theirs:
        if message.id and message.string and not message.fuzzy:
            mine = ours.get(message.id, context=message.context)
            if mine is None:
                ours[message.id] = message
            elif not mine.string or (isinstance(mine.string, tuple) and not all(mine.string)):
                # Babel's catalog[id] = message keeps an entry's own (empty) translation: set it here.
                mine.string = message.string
    path.write_bytes(written(ours))


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else ""
    if command == "update":
        update()
    elif command == "compile":
        compile_all()
    elif command == "union" and len(argv) == 4:
        union(argv[2], Path(argv[3]))
    elif command == "check":
        found = problems()
        for line in found:
            print(line)
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
