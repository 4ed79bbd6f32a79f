"""The HTTP client of the gamequiv REST API (``/api/v1``)."""

from __future__ import annotations

import hashlib
import json
import numbers
import os
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import (
    Any,
    Callable,
    Dict,
    Iterable,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Set,
    Tuple,
    Union,
    cast,
)

import requests

from .errors import GamequivError

#: A game, comparison, class or symmetry report as the API returns it.
Doc = Dict[str, Any]
#: One side of a comparison: a stored game's id, a game document (with
#: ``id``), a stored game's exact name or alias, or a path to a GDL file
#: (a :class:`pathlib.Path`), which is uploaded first.
GameRef = Union[int, Mapping[str, Any], str, Path]
#: Called with each new state of a comparison while :meth:`Client.wait`
#: waits, and the seconds since the wait began.
ProgressFn = Callable[[Doc, float], None]

#: Environment variables read for the server's address, in order.
URL_ENV = ("GAMEQUIV_URL", "GEQ_URL")
#: The environment variable of the API token (a server run with ``--auth``).
TOKEN_ENV = "GAMEQUIV_TOKEN"
#: The address used when none is given or set in the environment.
DEFAULT_URL = "http://127.0.0.1:8080"
#: Seconds to wait for a normal answer.
DEFAULT_TIMEOUT = 60.0
#: Seconds to wait for the answer to one batch upload (each game of it is
#: grounded by the server).
DEFAULT_BATCH_TIMEOUT = 600.0
#: Retries of a request refused with 429 (rate limited, queue full) or
#: lost to a connection error, with growing waits in between.
DEFAULT_RETRIES = 8
#: The longest wait between two retries, in seconds.
MAX_BACKOFF = 30.0
#: Games per batch upload (the server accepts up to 100).
DEFAULT_BATCH_SIZE = 25
#: Bytes of GDL text per batch upload (the server's body cap is 4 MiB,
#: and JSON escaping grows the text).
DEFAULT_BATCH_BYTES = 1 << 20
#: Seconds of one long poll (the server allows up to 60).
WAIT_STEP = 30.0
#: Page size of lists (the server allows up to 500).
PAGE_SIZE = 200
#: Uploads from which upload_folder shows a progress bar.
PROGRESS_MIN = 20
#: The file patterns upload_folder reads.
GDL_PATTERNS = ("*.kif", "*.gdl")

FINAL = ("done", "failed", "cancelled")


def normalize_line_endings(text: str) -> str:
    """Return ``text`` with CRLF and lone CR made LF, as the server stores it."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def content_sha256(text: Union[str, bytes]) -> str:
    """The content hash the server gives a GDL text: the hex SHA-256 of its
    UTF-8 bytes with line endings made LF (see :func:`normalize_line_endings`)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    return hashlib.sha256(normalize_line_endings(text).encode("utf-8")).hexdigest()


@dataclass
class UploadResult:
    """The outcome of uploading one file of :meth:`Client.upload_folder`."""

    #: The file, and the name it was uploaded under (its path relative to
    #: the folder, without the extension).
    path: str
    name: str
    #: The content hash of its text (:func:`content_sha256`), "" if unreadable.
    sha256: str
    #: 201 new game, 200 stored before, the problem's status for an error,
    #: 0 for a file that could not be read.
    status: int
    #: The stored game, or None after an error.
    game: Optional[Doc] = None
    #: The error that kept the game out, or None.
    error: Optional[GamequivError] = None
    #: The earlier file of this folder with the same text, if any: its game
    #: received this file's name as an alias.
    duplicate_of: Optional[str] = None

    @property
    def ok(self) -> bool:
        """Whether the game is stored."""
        return self.game is not None

    def row(self) -> Dict[str, Any]:
        """This result as a flat dict (one DataFrame row)."""
        g = self.game or {}
        e = self.error
        return {
            "path": self.path,
            "name": self.name,
            "sha256": self.sha256,
            "status": self.status,
            "game_id": g.get("id"),
            "stored_name": g.get("name"),
            "alias_added": bool(g.get("alias_added", False)),
            "duplicate_of": self.duplicate_of,
            "error_code": e.code if e else None,
            "error": e.detail if e else None,
            "line": e.line if e else None,
            "col": e.col if e else None,
        }


@dataclass
class UploadReport:
    """Every result of :meth:`Client.upload_folder`, in file order."""

    results: List[UploadResult] = field(default_factory=list)

    @property
    def games(self) -> List[Doc]:
        """The stored games, one per distinct text."""
        seen: Dict[int, Doc] = {}
        for r in self.results:
            if r.game is not None:
                seen.setdefault(int(r.game["id"]), r.game)
        return list(seen.values())

    @property
    def errors(self) -> List[UploadResult]:
        """The files that were not stored."""
        return [r for r in self.results if not r.ok]

    def frame(self) -> Any:
        """The results as a pandas DataFrame, one row per file."""
        from .frames import upload_frame

        return upload_frame(self)

    def __repr__(self) -> str:
        new = sum(r.status == 201 for r in self.results)
        return (
            f"UploadReport({len(self.results)} files: {new} new games, "
            f"{len(self.games) - new} stored before, {len(self.errors)} errors)"
        )


class Client:
    """A client of one gamequiv server.

    >>> gq = Client("http://127.0.0.1:8080")          # doctest: +SKIP
    >>> ttt = gq.upload(Path("ticTacToe.kif"))          # doctest: +SKIP
    >>> cmp = gq.compare(ttt, Path("sum15.kif"))        # doctest: +SKIP
    >>> cmp["verdict"]                                  # doctest: +SKIP
    'equivalent'

    Every method raises :class:`GamequivError` on failure. Requests refused
    with 429 (rate limited, queue full) are retried after the server's
    ``Retry-After``, and connection errors with a growing back-off, up to
    ``retries`` times. Lists are paginated for the caller.
    """

    def __init__(
        self,
        url: Optional[str] = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        retries: int = DEFAULT_RETRIES,
        session: Optional[requests.Session] = None,
        token: Optional[str] = None,
    ) -> None:
        """Connect to the server at ``url`` (default: ``$GAMEQUIV_URL``,
        ``$GEQ_URL``, else ``http://127.0.0.1:8080``).

        ``token`` (default: ``$GAMEQUIV_TOKEN``) is the API token of a
        server with access control (``gamequiv token create``), sent as
        ``Authorization: Bearer``; without access control it is not needed."""
        if url is None:
            url = next((os.environ[v] for v in URL_ENV if os.environ.get(v)), DEFAULT_URL)
        if token is None:
            token = os.environ.get(TOKEN_ENV) or None
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.retries = retries
        self.session = session or requests.Session()

    def __repr__(self) -> str:
        return f"Client({self.url!r})"

    # --- HTTP ------------------------------------------------------------

    def _request(
        self,
        method: str,
        path: str,
        *,
        params: Optional[Mapping[str, Any]] = None,
        body: Any = None,
        timeout: Optional[float] = None,
    ) -> Tuple[int, Any]:
        """Send one request, retrying 429s and connection errors, and return
        the status and the decoded JSON answer."""
        url = self.url + path
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = {"Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        attempt = 0
        while True:
            try:
                res = self.session.request(
                    method, url, params=params, data=data, headers=headers,
                    timeout=timeout or self.timeout,
                )
            except requests.RequestException as exc:
                if attempt >= self.retries:
                    raise GamequivError("connection", f"{method} {url}: {exc}") from exc
                time.sleep(_backoff(attempt, None))
                attempt += 1
                continue
            if res.status_code == 429 and attempt < self.retries:
                time.sleep(_backoff(attempt, res.headers.get("Retry-After")))
                attempt += 1
                continue
            return res.status_code, _decode(method, url, res)

    def _get(self, path: str, params: Optional[Mapping[str, Any]] = None, timeout: Optional[float] = None) -> Doc:
        return cast(Doc, self._request("GET", path, params=params, timeout=timeout)[1])

    def _pages(self, path: str, params: Optional[Mapping[str, Any]] = None) -> Iterator[Doc]:
        """Yield every item of a paginated list, following ``next_cursor``."""
        q: Dict[str, Any] = {k: v for k, v in (params or {}).items() if v is not None}
        q.setdefault("limit", PAGE_SIZE)
        while True:
            page = self._get(path, q)
            yield from page["items"]
            nxt = page.get("next_cursor")
            if not nxt:
                return
            q["cursor"] = nxt

    # --- service ---------------------------------------------------------

    def health(self) -> bool:
        """Whether the server is up and its database ready."""
        try:
            self._get("/readyz")
            return True
        except GamequivError:
            return False

    def wait_ready(self, timeout: float = 30.0) -> None:
        """Wait until the server answers ``/readyz``, or raise after ``timeout`` seconds."""
        end = time.monotonic() + timeout
        while not self.health():
            if time.monotonic() > end:
                raise GamequivError("timeout", f"{self.url} not ready within {timeout:g}s")
            time.sleep(0.2)

    # --- games -----------------------------------------------------------

    def upload(self, game: Union[str, Path], name: Optional[str] = None) -> Doc:
        """Upload one game and return it.

        ``game`` is a :class:`pathlib.Path` to a GDL file (its stem is the
        default name) or the GDL text itself. The answer has ``status``-like
        fields: a stored text returns the stored game, with ``alias_added``
        telling whether ``name`` became one of its ``aliases``.
        """
        text, default = _read_game(game)
        _, doc = self._request("POST", "/api/v1/games", body={"name": name or default, "gdl": text})
        return cast(Doc, doc)

    def upload_many(self, games: Sequence[Tuple[str, str]], *, batch_size: int = DEFAULT_BATCH_SIZE) -> List[Tuple[int, Optional[Doc], Optional[GamequivError]]]:
        """Upload ``(name, gdl)`` pairs with batch requests; return one
        ``(status, game, error)`` per pair, in order."""
        out: List[Tuple[int, Optional[Doc], Optional[GamequivError]]] = []
        for i in range(0, len(games), batch_size):
            out.extend(self._batch(list(games[i : i + batch_size])))
        return out

    def _batch(self, games: List[Tuple[str, str]]) -> List[Tuple[int, Optional[Doc], Optional[GamequivError]]]:
        """One POST /games/batch; a batch too large for the server's body
        cap is split in two."""
        body = {"games": [{"name": n, "gdl": g} for n, g in games]}
        status, doc = self._request("POST", "/api/v1/games/batch", body=body, timeout=DEFAULT_BATCH_TIMEOUT)
        if status == 413 and len(games) > 1:
            half = len(games) // 2
            return self._batch(games[:half]) + self._batch(games[half:])
        if status != 200:
            raise GamequivError.from_problem(doc, status)
        out: List[Tuple[int, Optional[Doc], Optional[GamequivError]]] = []
        for item in doc["items"]:
            if item.get("problem"):
                out.append((item["status"], None, GamequivError.from_problem(item["problem"], item["status"])))
            else:
                out.append((item["status"], item["game"], None))
        return out

    def upload_folder(
        self,
        folder: Union[str, Path],
        *,
        patterns: Sequence[str] = GDL_PATTERNS,
        recursive: bool = True,
        max_bytes: Optional[int] = None,
        files: Optional[Iterable[Union[str, Path]]] = None,
        batch_size: int = DEFAULT_BATCH_SIZE,
        batch_bytes: int = DEFAULT_BATCH_BYTES,
        progress: Optional[bool] = None,
    ) -> UploadReport:
        """Upload every GDL file of a folder, in batches, and report on each.

        Files are read as UTF-8 bytes (line endings do not matter: the
        server hashes the text with LF endings). Each game is named by its
        path relative to ``folder`` without the extension, e.g.
        ``ggp-base/sum15``. A text found in several files is uploaded once;
        the other files' names become aliases of its game. ``max_bytes``
        skips larger files, and ``files`` (paths relative to ``folder``, or
        absolute) picks files instead of the patterns. A progress bar
        (``tqdm`` if importable, else a text line) is shown for
        ``PROGRESS_MIN`` files or more unless ``progress`` says otherwise.
        Errors of single games are reported, not raised.
        """
        root = Path(folder)
        paths: List[Path]
        if files is not None:
            paths = [Path(p) if Path(p).is_absolute() else root / p for p in files]
        else:
            found: Set[Path] = set()
            for pat in patterns:
                found.update(root.rglob(pat) if recursive else root.glob(pat))
            paths = sorted(found)
        report = UploadReport()
        first: Dict[str, int] = {}  # sha256 -> index of its first result
        todo: List[int] = []
        dups: List[int] = []
        for p in paths:
            rel = p.relative_to(root) if p.is_relative_to(root) else Path(p.name)
            name = str(rel.with_suffix("")) if rel.suffix else str(rel)
            r = UploadResult(path=str(rel), name=name, sha256="", status=0)
            report.results.append(r)
            try:
                raw = p.read_bytes()
                if max_bytes is not None and len(raw) > max_bytes:
                    report.results.pop()
                    continue
                text = raw.decode("utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                r.error = GamequivError("unreadable", f"{p}: {exc}")
                continue
            r.sha256 = content_sha256(text)
            setattr(r, "_text", text)
            i = len(report.results) - 1
            if r.sha256 in first:
                r.duplicate_of = report.results[first[r.sha256]].path
                dups.append(i)
            else:
                first[r.sha256] = i
                todo.append(i)
        show = progress if progress is not None else len(todo) + len(dups) >= PROGRESS_MIN
        bar = _Progress(len(todo) + len(dups), "upload", show)
        try:
            # Distinct texts first, then the duplicates (whose names become
            # aliases of the games just stored), so that the first file of a
            # text always names its game.
            for group in (todo, dups):
                for batch in _batches(group, report, batch_size, batch_bytes):
                    pairs = [(report.results[i].name, getattr(report.results[i], "_text")) for i in batch]
                    for i, (status, game, err) in zip(batch, self._batch(pairs)):
                        r = report.results[i]
                        r.status, r.game, r.error = status, game, err
                    bar.update(len(batch))
        finally:
            bar.close()
            for r in report.results:
                if hasattr(r, "_text"):
                    delattr(r, "_text")
        return report

    def game(self, game_id: int) -> Doc:
        """One game with its GDL text, stats, aliases and class."""
        return self._get(f"/api/v1/games/{int(game_id)}")

    def rename(self, game: GameRef, name: str) -> Doc:
        """Give a stored game a new name and return it (its aliases stay).
        With access control only its owner or an admin token may."""
        _, doc = self._request("PATCH", f"/api/v1/games/{self._game_id(game)}", body={"name": name})
        return cast(Doc, doc)

    def delete(self, game: GameRef) -> None:
        """Delete a stored game with every comparison it takes part in, its
        symmetries and aliases; its class keeps its other members. With
        access control only its owner or an admin token may."""
        self._request("DELETE", f"/api/v1/games/{self._game_id(game)}")

    def me(self) -> Doc:
        """Who the client's token is: ``access_control`` (whether the
        server checks tokens), ``name``, ``admin``, ``public_read``."""
        return self._get("/api/v1/me")

    def game_by_sha256(self, text_or_sha256: str) -> Optional[Doc]:
        """The stored game with this content hash, or None. Pass the hash
        (64 hex digits) or the GDL text itself (hashed as the server does)."""
        s = text_or_sha256.strip()
        sha = s.lower() if _is_sha256(s) else content_sha256(text_or_sha256)
        items = self._get("/api/v1/games", {"sha256": sha})["items"]
        return items[0] if items else None

    def games(self, *, name: Optional[str] = None, name_contains: Optional[str] = None) -> List[Doc]:
        """Every stored game (without text), or those with this exact name
        or alias, or whose name or an alias contains ``name_contains``
        (ignoring ASCII case), in id order."""
        return list(self._pages("/api/v1/games", {"name": name, "name_contains": name_contains}))

    def find_game(self, name: str) -> Doc:
        """The one game with this exact name or alias; raises
        :class:`GamequivError` (``not_found`` or ``ambiguous``) otherwise."""
        found = self.games(name=name)
        if not found:
            raise GamequivError("not_found", f"no game named {name!r}", status=404)
        if len(found) > 1:
            ids = ", ".join(str(g["id"]) for g in found)
            raise GamequivError("ambiguous", f"{len(found)} games are named {name!r}: ids {ids}")
        return found[0]

    def games_frame(self, **filters: Any) -> Any:
        """The games (see :meth:`games`) as a flat pandas DataFrame: one row
        per game, stable columns, role counts instead of a column per role."""
        from .frames import games_frame

        return games_frame(self.games(**filters))

    def symmetries(self, game: GameRef) -> Doc:
        """A game's verified symmetries: ``order`` (an int, the identity
        counted), ``generators`` (mappings), ``role_symmetric``, ...
        Computed by the server on first request, then stored."""
        doc = self._get(f"/api/v1/games/{self._game_id(game)}/symmetries", timeout=max(self.timeout, 120.0))
        doc["order"] = int(doc["order"])
        return doc

    def symmetries_frame(self, games: Iterable[GameRef], *, skip_errors: bool = True) -> Any:
        """Symmetry summaries of many games as a DataFrame (one row per
        game: order, generators, role symmetry, graph order, time). A game
        whose symmetries cannot be computed (a limit) gets its error in the
        ``error`` column unless ``skip_errors`` is False."""
        from .frames import symmetries_frame

        rows: List[Tuple[int, Optional[Doc], Optional[GamequivError]]] = []
        for g in games:
            gid = self._game_id(g)
            try:
                rows.append((gid, self.symmetries(gid), None))
            except GamequivError as exc:
                if not skip_errors or exc.code not in ("limit_exceeded", "unavailable", "invalid_gdl"):
                    raise
                rows.append((gid, None, exc))
        return symmetries_frame(rows, {g["id"]: g["name"] for g in self.games()})

    # --- comparisons -----------------------------------------------------

    def submit(
        self,
        a: GameRef,
        b: GameRef,
        *,
        timeout_ms: Optional[int] = None,
        max_candidates: Optional[int] = None,
    ) -> Doc:
        """Queue a comparison of ``a`` with ``b`` (or find the one queued
        before with the same games and limits, unless it was cancelled:
        then a new one is queued) and return it at once."""
        body: Dict[str, Any] = {"a": self._game_id(a), "b": self._game_id(b)}
        limits = {k: v for k, v in (("timeout_ms", timeout_ms), ("max_candidates", max_candidates)) if v is not None}
        if limits:
            body["limits"] = limits
        _, doc = self._request("POST", "/api/v1/comparisons", body=body)
        return cast(Doc, doc)

    def wait(
        self,
        comparison: Union[int, Mapping[str, Any]],
        *,
        timeout: Optional[float] = None,
        progress: Union[bool, ProgressFn] = True,
    ) -> Doc:
        """Wait until a comparison is done, failed or cancelled and return
        it with its result.

        It long-polls the server (``?wait=30s&since=REVISION``), which
        answers as soon as the progress changes, so each new phase and
        candidate count is shown at once (``progress=True`` prints one line
        that updates in place; a callable receives each state and the
        seconds elapsed) without a polling loop. ``timeout`` (seconds)
        raises a ``timeout`` error, leaving the comparison running.
        """
        cid = int(comparison["id"]) if isinstance(comparison, Mapping) else int(comparison)
        show: Optional[ProgressFn] = _print_progress if progress is True else (progress or None)
        start = time.monotonic()
        doc = self._get(f"/api/v1/comparisons/{cid}")
        while True:
            elapsed = time.monotonic() - start
            if show:
                show(doc, elapsed)
            if doc["status"] in FINAL:
                if show is _print_progress:
                    print(file=sys.stderr)
                return doc
            step = WAIT_STEP
            if timeout is not None:
                if elapsed >= timeout:
                    raise GamequivError("timeout", f"comparison {cid} still {doc['status']} after {timeout:g}s")
                step = max(0.1, min(step, timeout - elapsed))
            doc = self._get(
                f"/api/v1/comparisons/{cid}",
                {"wait": f"{step:.1f}s", "since": doc["revision"]},
                timeout=step + self.timeout,
            )

    def compare(
        self,
        a: GameRef,
        b: GameRef,
        *,
        timeout_ms: Optional[int] = None,
        max_candidates: Optional[int] = None,
        wait_timeout: Optional[float] = None,
        progress: Union[bool, ProgressFn] = True,
    ) -> Doc:
        """Compare two games and return the finished comparison: ``verdict``
        (``equivalent``, ``not_equivalent``, ``unknown``), ``reason`` and
        the full report in ``result`` (mapping, stats). A failed comparison
        raises :class:`GamequivError` with code ``comparison_failed``."""
        doc = self.wait(
            self.submit(a, b, timeout_ms=timeout_ms, max_candidates=max_candidates),
            timeout=wait_timeout,
            progress=progress,
        )
        if doc["status"] != "done":
            raise GamequivError("comparison_failed", f"comparison {doc['id']} {doc['status']}: {doc.get('error', '')}")
        return doc

    def comparison(self, comparison_id: int) -> Doc:
        """One comparison with its status, progress and result."""
        return self._get(f"/api/v1/comparisons/{int(comparison_id)}")

    def cancel(self, comparison_id: int) -> Doc:
        """Cancel a queued or running comparison."""
        _, doc = self._request("DELETE", f"/api/v1/comparisons/{int(comparison_id)}")
        return cast(Doc, doc)

    def comparisons(self, *, status: Optional[str] = None, game: Optional[GameRef] = None) -> List[Doc]:
        """Every comparison (newest first, without results), or those with
        this status or this game on either side."""
        gid = self._game_id(game) if game is not None else None
        return list(self._pages("/api/v1/comparisons", {"status": status, "game": gid}))

    def comparisons_frame(self, *, results: bool = False, **filters: Any) -> Any:
        """The comparisons (see :meth:`comparisons`) as a flat DataFrame,
        one row per comparison: both games' ids and names, status, verdict,
        reason, times. With ``results=True`` each finished comparison's
        report is fetched too, adding the time of each phase (``ground_ms``
        ...), candidates, SAT calls and the ground-graph sizes of both games."""
        from .frames import comparisons_frame

        docs = self.comparisons(**filters)
        if results:
            docs = [self.comparison(d["id"]) if d["status"] == "done" else d for d in docs]
        return comparisons_frame(docs)

    def mapping_frames(self, comparison: Union[int, Mapping[str, Any]]) -> Any:
        """The mapping of an equivalent comparison as three DataFrames
        (``.roles``, ``.propositions``, ``.actions``), each with an ``a``
        and a ``b`` column (and the roles of actions)."""
        from .frames import mapping_frames

        doc = comparison if isinstance(comparison, Mapping) and "result" in comparison else self.comparison(
            int(comparison["id"]) if isinstance(comparison, Mapping) else int(comparison)
        )
        return mapping_frames(doc)

    # --- classes ---------------------------------------------------------

    def classes(self) -> List[Doc]:
        """Every equivalence class with its members."""
        return list(self._pages("/api/v1/classes"))

    def class_(self, class_id: int) -> Doc:
        """One equivalence class with its members."""
        return self._get(f"/api/v1/classes/{int(class_id)}")

    def classes_frame(self) -> Any:
        """The classes as a flat DataFrame, one row per class: its size,
        representative, and member ids and names (as tuples)."""
        from .frames import classes_frame

        return classes_frame(self.classes())

    def wait_classified(self, games: Optional[Iterable[GameRef]] = None, *, timeout: float = 600.0, progress: Optional[bool] = None) -> List[Doc]:
        """Wait until the server's classifier has placed every game (or
        those given) in a class or given up on it (``analysis_error``), and
        return the games. Raises a ``timeout`` error after ``timeout``."""
        ids = None if games is None else {self._game_id(g) for g in games}
        start = time.monotonic()
        bar: Optional[_Progress] = None
        done = 0
        try:
            while True:
                all_games = [g for g in self.games() if ids is None or g["id"] in ids]
                placed = sum(1 for g in all_games if g.get("class_id") or g.get("analysis_error"))
                if bar is None:
                    bar = _Progress(len(all_games), "classify", progress if progress is not None else len(all_games) >= PROGRESS_MIN)
                bar.update(placed - done)
                done = placed
                if placed == len(all_games):
                    return all_games
                if time.monotonic() - start > timeout:
                    raise GamequivError("timeout", f"{len(all_games) - placed} of {len(all_games)} games unclassified after {timeout:g}s")
                time.sleep(1.0)
        finally:
            if bar is not None:
                bar.close()

    # --- helpers ---------------------------------------------------------

    def _game_id(self, game: GameRef) -> int:
        """The id of a game reference (uploading a path, looking up a name)."""
        if isinstance(game, bool):
            raise TypeError("a game is an id, a game document, a name or a Path, not a bool")
        if isinstance(game, numbers.Integral):  # int, numpy.int64 of a DataFrame
            return int(game)
        if isinstance(game, Mapping):
            return int(game["id"])
        if isinstance(game, Path):
            return int(self.upload(game)["id"])
        if isinstance(game, str):
            return int(self.find_game(game)["id"])
        raise TypeError(f"a game is an id, a game document, a name or a Path, not {type(game).__name__}")


def _decode(method: str, url: str, res: requests.Response) -> Any:
    """The JSON body of a response; a problem document raises, except for
    a batch's 413 (which the caller splits)."""
    try:
        doc = res.json()
    except ValueError:
        doc = None
    if res.status_code == 204:
        return None
    if res.status_code < 400:
        if doc is None:
            raise GamequivError("internal", f"{method} {url}: {res.status_code} answer is not JSON", status=res.status_code)
        return doc
    if res.status_code == 413 and url.endswith("/games/batch"):
        return doc
    if isinstance(doc, dict) and "code" in doc:
        raise GamequivError.from_problem(doc, res.status_code)
    raise GamequivError("http", f"{method} {url}: {res.status_code} {res.reason}", status=res.status_code)


def _backoff(attempt: int, retry_after: Optional[str]) -> float:
    """Seconds to wait before retry ``attempt`` (0-based): the server's
    Retry-After if it sent one, else an exponential back-off, with jitter."""
    base = min(MAX_BACKOFF, 0.25 * 2.0**attempt)
    if retry_after:
        try:
            base = max(float(retry_after), 0.0)
        except ValueError:
            pass
    return min(MAX_BACKOFF, base) * (1 + 0.2 * random.random())


def _read_game(game: Union[str, Path]) -> Tuple[str, str]:
    """The text and default name of a game given as a path or as text."""
    if isinstance(game, Path):
        try:
            return game.read_bytes().decode("utf-8"), game.stem
        except (OSError, UnicodeDecodeError) as exc:
            raise GamequivError("unreadable", f"{game}: {exc}") from exc
    if isinstance(game, str):
        return game, ""
    raise TypeError(f"a game is a Path or GDL text, not {type(game).__name__}")


def _is_sha256(s: str) -> bool:
    return len(s) == 64 and all(c in "0123456789abcdefABCDEF" for c in s)


def _batches(indices: List[int], report: UploadReport, size: int, max_bytes: int) -> Iterator[List[int]]:
    """Cut indices into batches of at most ``size`` games and about
    ``max_bytes`` bytes of text (a larger game goes alone)."""
    batch: List[int] = []
    nbytes = 0
    for i in indices:
        n = len(getattr(report.results[i], "_text").encode("utf-8"))
        if batch and (len(batch) >= size or nbytes + n > max_bytes):
            yield batch
            batch, nbytes = [], 0
        batch.append(i)
        nbytes += n
    if batch:
        yield batch


def _print_progress(doc: Doc, elapsed: float) -> None:
    """Print a comparison's state on one line that updates in place."""
    p = doc.get("progress") or {}
    verdict = f" -> {doc['verdict']}" if doc.get("verdict") else ""
    line = (
        f"comparison {doc['id']} ({doc.get('a_name', doc['a'])} vs {doc.get('b_name', doc['b'])}): "
        f"{doc['status']}, phase {p.get('phase', '?')}, {p.get('candidates', 0)} candidates, "
        f"{elapsed:.1f}s{verdict}"
    )
    print("\r" + line.ljust(100), end="", file=sys.stderr, flush=True)


class _Progress:
    """A progress bar: tqdm if importable, else a line of text."""

    def __init__(self, total: int, what: str, show: bool) -> None:
        self.total, self.what, self.show, self.n = total, what, show, 0
        self.bar: Any = None
        if show:
            try:
                from tqdm import tqdm

                self.bar = tqdm(total=total, desc=what, unit="game")
            except ImportError:
                self.bar = None

    def update(self, n: int) -> None:
        if n <= 0 or not self.show:
            return
        self.n += n
        if self.bar is not None:
            self.bar.update(n)
        else:
            print(f"\r{self.what}: {self.n}/{self.total} games", end="", file=sys.stderr, flush=True)

    def close(self) -> None:
        if not self.show:
            return
        if self.bar is not None:
            self.bar.close()
        else:
            print(file=sys.stderr)
