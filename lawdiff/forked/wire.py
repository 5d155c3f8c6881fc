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

A result is pickled whole in the worker before anything is sent (one that does not pickle is told in
words, as before), and read by the parent from the pipe frame by frame: the parent never holds the
pickled bytes of a comparison at once (some 12 MB at 744 articles, each left as a hole in its memory that
the next objects did not always fill).
"""

from __future__ import annotations

import io
import pickle
import struct
from collections.abc import Sequence
from typing import IO, Any

# The prelude: for each shared object, its number, a persistent reference to it (BINPERSID), its place in
# the memo (MEMOIZE) and off the stack again (POP); then None, the prelude's own value, and STOP.
_PROTOCOL = 5
_ONE = struct.Struct("<BiBBB")
_OPS = (ord(pickle.BININT), ord(pickle.BINPERSID), ord(b"\x94"), ord(pickle.POP))


class Wire:
    """The pickling of one pool's results: ``shared``, the objects the parent and its workers both hold (the
    worker inherited them at the fork), sent by reference."""

    def __init__(self, shared: Sequence[object] = ()) -> None:
        # Each object once (two editions hold one string where their texts agree): the pickler's memo holds
        # each once, and the places of both memos must agree.
        self.shared = list({id(o): o for o in shared}.values())
        self._memo: dict[int, tuple[int, object]] | None = None

    def dumps(self, message: object) -> bytes:
        """``message`` pickled, after the prelude (in a worker)."""
        out = io.BytesIO()
        if self.shared:
            out.write(self._prelude())
        pickler = pickle.Pickler(out, protocol=_PROTOCOL)
        if self.shared:
            if self._memo is None:
                self._memo = {id(o): (i, o) for i, o in enumerate(self.shared)}
            pickler.memo = self._memo  # copied into the pickler's own table
        pickler.dump(message)
        return out.getvalue()

    def load(self, file: IO[bytes]) -> Any:
        """The next message from ``file`` (in the parent), read frame by frame."""
        unpickler = pickle.Unpickler(file)
        if self.shared:
            unpickler.persistent_load = self.shared.__getitem__  # type: ignore[method-assign]
            unpickler.load()  # the prelude: each shared object in its place of the memo
        return unpickler.load()

    def _prelude(self) -> bytes:
        b, q, m, p = _OPS
        return b"".join(
            [bytes([ord(pickle.PROTO), _PROTOCOL]), *(_ONE.pack(b, i, q, m, p) for i in range(len(self.shared))), b"N."]
        )
