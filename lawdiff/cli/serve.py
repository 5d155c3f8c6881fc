"""``lawdiff serve``: the committee reviews in a browser (see :mod:`lawdiff.serve`)."""

from __future__ import annotations

import sys
from pathlib import Path

from lawdiff.cli.language import FilePath, command, option
from lawdiff.cli.options import Inputs, corpus_option, thresholds_option
from lawdiff.cli.terminal import echo, warning_line
from lawdiff.i18n import N_
from lawdiff.i18n import gettext as _


@command(
    help=N_(
        "Serve the report with the review controls, for the committee's browsers.\n\n"
        "Every change row gets its status, assignee and comments, with forms to decide, comment and "
        "assign; an agenda lists what is still open or in query, and the chair marks what the meeting "
        "discusses. Pages follow the corpus on disk without a restart. Members sign in with a name and "
        "the shared password; on 127.0.0.1 without a password, with a name only. Stop with Ctrl-C.\n\n"
        "Example: lawdiff serve --host 0.0.0.0 --password-file pw.txt --chairs Anne --certfile c.pem "
        "--keyfile k.pem"
    )
)
@option("--host", default="127.0.0.1", show_default=True, help=N_("The address to serve on."))
@option("--port", type=int, default=8000, show_default=True, help=N_("The port; 0 picks a free one."))
@option(
    "--review",
    "review_file",
    type=FilePath(path_type=Path, dir_okay=False),
    metavar="FILE",
    help=N_("The review store (created when missing). Default: $LAWDIFF_REVIEW, else lawdiff-review.sqlite here."),
)
@option(
    "--password-file",
    type=FilePath(path_type=Path, dir_okay=False),
    metavar="FILE",
    help=N_(
        "The committee's shared password, on the file's first line. Default: $LAWDIFF_PASSWORD; "
        "without either, only 127.0.0.1 may be served, with names only."
    ),
)
@option(
    "--chairs",
    default="",
    metavar="A,B",
    help=N_(
        "Who may accept, reject, mark a translation fix, pin, forbid and unpin, and run the meeting;"
        " the others comment, assign and query. Default: everyone."
    ),
)
@option(
    "--certfile", type=FilePath(path_type=Path, dir_okay=False), metavar="FILE", help=N_("HTTPS certificate (PEM).")
)
@option("--keyfile", type=FilePath(path_type=Path, dir_okay=False), metavar="FILE", help=N_("HTTPS private key (PEM)."))
@option(
    "--session-idle",
    default="2h",
    show_default=True,
    metavar="TIME",
    help=N_("A session unused this long ends (e.g. 30m, 2h); none lasts over 12 hours."),
)
@option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    metavar="NAME",
    help=N_(
        "A host name (or address) the browsers use for this server, besides 127.0.0.1, localhost and --host;"
        " repeat for several. Any other Host header is refused (a DNS-rebinding page on another site)."
    ),
)
@option(
    "--forwarded-allow-ips",
    default="",
    metavar="IPS",
    help=N_(
        "Behind a reverse proxy: the proxy's addresses (comma-separated), whose X-Forwarded-For and"
        " X-Forwarded-Proto are believed."
    ),
)
@corpus_option
@thresholds_option
def serve(
    host: str,
    port: int,
    review_file: Path | None,
    password_file: Path | None,
    chairs: str,
    certfile: Path | None,
    keyfile: Path | None,
    session_idle: str,
    allowed_hosts: tuple[str, ...],
    forwarded_allow_ips: str,
    inputs: Inputs,
    overrides: dict[str, float],
) -> None:
    from lawdiff.review import find_store
    from lawdiff.serve import ServeConfig, Source
    from lawdiff.serve.config import chairs_of, duration, read_password
    from lawdiff.serve.run import prepare
    from lawdiff.serve.run import serve as run

    drafts = ((inputs.draft, inputs.draft_name, inputs.draft_state),) if inputs.draft else ()
    config = ServeConfig(
        store=find_store(review_file).path,
        source=Source(inputs.dirs, drafts, inputs.use_cache, tuple(sorted(overrides.items()))),
        host=host,
        port=port,
        password=read_password(password_file),
        chairs=chairs_of(chairs),
        certfile=certfile,
        keyfile=keyfile,
        session_idle=duration(session_idle, "--session-idle"),
        allowed_hosts=tuple(allowed_hosts),
        forwarded_allow_ips=forwarded_allow_ips,
    )
    started = prepare(config)
    for line in started.warnings:
        echo(warning_line(line), err=True)
    echo(_("lawdiff: serving {store} for the committee; stop with Ctrl-C").format(store=config.store), err=True)
    echo(_("Open {url} in a browser").format(url=started.url), nl=True)
    sys.stdout.flush()
    run(started)
    echo(_("lawdiff: stopped; every write was saved"), err=True)
