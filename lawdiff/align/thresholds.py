"""The named thresholds of the alignment, and the constants that bound its work."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace

from lawdiff.errors import UsageError
from lawdiff.i18n import gettext as _

# Pieces of one split stand within this many units of each other (footnotes
# and short items may sit between them).
ADJACENT_UNITS = 3
# Candidate pairs come from words found in at most this share of all units
# (rarer words tell more), keeping the best few per unit; pairs within the
# same article are always candidates.  These bound the work, not the result.
TELLING_WORD_SHARE = 0.05
# ... and never in more than this many units, whatever the size of the
# editions: a word found in more is not telling, and a search through it
# would cost more the larger the editions (quadratic time).
TELLING_UNITS_MAX = 100
TELLING_WORDS = 12
CANDIDATES_PER_UNIT = 10
# A unit with fewer telling words than this also searches by words found in
# up to WIDER_SEARCH times as many units.
FEW_TELLING_WORDS = 3
WIDER_SEARCH = 4
# Containment counts as matching words only for units of at least this many
# words (a three-word note is inside many clauses by chance).
VERBATIM_WORDS = 6
# A clause inside another shares at least this cosine with it (its words are
# a part of the other's); below it, containment is not worth computing.
VERBATIM_COSINE_FLOOR = 0.3


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The named thresholds of the alignment (all on a 0..1 scale).

    identity_min: word similarity at which two units at the same address are
        matched at once, before any search (identity first).
    match_min: score a one-to-one match must reach (word similarity plus
        bonuses).
    text_min: word similarity a match needs whatever its bonuses, so that
        structure alone never pairs unrelated texts.
    verbatim_min: share of a unit's words found inside another unit at which
        the two count as matching words (a clause that went whole into a
        merged or split one), however different their lengths.
    address_bonus: added when both units have the same address.
    article_bonus: added when both units sit in corresponding articles.
    reference_bonus: added, times the overlap of their references, when both
        units cite clauses.
    piece_min: share of a unit's words that must lie inside the other unit
        for it to be a piece of a split or merge.
    gain_min: how much more of the whole a piece must explain to be added.
    explained_max: a whole whose words its match already explains beyond
        this takes no further pieces (a new neighbour is an addition).
    adjacent_piece_min: the share that is enough for a piece standing next
        to the whole's other pieces (a split keeps its pieces together).
    lead_in_min: the share that is enough for the lead-in of a list whose
        item is a piece ("De leider ... als ze" + "(a) met de beeldzijde
        ..."): one old sentence is often cut into a lead-in and its items.
    gap_min: word similarity for pairing leftovers in order between two
        matches (the bonuses do not count: the neighbours vouch for the
        place, the words must still vouch for the content).
    title_min: title similarity for pairing headings that share no text.
    certain: a link whose certainty (the probability that it is right,
        :mod:`lawdiff.align.certainty`) is below this is reported as
        uncertain, with its reasons.
    """

    identity_min: float = 0.9
    match_min: float = 0.42
    text_min: float = 0.25
    verbatim_min: float = 0.9
    address_bonus: float = 0.12
    article_bonus: float = 0.08
    reference_bonus: float = 0.08
    piece_min: float = 0.55
    gain_min: float = 0.1
    explained_max: float = 0.85
    adjacent_piece_min: float = 0.4
    lead_in_min: float = 0.25
    gap_min: float = 0.18
    title_min: float = 0.6
    sentence_min: float = 0.5
    certain: float = 0.9

    def with_overrides(self, overrides: dict[str, float], *, file: str = "") -> Thresholds:
        """These thresholds with ``overrides`` set; ``file``: the settings file they were read from, for messages."""
        names = {f.name for f in fields(self)}
        place = "[thresholds]" if file else ""
        for key, value in overrides.items():
            if key not in names:
                raise UsageError(
                    _("unknown threshold {key!r}").format(key=key),
                    file=file,
                    place=place,
                    fix=_("use one of: {names}").format(names=", ".join(sorted(names))),
                )
            if not 0.0 <= value <= 1.0:
                raise UsageError(
                    _("threshold {key}={value} is outside 0..1").format(key=key, value=value),
                    file=file,
                    place=place,
                    fix=_("give a value between 0 and 1"),
                )
        return replace(self, **overrides)

    def with_settings(self, settings: dict[str, float], file: str, overrides: dict[str, float]) -> Thresholds:
        """These thresholds with a corpus's settings (``[thresholds]`` of ``file``; a bad one is named with
        its file) and the command line's ``overrides`` over them."""
        return self.with_overrides(settings, file=file).with_overrides(overrides)

    def as_dict(self) -> dict[str, float]:
        return asdict(self)


DEFAULT_THRESHOLDS = Thresholds()
