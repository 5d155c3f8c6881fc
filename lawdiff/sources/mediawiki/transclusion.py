"""Transclusion: which dump pages are pages of their own, expanded as the wiki shows them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from lawdiff.errors import InputError, LawdiffBug
from lawdiff.i18n import gettext as _
from lawdiff.model import article_of
from lawdiff.sources.base import Fragment, Furniture, Loc, Page
from lawdiff.sources.mediawiki import notes as reader_notes
from lawdiff.sources.mediawiki.dump import (
    DEFAULT_NAMESPACES,
    FORMAT,
    MAX_DEPTH,
    MAX_REDIRECTS,
    NS_NAMES,
    TEMPLATE_NS,
    Site,
    WikiPage,
    law_name,
    without_text,
)
from lawdiff.sources.mediawiki.lines import Converter, Frag, render_segments
from lawdiff.sources.mediawiki.syntax import (
    FUNCTION_PREFIX,
    MAGIC_WORDS,
    PARAM,
    Located,
    kept_ranges,
    split_args,
    template_calls,
)
from lawdiff.sources.wikitext import LinkSpan, read_lines

_TOC = re.compile(r"^(?:\d{4}[^:]*:)?\s*inhoudsopgave\b", re.I)


# ---------------------------------------------------------------------------
# From the dump's pages to lawdiff pages


@dataclass
class _Report:
    """What the expansion and conversion of one page noticed."""

    furniture: list[Furniture] = field(default_factory=list)
    lost: list[Fragment] = field(default_factory=list)
    includes: list[WikiPage] = field(default_factory=list)
    lacking: list[str] = field(default_factory=list)
    notes: list[tuple[Loc, str]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Expanded:
    """A law page of the dump with its transclusions expanded: what :meth:`Assembler.render` makes a page of.

    key: the page's (namespace, name).
    frags: its expanded text, in runs that know their place.
    furniture, lost: what the expansion noticed (comments, parser
        functions; the calls of pages the dump does not hold).
    includes: the titles of the pages it includes.
    extra: furniture of pages that are not law text, given to this page.
    lacking: the addresses of the law pages it includes that the dump does not
        hold (an export made without its templates): not in the corpus.
    notes: what the page's revisions hold that is not read, with its place (see
        :func:`~lawdiff.sources.mediawiki.dump.unread_texts`); its text is in ``lost``.
    """

    key: tuple[int, str]
    frags: tuple[Frag, ...]
    furniture: tuple[Furniture, ...]
    lost: tuple[Fragment, ...]
    includes: tuple[str, ...]
    extra: tuple[Furniture, ...] = ()
    lacking: tuple[str, ...] = ()
    notes: tuple[tuple[Loc, str], ...] = ()


class Assembler:
    def __init__(self, file: str, site: Site, pages: list[WikiPage]) -> None:
        self.file = file
        self.site = site
        self.pages_ = pages
        self.by_key = {(p.ns, p.name): p for p in pages}

    # -- resolving titles ---------------------------------------------------

    def lookup(self, title: str, default_ns: int, line: int) -> tuple[WikiPage | None, tuple[int, str]]:
        """The page a title names, redirects followed: (the page or None, the key of the last title)."""
        key = self.site.split(title, default_ns)
        seen: list[str] = []
        while True:
            page = self.by_key.get(key)
            if page is None or not page.redirect:
                return page, key
            seen.append(page.title)
            key = self.site.split(page.redirect)
            target = self.by_key.get(key)
            if (target is not None and target.title in seen) or len(seen) > MAX_REDIRECTS:
                raise InputError(
                    _("redirect loop: {names}").format(names=" -> ".join([*seen, page.redirect])),
                    file=self.file,
                    place=str(line),
                    fix=_("point one of these redirects at the page that holds the text"),
                )

    def link_target(self, target: str, line: int) -> str:
        """The clause address a wiki link points at ("45E"), or ""."""
        page, key = self.lookup(target.split("#", 1)[0], 0, line)
        law = page.law if page is not None else law_name(*key)
        if law is None or law.kind not in ("article", "section", "front"):
            return ""
        return law.scope

    # -- the pages to emit --------------------------------------------------

    def run(self) -> list[Page]:
        return list(self.pages())

    def pages(self) -> Iterator[Page]:
        """The pages a reader of the wiki would open, in the dump's order, made one at a time."""
        for job in self.jobs():
            yield self.render(job)

    def jobs(self) -> Iterator[Expanded]:
        """The pages to emit (see :meth:`pages`), expanded but not yet made into lines, one at a time.

        Containers are expanded first (what they include is read as part of
        them, not again); the other law pages are expanded as they are
        yielded, so that a large dump never holds every expanded page at
        once.  What is left to do with each (:meth:`render`) needs only the
        dump's titles, not its text.
        """
        law = [p for p in self.pages_ if p.law is not None]
        for p in law:
            self.check_text(p)
        containers, covered = self._expand_containers(law)
        rest = [p for p in law if (p.ns, p.name) not in covered and p.law is not None and p.law.kind != "container"]
        rest_keys = {(p.ns, p.name) for p in rest}
        included = self._included_among(rest, rest_keys)
        # Pages that are not law text stay on record, as furniture of the
        # first page of their edition (or of the dump's first page).
        extra = self._other_pages_by_edition()
        # Every edition with a law page has a page emitted (a page is left out
        # only when a page of its own edition includes it).
        editions = {p.law.edition for p in law if p.law is not None}
        emitted: set[tuple[int, str]] = set()
        first = True

        def out(job: Expanded, edition: str) -> Expanded:
            nonlocal first
            furniture = extra.pop(edition, [])
            if first:
                first = False
                furniture += [f for key in list(extra) if key not in editions for f in extra.pop(key)]
            return replace(job, extra=tuple(furniture)) if furniture else job

        for p in law:
            key = (p.ns, p.name)
            if p.law is None:
                continue
            if key in containers:
                emitted.add(key)
                yield out(containers.pop(key), p.law.edition)
            elif key in rest_keys and key not in covered and key not in included:
                job, includes = self.expand_page(p)
                covered.update(k for k in includes if self._same_edition_key(k, p))
                emitted.add(key)
                yield out(job, p.law.edition)
        # Whatever a cycle of inclusions left over (expanding it reports the cycle).
        for p in rest:
            key = (p.ns, p.name)
            if key not in covered and key not in emitted and p.law is not None:
                job = self.expand_page(p)[0]
                emitted.add(key)
                yield out(job, p.law.edition)
        if not emitted:
            raise InputError(
                _("the export holds no law page ({n} page(s), none titled Sjabloon:<edition>:<name>)").format(
                    n=len(self.pages_)
                ),
                file=self.file,
                fix=_("export the template pages of the law (Sjabloon:2017:45, ...) with Special:Export"),
            )

    def _expand_containers(self, law: list[WikiPage]) -> tuple[dict[tuple[int, str], Expanded], set[tuple[int, str]]]:
        """Expand the container pages: (each one expanded, the pages of their own edition they include)."""
        covered: set[tuple[int, str]] = set()
        containers: dict[tuple[int, str], Expanded] = {}
        for p in law:
            if p.law is not None and p.law.kind == "container":
                job, includes = self.expand_page(p)
                containers[(p.ns, p.name)] = job
                covered.update(key for key in includes if self._same_edition_key(key, p))
        return containers, covered

    def _included_among(self, rest: list[WikiPage], rest_keys: set[tuple[int, str]]) -> set[tuple[int, str]]:
        """The pages of ``rest`` that another page of ``rest`` of their edition calls (read there, not alone)."""
        included: set[tuple[int, str]] = set()
        for p in rest:
            for key in self.direct_includes(p):
                if key in rest_keys and key != (p.ns, p.name) and self._same_edition_key(key, p):
                    included.add(key)
        return included

    def _other_pages_by_edition(self) -> dict[str, list[Furniture]]:
        """The furniture records of :meth:`other_pages`, by edition (in the dump's order)."""
        extra: dict[str, list[Furniture]] = {}
        for edition, furn in self.other_pages():
            extra.setdefault(edition, []).append(furn)
        return extra

    def titles_only(self) -> Assembler:
        """This assembler without the dump's text: all that :meth:`render` needs (small to send to a process)."""
        light = [
            WikiPage(
                p.title,
                p.ns,
                p.name,
                p.line,
                p.order,
                None if p.revision is None else without_text(p.revision),
                p.revisions,
                p.redirect,
                p.law,
            )
            for p in self.pages_
        ]
        return Assembler(self.file, self.site, light)

    def _same_edition_key(self, key: tuple[int, str], page: WikiPage) -> bool:
        other = self.by_key.get(key)
        return (
            other is not None
            and other.law is not None
            and page.law is not None
            and other.law.edition == page.law.edition
        )

    def direct_includes(self, page: WikiPage) -> list[tuple[int, str]]:
        """The pages a page's text calls (redirects followed), without expanding anything."""
        text = page.revision.text if page.revision is not None else None
        if not text:
            return []
        out: list[tuple[int, str]] = []
        for start, end, is_param in template_calls(text, 0, len(text)):
            if is_param:
                continue
            name = split_args(text[start + 2 : end - 2])[0].strip()
            target, _ = self.lookup(name, TEMPLATE_NS, page.line)
            if target is not None:
                out.append((target.ns, target.name))
        return out

    def check_text(self, page: WikiPage) -> None:
        rev = page.revision
        if rev is None or rev.text is None or rev.deleted or not rev.text or rev.text.isspace():
            why = _("no revision") if rev is None else _("a revision without text")
            if rev is not None and rev.deleted:
                why = _("a revision whose text is deleted")
            raise InputError(
                (
                    _("the law page {title} has {why}") if page.law is not None else _("the page {title} has {why}")
                ).format(title=page.title, why=why),
                file=self.file,
                place=str(rev.rev_line if rev is not None else page.line),
                fix=_("export the page again with its current text (Special:Export), or remove it from the dump"),
            )

    # -- expansion ----------------------------------------------------------

    def expand(
        self,
        page: WikiPage,
        args: dict[str, str],
        chain: tuple[WikiPage, ...],
        report: _Report,
        call_line: int,
    ) -> list[Frag]:
        if page in chain or len(chain) >= MAX_DEPTH:
            titles = " -> ".join([*(p.title for p in chain), page.title])
            what = (
                _("transclusion cycle")
                if page in chain
                else _("transclusions nested deeper than {depth}").format(depth=MAX_DEPTH)
            )
            raise InputError(
                _("{what}: {titles}").format(what=what, titles=titles),
                file=self.file,
                place=str(call_line),
                fix=_(
                    "remove the transclusion from one of these pages (the wiki shows 'Template loop detected' there)"
                ),
            )
        self.check_text(page)
        if page.revision is None or page.revision.text is None:
            raise LawdiffBug(f"{page.title}: a law page without text passed the check")
        for line, unread, why in (*page.revision.unread, *page.stray):
            # Counted and named, never dropped: its words are not placed, and check says why.
            loc = Loc(self.file, line, page.title)
            report.lost.append(Fragment(unread, loc))
            report.notes.append((loc, reader_notes.not_read(why, len(unread.split()), page.title)))
        text = page.revision.text
        located = Located(text, page.revision.line, page.title, page.revision.entities)
        ranges, comments = kept_ranges(text, transcluded=bool(chain))
        for offset, comment in comments:
            report.furniture.append(
                Furniture(comment, Loc(self.file, located.line_at(offset), page.title), "wiki comment (not shown)")
            )
        out: list[Frag] = []
        inner_chain = (*chain, page)
        for start, end in ranges:
            pos = start
            for c_start, c_end, is_param in template_calls(text, start, end):
                out.extend(located.frags(pos, c_start))
                pos = c_end
                line = located.line_at(c_start)
                if is_param:
                    out.append(Frag(self.param(text[c_start:c_end], args), line, page.title))
                    continue
                out.extend(self.call(text[c_start + 2 : c_end - 2], line, page, inner_chain, report))
            out.extend(located.frags(pos, end))
        return out

    def param(self, call: str, args: dict[str, str]) -> str:
        m = PARAM.match(call)
        if m is None:
            return call
        name = m.group(1).strip()
        if name in args:
            return args[name]
        return m.group(2) if m.group(2) is not None else call

    def call(self, inner: str, line: int, page: WikiPage, chain: tuple[WikiPage, ...], report: _Report) -> list[Frag]:
        parts = split_args(inner)
        name = re.sub(r"^\s*(?:safesubst|subst)\s*:", "", parts[0]).strip()
        loc = Loc(self.file, line, page.title)
        shown = "{{" + inner + "}}"
        if not name or name.upper() in MAGIC_WORDS or FUNCTION_PREFIX.match(name) or name.startswith("__"):
            report.furniture.append(Furniture(shown, loc, "parser function or magic word (not expanded)"))
            return []
        target, key = self.lookup(name, TEMPLATE_NS, line)
        if target is None:
            note = reader_notes.missing_page(_display(key))
            report.lost.append(Fragment(shown, loc))
            law = law_name(*key)
            if law is not None and article_of(law.scope):
                report.lacking.append(law.scope)
            return [Frag("", line, page.title, note)]
        if target.law is None and _TOC.match(target.name):
            reason = "table of contents"
            report.furniture.append(Furniture(shown, loc, f"transclusion of {target.title} ({reason}, not expanded)"))
            return [Frag("", line, page.title, reader_notes.contents_not_expanded(target.title))]
        # Any other template is expanded as the wiki shows it, law page or
        # not (a helper template such as Sjabloon:Voetnoot may hold text).
        if target.law is not None and target.law.kind == "container":
            # A part included by its chapter page: a page of its own (its
            # title gives its place), read there and not here.
            report.furniture.append(Furniture(shown, loc, f"transclusion of {target.title}, read as a page of its own"))
            return []
        args: dict[str, str] = {}
        n = 0
        for part in parts[1:]:
            k, eq, v = part.partition("=")
            if eq and "[[" not in k and "{{" not in k:
                args[k.strip()] = v.strip()
            else:
                n += 1
                args[str(n)] = part
        report.includes.append(target)
        frags = self.expand(target, args, chain, report, line)
        first = next((f.text for f in frags if f.text), "")
        if first[:1] in ("*", "#", ":", ";") or first.startswith("{|"):
            # MediaWiki starts an included list or table on a line of its own.
            frags.insert(0, Frag("\n", line, page.title))
        return frags

    # -- the result ---------------------------------------------------------

    def make_page(self, page: WikiPage) -> tuple[Page, list[tuple[int, str]]]:
        """Expand one page of the dump, make it rendered lines, and read them.

        Returns the page and the keys of the pages it includes.
        """
        job, includes = self.expand_page(page)
        return self.render(job), includes

    def expand_page(self, page: WikiPage) -> tuple[Expanded, list[tuple[int, str]]]:
        """Expand one law page of the dump; returns it and the keys of the pages it includes."""
        if page.law is None or page.revision is None:
            raise LawdiffBug(f"{page.title}: read as a law page, but it is none")
        report = _Report()
        frags = self.expand(page, {}, (), report, page.line)
        included = list(dict.fromkeys(report.includes))
        titles = tuple(p.title for p in included)
        job = Expanded(
            (page.ns, page.name),
            tuple(frags),
            tuple(report.furniture),
            tuple(report.lost),
            titles,
            lacking=tuple(dict.fromkeys(report.lacking)),
            notes=tuple(report.notes),
        )
        return job, [(p.ns, p.name) for p in included]

    def render(self, job: Expanded) -> Page:
        """Make an expanded page rendered lines, and read them."""
        page = self.by_key[job.key]
        if page.law is None or page.revision is None:
            raise LawdiffBug(f"{page.title}: read as a law page, but it is none")
        converter = Converter(self)
        converter.run(job.frags)
        title_loc = Loc(self.file, page.line, page.title)
        lines = [page.title]
        locs = [title_loc]
        links: dict[int, list[LinkSpan]] = {}
        for segments, loc in converter.out:
            text, spans = render_segments(segments)
            if spans:
                links[len(lines)] = spans
            lines.append(text)
            locs.append(loc)
        blocks, fragments, furniture = read_lines(lines, self.file, locs, links, converter.notes)
        meta = [("title", page.title), ("kind", page.law.kind), ("revisions", str(page.revisions))]
        if page.revision.timestamp:
            meta.append(("timestamp", page.revision.timestamp))
        if job.includes:
            meta.append(("includes", ", ".join(job.includes)))
        return Page(
            file=self.file,
            format=FORMAT,
            edition=page.law.edition,
            name=page.law.name,
            loc=title_loc,
            containers=page.law.containers,
            scope=page.law.scope,
            lacking=job.lacking,
            blocks=tuple(blocks),
            fragments=(*fragments, *job.lost),
            furniture=(
                Furniture(page.title, title_loc, "page title (kept as the page name)"),
                *furniture,
                *job.furniture,
                *converter.furniture,
                *job.extra,
            ),
            notes=job.notes,
            meta=tuple(meta),
        )

    def other_pages(self) -> list[tuple[str, Furniture]]:
        """The pages that are not law text: (their edition or "", a furniture record saying why)."""
        out: list[tuple[str, Furniture]] = []
        for p in self.pages_:
            if p.law is not None:
                continue
            edition_m = re.search(r"\b(\d{4})\b", p.name)
            loc = Loc(self.file, p.line, p.title)
            if p.redirect:
                reason = f"redirect to {p.redirect}"
            elif _TOC.match(p.name):
                reason = "table of contents (not law text)"
            elif p.ns == TEMPLATE_NS + 1:
                reason = "talk page of a template (not law text)"
            elif p.ns % 2 == 1 and p.ns > 0:
                reason = "talk page (not law text)"
            elif p.ns == TEMPLATE_NS:
                reason = "template that is not a law page (no Sjabloon:<edition>:<name> title)"
            else:
                reason = f"page in namespace {p.ns} (not law text)"
            out.append((edition_m.group(1) if edition_m else "", Furniture(p.title, loc, reason)))
        return out


def _display(key: tuple[int, str]) -> str:
    ns, name = key
    prefix = NS_NAMES.get(ns) or next(iter(DEFAULT_NAMESPACES.get(ns, ("",))), "")
    return f"{prefix}:{name}" if prefix else name
