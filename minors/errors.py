"""The exception hierarchy: one root, each subclass also a builtin it resembles."""

from __future__ import annotations

__all__ = [
    "MinorsError",
    "TableError",
    "UnknownNameError",
]


class MinorsError(Exception):
    """Root of every error `minors` raises on purpose."""


class TableError(MinorsError, ValueError):
    """A rule table or overlay is malformed: names the file, the entry, the field and the fix."""

    def __init__(
        self,
        problem: str,
        *,
        file: str = "",
        entry: str = "",
        field: str = "",
        fix: str = "",
    ) -> None:
        self.problem = problem
        self.file = file
        self.entry = entry
        self.field = field
        self.fix = fix
        super().__init__(self._render())

    def _render(self) -> str:
        where = ", ".join(
            part
            for part in (
                self.file,
                f"entry {self.entry!r}" if self.entry else "",
                f"field {self.field!r}" if self.field else "",
            )
            if part
        )
        text = f"{where}: {self.problem}" if where else self.problem
        return f"{text} (fix: {self.fix})" if self.fix else text


class UnknownNameError(MinorsError, LookupError):
    """A country, major power, clause or table name that the rules do not know."""

    def __init__(self, kind: str, name: str, suggestions: tuple[str, ...] = ()) -> None:
        self.kind = kind
        self.name = name
        self.suggestions = suggestions
        hint = f"; did you mean {' or '.join(map(repr, suggestions))}?" if suggestions else ""
        super().__init__(f"unknown {kind} {name!r}{hint}")

    def __str__(self) -> str:
        # LookupError would repr() the message; print it as written.
        return str(self.args[0])
