"""pandas DataFrames of the API's documents: one row per item, stable
columns whatever the games (never a column per role name)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Mapping, NamedTuple, Optional, Tuple

import pandas as pd

from .errors import GamequivError

if TYPE_CHECKING:  # pragma: no cover
    from .client import UploadReport

#: The phases of a comparison, in order, as in ``result.stats.phase_ms``.
PHASES = ("ground", "graph", "search", "verify")

GAME_COLUMNS = [
    "id", "name", "aliases", "sha256", "roles", "n_roles", "propositions", "actions",
    "max_actions_per_role", "functions", "circuit_nodes", "class_id", "analysis_error", "created_at",
]

COMPARISON_COLUMNS = [
    "id", "a", "a_name", "b", "b_name", "status", "verdict", "reason", "error", "phase",
    "candidates", "attempts", "created_at", "started_at", "finished_at", "seconds",
]

#: Columns that comparisons_frame adds from each fetched result.
RESULT_COLUMNS = (
    [f"{p}_ms" for p in PHASES]
    + ["total_ms", "search_nodes", "sat_calls", "nodes_a", "nodes_b", "edges_a", "edges_b", "functions", "limit"]
)

CLASS_COLUMNS = ["id", "size", "representative", "representative_name", "member_ids", "member_names", "created_at"]

SYMMETRY_COLUMNS = [
    "game_id", "name", "order", "generators", "role_symmetric", "graph_order", "candidates",
    "total_ms", "error",
]

UPLOAD_COLUMNS = [
    "path", "name", "sha256", "status", "game_id", "stored_name", "alias_added", "duplicate_of",
    "error_code", "error", "line", "col",
]


def _time(v: Optional[str]) -> Any:
    return pd.to_datetime(v, utc=True) if v else pd.NaT


def _frame(rows: List[Dict[str, Any]], columns: List[str]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=columns)


def game_row(g: Mapping[str, Any]) -> Dict[str, Any]:
    """One game as a flat dict: its roles as a tuple, action counts summed
    over roles (and the largest per role) instead of one column per role."""
    st = g.get("stats") or {}
    actions = st.get("actions") or {}
    roles = tuple(st.get("roles") or ())
    return {
        "id": g["id"],
        "name": g["name"],
        "aliases": tuple(g.get("aliases") or ()),
        "sha256": g["sha256"],
        "roles": roles,
        "n_roles": len(roles),
        "propositions": st.get("propositions"),
        "actions": sum(actions.values()) if actions else None,
        "max_actions_per_role": max(actions.values()) if actions else None,
        "functions": st.get("functions"),
        "circuit_nodes": st.get("circuit_nodes"),
        "class_id": g.get("class_id"),
        "analysis_error": g.get("analysis_error"),
        "created_at": _time(g.get("created_at")),
    }


def games_frame(games: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Games as a DataFrame with the columns ``GAME_COLUMNS``."""
    df = _frame([game_row(g) for g in games], GAME_COLUMNS)
    for c in ("propositions", "actions", "max_actions_per_role", "functions", "circuit_nodes", "class_id"):
        df[c] = df[c].astype("Int64")
    return df


def comparison_row(c: Mapping[str, Any]) -> Dict[str, Any]:
    """One comparison as a flat dict; with its result (if present) the
    phase times, search figures and graph sizes."""
    p = c.get("progress") or {}
    started, finished = _time(c.get("started_at")), _time(c.get("finished_at"))
    row: Dict[str, Any] = {
        "id": c["id"],
        "a": c["a"],
        "a_name": c.get("a_name"),
        "b": c["b"],
        "b_name": c.get("b_name"),
        "status": c["status"],
        "verdict": c.get("verdict"),
        "reason": c.get("reason"),
        "error": c.get("error"),
        "phase": p.get("phase"),
        "candidates": p.get("candidates"),
        "attempts": c.get("attempts"),
        "created_at": _time(c.get("created_at")),
        "started_at": started,
        "finished_at": finished,
        "seconds": (finished - started).total_seconds() if started is not pd.NaT and finished is not pd.NaT else None,
    }
    res = c.get("result")
    if res:
        st = res.get("stats") or {}
        ms = st.get("phase_ms") or {}
        for ph in PHASES:
            row[f"{ph}_ms"] = ms.get(ph)
        row["total_ms"] = sum(v for v in ms.values() if v is not None)
        row["search_nodes"] = st.get("search_nodes")
        row["sat_calls"] = st.get("sat_calls")
        nodes, edges = st.get("nodes") or [None, None], st.get("edges") or [None, None]
        row["nodes_a"], row["nodes_b"] = nodes[0], nodes[1]
        row["edges_a"], row["edges_b"] = edges[0], edges[1]
        row["functions"] = st.get("functions")
        row["limit"] = res.get("limit")
    return row


def comparisons_frame(comparisons: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Comparisons as a DataFrame with the columns ``COMPARISON_COLUMNS``,
    plus ``RESULT_COLUMNS`` when any comparison carries its result."""
    rows = [comparison_row(c) for c in comparisons]
    cols = list(COMPARISON_COLUMNS)
    if any("total_ms" in r for r in rows):
        cols += RESULT_COLUMNS
    return _frame(rows, cols)


class MappingFrames(NamedTuple):
    """The mapping of an equivalence, one DataFrame per kind of symbol."""

    #: Columns ``a``, ``b``: role of game A and its counterpart in B.
    roles: pd.DataFrame
    #: Columns ``a``, ``b``: state propositions, sorted by ``a``.
    propositions: pd.DataFrame
    #: Columns ``role_a``, ``role_b``, ``a``, ``b``: actions of each role.
    actions: pd.DataFrame


def mapping_frames(comparison: Mapping[str, Any]) -> MappingFrames:
    """The mapping of a finished, equivalent comparison as DataFrames;
    raises :class:`GamequivError` (``no_mapping``) for any other."""
    res = comparison.get("result") or {}
    m = res.get("mapping")
    if not m:
        verdict = comparison.get("verdict") or comparison.get("status")
        raise GamequivError("no_mapping", f"comparison {comparison.get('id')} is {verdict}: it has no mapping")
    roles = sorted(m["roles"].items())
    props = sorted(m["propositions"].items())
    acts = [
        (ra, m["roles"].get(ra), a, b)
        for ra in sorted(m["actions"])
        for a, b in sorted(m["actions"][ra].items())
    ]
    return MappingFrames(
        roles=pd.DataFrame(roles, columns=["a", "b"]),
        propositions=pd.DataFrame(props, columns=["a", "b"]),
        actions=pd.DataFrame(acts, columns=["role_a", "role_b", "a", "b"]),
    )


def classes_frame(classes: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Classes as a DataFrame with the columns ``CLASS_COLUMNS``, largest
    first (then by id)."""
    rows = []
    for c in classes:
        members = c.get("members") or []
        names = {m["id"]: m["name"] for m in members}
        rows.append({
            "id": c["id"],
            "size": len(members),
            "representative": c["representative"],
            "representative_name": names.get(c["representative"]),
            "member_ids": tuple(m["id"] for m in members),
            "member_names": tuple(m["name"] for m in members),
            "created_at": _time(c.get("created_at")),
        })
    df = _frame(rows, CLASS_COLUMNS)
    return df.sort_values(["size", "id"], ascending=[False, True], ignore_index=True)


def symmetries_frame(
    rows: Iterable[Tuple[int, Optional[Mapping[str, Any]], Optional[GamequivError]]],
    names: Mapping[int, str],
) -> pd.DataFrame:
    """Symmetry reports as a DataFrame with the columns ``SYMMETRY_COLUMNS``.
    ``order`` is a Python int (groups can exceed 64 bits)."""
    out = []
    for gid, rep, err in rows:
        r: Dict[str, Any] = {"game_id": gid, "name": names.get(gid)}
        if rep is not None:
            ms = rep.get("phase_ms") or {}
            r.update({
                "order": int(rep["order"]),
                "generators": len(rep.get("generators") or []),
                "role_symmetric": bool(rep.get("role_symmetric")),
                "graph_order": int(rep["graph_order"]) if rep.get("graph_order") else None,
                "candidates": rep.get("candidates"),
                "total_ms": sum(ms.values()) if ms else None,
            })
        else:
            r["error"] = str(err)
        out.append(r)
    df = _frame(out, SYMMETRY_COLUMNS)
    # Python ints (None where unknown): orders overflow int64 and float.
    for c in ("order", "graph_order"):
        df[c] = pd.Series([r.get(c) for r in out], index=df.index, dtype=object)
    for c in ("generators", "candidates"):
        df[c] = df[c].astype("Int64")
    return df


def upload_frame(report: "UploadReport") -> pd.DataFrame:
    """An upload report as a DataFrame with the columns ``UPLOAD_COLUMNS``."""
    df = _frame([r.row() for r in report.results], UPLOAD_COLUMNS)
    for c in ("game_id", "line", "col"):
        df[c] = df[c].astype("Int64")
    return df
