"""JSON text indented by two spaces, as ``json.dumps(value, ensure_ascii=False, indent=2)`` writes it.

Shared by the stages that write JSON (like :mod:`lawdiff.errors`).  The
standard library encodes with its C encoder only without ``indent``; with it,
every value passes through a chain of Python generators.  This writer makes
the same text in one recursive pass with the C string encoder: a comparison
of 93 articles (1.8 MB) takes 19 ms instead of 32.  Anything it does not
know exactly (a subclass of str, dict or list, a key that is not a
string) is left to the standard library, for the whole document, so that the
text is always the standard library's.

A long list of pairs of strings (a word difference's pieces, tens of thousands for a
paragraph of megabytes) is written as :class:`StrPairs`: its strings encoded in C and the
indented lines around them joined in one pass, without a call of the writer per pair.

A long string with nothing to escape (the text of a paragraph of megabytes) is written as it stands
between its quotes (:func:`string`): the C string encoder reads it a character at a time, six times
what finding that there is nothing to escape costs (its UTF-8 bytes, filtered in C).
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring
from typing import Any

_INF = float("inf")

# A string at least this long is looked at as a whole for what the encoder would escape (shorter ones are
# cheaper to encode than to look at).
LONG_STRING = 4096
# The characters the encoder escapes (``json.encoder.ESCAPE``: the quote, the backslash and the controls
# below U+0020), as the UTF-8 bytes they are (no other character's bytes include them), and all other bytes.
_ESCAPED = bytes(range(0x20)) + b'"\\'
_UNESCAPED = bytes(sorted(set(range(256)) - set(_ESCAPED)))


def needs_escape(text: str) -> bool:
    """Whether the JSON of ``text`` is other than the text between quotes (read in C: its UTF-8 bytes with
    every byte that is never escaped deleted).  The answers for the last few long texts are kept: a
    clause's text is written in its edition's digest, its change's id and the output."""
    if len(text) < LONG_STRING:
        return _escaped(text)
    kept = _LONG_ANSWERS.get(id(text))
    if kept is not None and kept[0] is text:
        return kept[1]
    answer = _escaped(text)
    _remember(text, answer)
    return answer


def _remember(text: str, answer: bool) -> None:
    if len(_LONG_ANSWERS) >= 8:
        _LONG_ANSWERS.clear()
    _LONG_ANSWERS[id(text)] = (text, answer)


def _escaped(text: str) -> bool:
    return bool(text.encode("utf-8", "surrogatepass").translate(None, _UNESCAPED))


# The last long texts' answers of needs_escape, by the text's identity (the text kept with it, so that the
# identity stays its own).
_LONG_ANSWERS: dict[int, tuple[str, bool]] = {}


def string(text: str) -> str:
    """``encode_basestring(text)``, the same text: a long string with nothing to escape between quotes."""
    if len(text) >= LONG_STRING and not needs_escape(text):
        return '"' + text + '"'
    return encode_basestring(text)


def string_utf8(text: str, errors: str = "strict") -> list[bytes]:
    """``string(text)`` as UTF-8 (``errors`` as ``str.encode`` takes them), in pieces: a long text with
    nothing to escape as its quotes and its own bytes, encoded once (what :func:`needs_escape` reads is
    what is hashed or written; its answer kept for it)."""
    if len(text) < LONG_STRING:
        return [string(text).encode("utf-8", errors)]
    kept = _LONG_ANSWERS.get(id(text))
    escaped = kept[1] if kept is not None and kept[0] is text else None
    if escaped:
        return [encode_basestring(text).encode("utf-8", errors)]
    data = text.encode("utf-8", errors)
    if escaped is None:
        # (Encoded without an error, its bytes are those needs_escape reads: "surrogatepass" differs only
        # where "strict" fails.)
        escaped = bool(data.translate(None, _UNESCAPED))
        _remember(text, escaped)
    return [encode_basestring(text).encode("utf-8", errors)] if escaped else [b'"', data, b'"']


class _Unusual(Exception):
    """A value this writer leaves to the standard library."""


class StrPairs(list[tuple[str, str]]):
    """A list of pairs of strings, written as the standard library writes a list of two-item lists.

    A subclass of list, so that the standard library writes it the same where this writer leaves a
    document to it; this writer writes it in one pass (:func:`_pairs`)."""


def dumps(value: Any) -> str:
    """``json.dumps(value, ensure_ascii=False, indent=2)``, the same text, faster."""
    return "".join(pieces(value))


def pieces(value: Any) -> list[str]:
    """The text of :func:`dumps` in pieces to be written one after the other, never joined whole: each long
    string alone, and the rest joined between them (a comparison of a paragraph of megabytes, 16 MB of JSON,
    was joined, copied again with the line end after it and encoded whole, three copies of it, each in
    memory just taken from the system)."""
    try:
        return _indented(value)
    except _Unusual:
        return [json.dumps(value, ensure_ascii=False, indent=2)]


# A long string or a long list of pairs is a piece of its own from this many characters; the pieces between
# them are joined.
_PIECE = 1 << 16


def _indented(value: Any) -> list[str]:
    done: list[str] = []  # the pieces so far
    out: list[str] = []  # what comes after them, to be joined
    add = out.append
    s = encode_basestring

    def alone(text: str) -> None:
        """``text`` as a piece of its own, after what came before it, joined."""
        if out:
            done.append("".join(out))
            out.clear()
        done.append(text)

    def write(v: Any, pad: str) -> None:
        t = type(v)
        if t is str:
            if len(v) < LONG_STRING or needs_escape(v):
                add(s(v))
            else:  # (as string() writes it, the text not copied between its quotes)
                add('"')
                alone(v)
                add('"')
        elif t is dict:
            if not v:
                add("{}")
                return
            inner = pad + "  "
            lead = "{\n"
            for k, x in v.items():
                if type(k) is not str:
                    raise _Unusual
                add(lead + inner + s(k) + ": ")
                lead = ",\n"
                write(x, inner)
            add("\n" + pad + "}")
        elif t is StrPairs:
            for x in _pairs(v, pad):
                if len(x) >= _PIECE:
                    alone(x)
                else:
                    add(x)
        elif t is list or t is tuple:
            if not v:
                add("[]")
                return
            inner = pad + "  "
            lead = "[\n"
            for x in v:
                add(lead + inner)
                lead = ",\n"
                write(x, inner)
            add("\n" + pad + "]")
        elif v is None:
            add("null")
        elif v is True:
            add("true")
        elif v is False:
            add("false")
        elif t is int:
            add(int.__repr__(v))
        elif t is float:
            # As the standard library's floatstr: repr, and its names for what JSON has no number for.
            if v != v:
                add("NaN")
            elif v in (_INF, -_INF):
                add("Infinity" if v > 0 else "-Infinity")
            else:
                add(float.__repr__(v))
        else:
            raise _Unusual

    write(value, "")
    if out:
        done.append("".join(out))
    return done


def _pairs(pairs: StrPairs, pad: str) -> list[str]:
    """A :class:`StrPairs` at indentation ``pad``, in pieces: each pair's opening line and first string made
    once per distinct first string, the second strings encoded by the C encoder, joined some thousand pairs
    at a time."""
    if not pairs:
        return ["[]"]
    firsts, seconds = zip(*pairs, strict=True)
    if {*map(type, firsts), *map(type, seconds)} != {str}:  # (the types gathered in C)
        raise _Unusual
    inner, inner2 = pad + "  ", pad + "    "
    # Second strings with nothing to escape among them all (a long difference's pieces, as a rule) stand as
    # they are, their quotes written with the text around them: no call for each.
    # (Looked at some thousand at a time: the whole of them joined and encoded was two copies of megabytes.)
    step = _PAIRS_JOINED
    escaped = any(_escaped("".join(seconds[i : i + step])) for i in range(0, len(seconds), step))
    quote = "" if escaped else '"'
    opening = {a: "[\n" + inner2 + encode_basestring(a) + ",\n" + inner2 + quote for a in set(firsts)}
    parts: list[str] = [""] * (3 * len(pairs))
    parts[0::3] = map(opening.__getitem__, firsts)
    parts[1::3] = seconds if quote else map(encode_basestring, seconds)
    parts[2::3] = [quote + "\n" + inner + "],\n" + inner] * len(pairs)
    parts[-1] = quote + "\n" + inner + "]"
    step *= 3
    return ["[\n" + inner, *("".join(parts[i : i + step]) for i in range(0, len(parts), step)), "\n" + pad + "]"]


# Pairs joined into one piece (:func:`_pairs`).
_PAIRS_JOINED = 2048
