"""click's own messages that a user of lawdiff meets, marked for lawdiff's catalog.

click writes them in English and passes each through ``gettext``;
:func:`lawdiff.cli.language.install` has those calls look in lawdiff's
catalog, which holds their Dutch because they are listed here (Babel extracts
only what lawdiff's code marks).  Each is click's message exactly, placeholders
and all; one click changes is shown in English until it is listed again
(tests/test_i18n_cli.py checks that each is still click's).
"""

from __future__ import annotations

from lawdiff.i18n import N_, ngettext

MESSAGES = (
    # The help: its usage line, headings and the options every command has.
    N_("Usage:"),
    N_("Options"),
    N_("Commands"),
    N_("Show this message and exit."),
    N_("default: {default}"),
    N_("env var: {var}"),
    N_("required"),
    # Usage errors (made one line by lawdiff.cli).
    N_("Missing command."),
    N_("Missing argument"),
    N_("Missing option"),
    N_("Missing parameter"),
    N_("No such option {name!r}."),
    N_("No such command {name!r}."),
    N_("Invalid value: {message}"),
    N_("Invalid value for {param_hint}: {message}"),
    N_("Option {name!r} does not take a value."),
    N_("Argument {name!r} takes {nargs} values."),
    N_("{value!r} is not a valid {number_type}."),
    N_("{value} is not in the range {range}."),
    N_("{value!r} is not a valid boolean. Recognized values: {states}"),
    N_("{name} {filename!r} does not exist."),
    N_("{name} {filename!r} is a file."),
    N_("{name} {filename!r} is a directory."),
    N_("{name} {filename!r} is not readable."),
    N_("{name} {filename!r} is not writable."),
    N_("Could not open file {filename!r}: {message}"),
    N_("file"),
    N_("directory"),
    N_("path"),
    N_("Aborted!"),
)

# click's messages with a plural: marked by calling ngettext (the only way Babel finds a plural).
PLURALS = (
    ngettext("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)", 1),
    ngettext("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})", 1),
    ngettext("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments.", 1),
    ngettext("{value!r} is not {choice}.", "{value!r} is not one of {choices}.", 1),
    ngettext("Takes {nargs} values but 1 was given.", "Takes {nargs} values but {len} were given.", 1),
)
