"""``lawdiff serve``: the committee reviews in a browser, several people at once.

One member runs the server on a laptop or a small server; the others open it
in their browsers.  It serves the report's pages (:mod:`lawdiff.report.html`,
the same look and the same citation anchors), rendered on request from the
cached study and the review store, with the review controls added to every
change row through the report's row hook (:attr:`lawdiff.report.site.Site.annotate`).

Modules: ``config`` (what the server is told, checked before it starts),
``auth`` (sign-in, the forgery token, the throttle, who may do what),
``sessions`` (kept by the server, only a hash of each token), ``language``
(each member's, chosen per request: the session's, the browser's, the server's),
``state`` (the corpus, study and report plan, re-made when the corpus or the
hand corrections change; one store connection per thread, opened again after
the store failed; rendered pages kept per store version), ``rows`` (the
review block of a change row), ``rowforms`` (its forms), ``marked`` (what
members wrote, isolated, its hidden characters shown), ``pages`` (the served
pages: the report's with the server's bar, the agenda, meeting mode, people,
sign-in), ``endpoints`` (the guards every endpoint passes, and what the
endpoints share), ``signin`` (signing in and out), ``views`` (the GET
endpoints, the live updates, the minutes), ``writes`` (the POST endpoints
that write to the store), ``app`` (the Starlette application: its routes,
each with the action it asks for, the Host check, the headers), ``run``
(binding the port, proving the store writable, running uvicorn).

This package sits after :mod:`lawdiff.report` in the pipeline; only
:mod:`lawdiff.cli` imports it.
"""

from __future__ import annotations

from lawdiff.serve.app import create_app
from lawdiff.serve.config import ServeConfig, Source

__all__ = ["ServeConfig", "Source", "create_app"]
