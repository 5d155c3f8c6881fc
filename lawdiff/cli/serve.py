"""``lawdiff serve``: the committee reviews in a browser (see :mod:`lawdiff.serve`)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from lawdiff.cli.options import Inputs, corpus_option, thresholds_option
from lawdiff.cli.terminal import echo


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to serve on.")
@click.option("--port", type=int, default=8000, show_default=True, help="The port; 0 picks a free one.")
@click.option(
    "--review",
    "review_file",
    type=click.Path(path_type=Path, dir_okay=False),
    metavar="FILE",
    help="The review store (created when missing). Default: $LAWDIFF_REVIEW, else lawdiff-review.sqlite here.",
)
@click.option(
    "--password-file",
    type=click.Path(path_type=Path, dir_okay=False),
    metavar="FILE",
    help="The committee's shared password, on the file's first line. Default: $LAWDIFF_PASSWORD; "
    "without either, only 127.0.0.1 may be served, with names only.",
)
@click.option(
    "--chairs",
    default="",
    metavar="A,B",
    help="Who may accept, reject, mark a translation fix, pin, forbid and unpin, and run the meeting;"
    " the others comment, assign and query. Default: everyone.",
)
@click.option(
    "--certfile", type=click.Path(path_type=Path, dir_okay=False), metavar="FILE", help="HTTPS certificate (PEM)."
)
@click.option(
    "--keyfile", type=click.Path(path_type=Path, dir_okay=False), metavar="FILE", help="HTTPS private key (PEM)."
)
@click.option(
    "--session-idle",
    default="2h",
    show_default=True,
    metavar="TIME",
    help="A session unused this long ends (e.g. 30m, 2h); none lasts over 12 hours.",
)
@click.option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    metavar="NAME",
    help="A host name (or address) the browsers use for this server, besides 127.0.0.1, localhost and --host;"
    " repeat for several. Any other Host header is refused (a DNS-rebinding page on another site).",
)
@click.option(
    "--forwarded-allow-ips",
    default="",
    metavar="IPS",
    help="Behind a reverse proxy: the proxy's addresses (comma-separated), whose X-Forwarded-For and"
    " X-Forwarded-Proto are believed.",
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
    """Serve the report with the review controls, for the committee's browsers.

    Every change row gets its status, assignee and comments, with forms to
    decide, comment and assign; an agenda lists what is still open or in
    query, and the chair marks what the meeting discusses. Pages follow the
    corpus on disk without a restart. Members sign in with a name and the
    shared password; on 127.0.0.1 without a password, with a name only.
    Stop with Ctrl-C.

    Example: lawdiff serve --host 0.0.0.0 --password-file pw.txt --chairs Anne --certfile c.pem --keyfile k.pem
    """
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
        echo(f"lawdiff: warning: {line}", err=True)
    echo(f"lawdiff: serving {config.store} for the committee; stop with Ctrl-C", err=True)
    echo(f"Open {started.url} in a browser", nl=True)
    sys.stdout.flush()
    run(started)
    echo("lawdiff: stopped; every write was saved", err=True)
