"""The corpus settings file: ``lawdiff.toml`` at the top of a corpus folder."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from lawdiff.errors import InputError
from lawdiff.i18n import gettext as _

SETTINGS_FILE = "lawdiff.toml"


@dataclass(frozen=True, slots=True)
class Settings:
    """The corpus settings file (``lawdiff.toml`` in a corpus folder).

    default: for a year held from two sources, which one the bare year means
        (``[default] "2017" = "nuxt"``).
    printing: the printing a source was made from, when its pages do not
        say (``[printing] "2017@wiki" = "2e druk"``).
    thresholds: alignment thresholds for this corpus (``[thresholds]
        match_min = 0.5``), so that everyone who compares it gets the same
        results; ``--threshold`` still overrides them.
    """

    default: dict[str, str] = field(default_factory=dict)
    printing: dict[str, str] = field(default_factory=dict)
    thresholds: dict[str, float] = field(default_factory=dict)
    file: str = ""  # where the settings were read, for messages


# The tables a settings file may hold (see Settings).
_TABLES = ("default", "printing", "thresholds")


def read_settings(roots: list[Path]) -> Settings:
    """Read ``lawdiff.toml`` from the corpus folders that have one."""
    default: dict[str, str] = {}
    printing: dict[str, str] = {}
    thresholds: dict[str, float] = {}
    read_from = ""
    for root in roots:
        path = root / SETTINGS_FILE
        if not root.is_dir() or not path.is_file():
            continue
        # Imported here (3 ms): a corpus without settings, and finding the corpus's files, need no parser.
        import tomllib

        try:
            # utf-8-sig: Windows Notepad starts a UTF-8 file with a byte order mark, which TOML does not allow.
            data = tomllib.loads(path.read_text(encoding="utf-8-sig"))
        except OSError as exc:
            raise InputError(
                _("cannot read the settings ({strerror})").format(strerror=exc.strerror or exc),
                file=str(path),
                fix=_("check the file's permissions, or remove it"),
            ) from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise InputError(
                _("the settings are not valid TOML ({exc})").format(exc=exc),
                file=str(path),
                fix=_('write e.g. [default] "2017" = "nuxt"'),
            ) from None
        unknown = [k for k in data if k not in _TABLES]
        if unknown:
            # A misspelt table ([threshold]) would otherwise be ignored without a word.
            raise InputError(
                _("unknown setting {unknown!r}").format(unknown=unknown[0]),
                file=str(path),
                fix=_("the settings are the tables {names}; rename or remove it").format(
                    names=", ".join(f"[{k}]" for k in _TABLES)
                ),
            )
        for table, into in (("default", default), ("printing", printing)):
            values = data.get(table, {})
            if not isinstance(values, dict) or not all(isinstance(v, str) for v in values.values()):
                raise InputError(
                    _("[{table}] must map names to text").format(table=table),
                    file=str(path),
                    fix=_('write e.g. [default] "2017" = "nuxt"'),
                )
            into.update({str(k): str(v) for k, v in values.items()})
        table = data.get("thresholds", {})
        if not isinstance(table, dict) or not all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in table.values()
        ):
            raise InputError(
                _("[thresholds] must map threshold names to numbers"),
                file=str(path),
                fix=_("write e.g. [thresholds] match_min = 0.5"),
            )
        thresholds.update({str(k): float(v) for k, v in table.items()})
        read_from = str(path)
    return Settings(default, printing, thresholds, read_from)
