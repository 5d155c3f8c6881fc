"""How a forked worker's result crosses its pipe: pickled in the worker, read by the parent as it comes, and
what both processes hold sent as a reference, never as a copy.

A worker forked from the parent holds what the parent held at the fork: the editions, their texts.  A
comparison made in it quotes those texts on every change (its old and new texts, the words of an
unchanged clause): pickled as they are, the parent got a copy of each, its editions' texts a second time
(25 MB of the 140 MB of a report's comparisons at 744 articles).  Here the objects both hold are named
when the pool starts (``shared``), numbered in the order given, and a result refers to them by number:

* the worker's pickler starts with its memo holding the shared objects (their numbers as memo places),
  so that it writes each as a reference to that place, as it writes an object it has already written;
* the parent's unpickler reads first a prelude the worker sends before the result, which puts each
  shared object of the parent's own in that place (one persistent reference per object).

``makers`` go further: a class (or function) a result is made of, and what the parent makes it with
instead, such as a maker that makes each value once (a word difference's pieces, the same few words
throughout a comparison).

A result is pickled whole in the worker before anything is sent (one that does not pickle is told in
words, as before), and read by the parent from the pipe frame by frame: the parent never holds the
pickled bytes of a comparison at once (some 12 MB at 744 articles, each left as a hole in its memory that
the next objects did not always fill).
"""

from __future__ import annotations

import io
import pickle
import struct
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any

# The prelude: for each shared object, its number, a persistent reference to it (BINPERSID), its place in
# the memo (MEMOIZE) and off the stack again (POP); then None, the prelude's own value, and STOP.
_PROTOCOL = 5
_ONE = struct.Struct("<BiBBB")
_OPS = (ord(pickle.BININT), ord(pickle.BINPERSID), ord(b"\x94"), ord(pickle.POP))


class Wire:
    """The pickling of one pool's results: ``shared``, the objects the parent and its workers both hold (the
    worker inherited them at the fork), sent by reference; ``makers``: what the parent makes the results'
    objects with, by the class or function a pickle names (see the module)."""

    def __init__(
        self, shared: Sequence[object] = (), makers: Mapping[Callable[..., Any], Callable[..., Any]] | None = None
    ) -> None:
        self.makers = dict(makers or {})
        # Each object once (two editions hold one string where their texts agree): the pickler's memo holds
        # each once, and the places of both memos must agree.
        self.shared = list({id(o): o for o in shared}.values())
        self._prelude_made: bytes | None = None

    def dumps(self, message: object) -> memoryview:
        """``message`` pickled, after the prelude (in a worker): a view of the pickle, not a copy of it."""
        out = io.BytesIO()
        pickler = pickle.Pickler(out, protocol=_PROTOCOL)
        if self.shared:
            if self._prelude_made is None:
                self._prelude_made = self._prelude()
            out.write(self._prelude_made)
            # Copied into the pickler's own table, and let go: a dictionary of 130,000 objects' places is 16 MB.
            pickler.memo = {id(o): (i, o) for i, o in enumerate(self.shared)}
        pickler.dump(message)
        return out.getbuffer()

    def load(self, file: IO[bytes]) -> Any:
        """The next message from ``file`` (in the parent), read frame by frame."""
        unpickler = _Unpickler(file, self.makers) if self.makers else pickle.Unpickler(file)
        if self.shared:
            unpickler.persistent_load = self.shared.__getitem__  # type: ignore[method-assign]
            unpickler.load()  # the prelude: each shared object in its place of the memo
        return unpickler.load()

    def _prelude(self) -> bytes:
        b, q, m, p = _OPS
        return b"".join(
            [bytes([ord(pickle.PROTO), _PROTOCOL]), *(_ONE.pack(b, i, q, m, p) for i in range(len(self.shared))), b"N."]
        )


class _Unpickler(pickle.Unpickler):
    """An unpickler that makes with ``makers`` what a pickle names (asked once per name and pickle)."""

    def __init__(self, file: IO[bytes], makers: dict[Callable[..., Any], Callable[..., Any]]) -> None:
        super().__init__(file)
        self._makers = makers

    def find_class(self, module: str, name: str) -> Any:
        found = super().find_class(module, name)
        return self._makers.get(found, found)
