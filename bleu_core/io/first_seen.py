"""The rule "one key, one value": a value is kept with the line it was first seen on, and a later row that
gives the same key a different value is an error naming both lines.

Tables repeat facts on many rows (a segment's source on every rating of it, a system's translation on every
MQM error row, a criterion's direction on every rating). :class:`FirstSeen` keeps the first value of each key
and the line it came from; a repeat with the same value is fine, a different one raises
:class:`~bleu_core.errors.InputError` at the later row with the message
``<what differs> than on line <first>; <fix>``.

>>> sources = FirstSeen(
...     "mqm.tsv", lambda seg: f"segment {seg} has a different source text", fix="a segment has one source",
...     column="source")
>>> sources.add("s1", "Hallo", line=2)
'Hallo'
>>> sources.add("s1", "Hallo", line=3)
'Hallo'
>>> sources["s1"], sources.line_of("s1"), "s2" in sources, len(sources)
('Hallo', 2, False, 1)
>>> sources.add("s1", "Hallo!", line=7)
Traceback (most recent call last):
  ...
bleu_core.errors.InputError: mqm.tsv, line 7, column source: segment s1 has a different source text than on line 2; a segment has one source
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from typing import Generic, TypeVar

from bleu_core.errors import InputError

__all__ = ["FirstSeen"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class FirstSeen(Generic[K, V]):
    """Values by key in first-seen order, each with its line; see the module docstring.

    ``describe(key)`` words what differs (``"segment 's1' has a different doc_id"``), built only when a row
    disagrees, so adding costs a dictionary look-up; ``fix`` says what to do; ``column`` is where the error
    points (``None``: the whole row).
    """

    __slots__ = ("_first", "column", "describe", "file", "fix")

    def __init__(
        self,
        file: str | None,
        describe: Callable[[K], str],
        *,
        fix: str = "",
        column: str | int | None = None,
    ) -> None:
        self.file = file
        self.describe = describe
        self.fix = fix
        self.column = column
        self._first: dict[K, tuple[V, int]] = {}

    def add(self, key: K, value: V, *, line: int) -> V:
        """Keep ``value`` for ``key`` if it is new; check it against the first value otherwise. Returns the
        value kept (the first one)."""
        first = self._first.get(key)
        if first is None:
            self._first[key] = (value, line)
            return value
        if first[0] != value:
            fix = f"; {self.fix}" if self.fix else ""
            raise InputError(
                f"{self.describe(key)} than on line {first[1]}{fix}",
                file=self.file,
                line=line,
                column=self.column,
            )
        return first[0]

    def __getitem__(self, key: K) -> V:
        return self._first[key][0]

    def get(self, key: K, default: V | None = None) -> V | None:
        """The first value of ``key``, or ``default``."""
        first = self._first.get(key)
        return default if first is None else first[0]

    def line_of(self, key: K) -> int:
        """The line ``key`` was first seen on."""
        return self._first[key][1]

    def __contains__(self, key: object) -> bool:
        return key in self._first

    def __iter__(self) -> Iterator[K]:
        return iter(self._first)

    def __len__(self) -> int:
        return len(self._first)

    def as_dict(self) -> dict[K, V]:
        """``{key: first value}`` in first-seen order."""
        return {key: value for key, (value, _) in self._first.items()}
