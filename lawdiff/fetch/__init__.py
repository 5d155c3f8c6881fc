"""Fetching the law from where it lives: a MediaWiki's ``api.php``, or the 2017 Nuxt site.

An input stage beside :mod:`lawdiff.sources`: it writes the files the
readers read (one MediaWiki export per edition, or the site's payloads) into
a corpus folder, with a manifest (:mod:`lawdiff.fetch.manifest`) so that a
later fetch asks only for what changed. It imports only the sources, the
corpus's file rules and the errors.

Modules: ``client`` (the one HTTP client, polite, with one-line errors),
``wikiapi`` (api.php: finding it, listing an edition's pages and revisions,
export, parse), ``mediawiki`` (an edition's export, incremental and
resumable), ``site`` (the Nuxt site's payloads), ``manifest`` (the manifest
and atomic writes), ``differential`` (lawdiff's reading of a wiki page
against MediaWiki's rendering, for ``lawdiff check --against``).
"""
