"""The one exception type of the client."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional


class GamequivError(Exception):
    """An error of the gamequiv service or of the connection to it.

    Server errors carry the members of the problem document
    (``application/problem+json``) the server answered with: ``code``
    (a stable name such as ``invalid_gdl``, ``not_found``, ``rate_limited``),
    ``detail`` (a readable message), and for invalid GDL the ``line`` and
    ``col`` of the first error and every error in ``errors``. Errors of the
    client itself (the server cannot be reached, a wait timed out) have the
    ``code`` ``connection`` or ``timeout`` and ``status`` 0.
    """

    def __init__(
        self,
        code: str,
        detail: str,
        *,
        status: int = 0,
        title: str = "",
        line: Optional[int] = None,
        col: Optional[int] = None,
        errors: Optional[List[Dict[str, Any]]] = None,
        limit: Optional[str] = None,
        request_id: Optional[str] = None,
        problem: Optional[Mapping[str, Any]] = None,
    ) -> None:
        self.code = code
        self.detail = detail
        self.status = status
        self.title = title
        self.line = line
        self.col = col
        self.errors: List[Dict[str, Any]] = list(errors or [])
        self.limit = limit
        self.request_id = request_id
        self.problem: Dict[str, Any] = dict(problem or {})
        super().__init__(str(self))

    @classmethod
    def from_problem(cls, problem: Mapping[str, Any], status: int = 0) -> "GamequivError":
        """Build the error of a problem document (as the server sends it)."""
        return cls(
            str(problem.get("code") or "internal"),
            str(problem.get("detail") or problem.get("title") or "error"),
            status=int(problem.get("status") or status),
            title=str(problem.get("title") or ""),
            line=problem.get("line"),
            col=problem.get("col"),
            errors=problem.get("errors"),
            limit=problem.get("limit"),
            request_id=problem.get("request_id"),
            problem=problem,
        )

    def __str__(self) -> str:
        where = f" at line {self.line}, col {self.col}" if self.line else ""
        status = f"{self.status} " if self.status else ""
        return f"{status}{self.code}{where}: {self.detail}"

    def __repr__(self) -> str:
        return f"GamequivError(code={self.code!r}, status={self.status}, detail={self.detail!r}, line={self.line}, col={self.col})"
