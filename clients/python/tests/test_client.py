"""Tests of the gamequiv client against a real server (see conftest.py)."""

from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Any, List, Tuple

import pandas as pd
import pytest

import gamequiv
from gamequiv import client as client_mod
from gamequiv import frames

# Buttons: the robot presses buttons a and b; 100 when both are on. Its
# renaming is the same game; OTHER pays 50 instead of 100.
BUTTONS = """(role robot)
(button a)
(button b)
(<= (legal robot (press ?x)) (button ?x) (not (true (on ?x))))
(<= (next (on ?x)) (does robot (press ?x)))
(<= (next (on ?x)) (true (on ?x)))
(<= terminal (true (on a)) (true (on b)))
(<= (goal robot 100) (true (on a)) (true (on b)))
(<= (goal robot 0) (not (true (on a))))
(<= (goal robot 0) (true (on a)) (not (true (on b))))
"""
RENAMED = (
    BUTTONS.replace("robot", "bot").replace("button", "switch").replace("press", "push")
    .replace("(on ", "(lit ").replace(" a)", " x)").replace(" b)", " y)")
)
OTHER = BUTTONS.replace("(goal robot 100)", "(goal robot 50)")
# An unsafe variable ?x at line 3, column 5.
UNSAFE = "(role robot)\n(init (on a))\n(<= (legal robot ?x) (true (on ?y)))\n"


def unique(text: str) -> str:
    """A game text of its own (a comment makes it a new text), so tests
    sharing the session server do not see each other's games."""
    return f"; {uuid.uuid4()}\n{text}"


def test_upload_text_path_and_line_endings(gq: gamequiv.Client, tmp_path: Path) -> None:
    text = unique(BUTTONS)
    g = gq.upload(text, name="buttons-lf")
    assert g["name"] == "buttons-lf"
    assert g["stats"]["roles"] == ["robot"]
    assert g["sha256"] == gamequiv.content_sha256(text)
    assert g["alias_added"] is False

    # The same text with CRLF endings, from a file: the same game, and the
    # file's stem becomes an alias.
    path = tmp_path / "buttons-crlf.kif"
    path.write_bytes(text.replace("\n", "\r\n").encode())
    again = gq.upload(path)
    assert again["id"] == g["id"]
    assert again["alias_added"] is True
    assert again["aliases"] == ["buttons-crlf"]
    assert gamequiv.content_sha256(path.read_bytes()) == g["sha256"]

    # Uploading under a name it already carries changes nothing, and says so.
    same = gq.upload(text, name="buttons-crlf")
    assert same["alias_added"] is False and same["aliases"] == ["buttons-crlf"]

    full = gq.game(g["id"])
    assert full["gdl"] == gamequiv.normalize_line_endings(text)


def test_invalid_gdl_raises_with_line_and_col(gq: gamequiv.Client) -> None:
    with pytest.raises(gamequiv.GamequivError) as info:
        gq.upload(UNSAFE, name="bad.kif")
    err = info.value
    assert err.code == "invalid_gdl"
    assert err.status == 422
    assert (err.line, err.col) == (3, 5)
    assert "bad.kif:3:5" in err.detail
    assert err.errors and err.errors[0]["line"] == 3
    assert "line 3, col 5" in str(err)


def test_errors_not_found_and_invalid(gq: gamequiv.Client) -> None:
    with pytest.raises(gamequiv.GamequivError) as info:
        gq.game(10**9)
    assert info.value.code == "not_found" and info.value.status == 404
    with pytest.raises(gamequiv.GamequivError) as info:
        gq.find_game(f"no such game {uuid.uuid4()}")
    assert info.value.code == "not_found"
    with pytest.raises(gamequiv.GamequivError) as info:
        gq.wait(10**9)
    assert info.value.code == "not_found"
    with pytest.raises(gamequiv.GamequivError) as info:
        gq._get("/api/v1/games", {"sha256": "xyz"})
    assert info.value.code == "invalid" and info.value.status == 400


def test_connection_error() -> None:
    dead = gamequiv.Client("http://127.0.0.1:9", retries=1, timeout=2)
    with pytest.raises(gamequiv.GamequivError) as info:
        dead.games()
    assert info.value.code == "connection"
    assert dead.health() is False


def test_lookup_by_sha256_and_name(gq: gamequiv.Client) -> None:
    tag = uuid.uuid4().hex[:8]
    text = unique(BUTTONS)
    g = gq.upload(text, name=f"lookup-{tag}/Buttons")
    gq.upload(text, name=f"lookup-{tag}/alias")
    other = gq.upload(unique(OTHER), name=f"lookup-{tag}/other")

    assert gq.game_by_sha256(text)["id"] == g["id"]
    assert gq.game_by_sha256(g["sha256"].upper())["id"] == g["id"]
    assert gq.game_by_sha256(unique(RENAMED)) is None

    assert [x["id"] for x in gq.games(name=f"lookup-{tag}/alias")] == [g["id"]]
    assert [x["id"] for x in gq.games(name_contains=f"LOOKUP-{tag}")] == [g["id"], other["id"]]
    assert gq.find_game(f"lookup-{tag}/other")["id"] == other["id"]

    gq.upload(unique(RENAMED), name=f"lookup-{tag}/twice")
    gq.upload(unique(RENAMED), name=f"lookup-{tag}/twice")
    with pytest.raises(gamequiv.GamequivError) as info:
        gq.find_game(f"lookup-{tag}/twice")
    assert info.value.code == "ambiguous"


def test_pagination(fresh_server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(client_mod, "PAGE_SIZE", 2)
    gq = gamequiv.Client(fresh_server.url)
    texts = [unique(BUTTONS) for _ in range(5)]
    ids = [gq.upload(t, name=f"g{i}")["id"] for i, t in enumerate(texts)]
    requests_made: List[Tuple[str, Any]] = []
    real_get = gq._get

    def spy(path: str, params: Any = None, timeout: Any = None) -> Any:
        requests_made.append((path, dict(params or {})))
        return real_get(path, params, timeout)

    monkeypatch.setattr(gq, "_get", spy)
    assert [g["id"] for g in gq.games()] == ids
    pages = [p for p in requests_made if p[0] == "/api/v1/games"]
    assert len(pages) == 3 and all(p[1]["limit"] == 2 for p in pages)
    assert "cursor" in pages[1][1]

    for i in range(1, 5):
        gq.submit(ids[0], ids[i])
    cs = gq.comparisons()
    assert len(cs) == 4 and len({c["id"] for c in cs}) == 4
    assert [c["b"] for c in gq.comparisons(game=ids[3])] == [ids[3]]
    df = gq.games_frame(name_contains="g")
    assert list(df["id"]) == ids and list(df.columns) == frames.GAME_COLUMNS


def test_batch_with_a_bad_game(gq: gamequiv.Client) -> None:
    tag = uuid.uuid4().hex[:8]
    good, dup = unique(BUTTONS), unique(OTHER)
    gq.upload(dup, name=f"batch-{tag}/stored")
    results = gq.upload_many([
        (f"batch-{tag}/good", good),
        (f"batch-{tag}/bad.kif", UNSAFE),
        (f"batch-{tag}/again", dup),
        (f"batch-{tag}/empty", "   "),
    ])
    statuses = [s for s, _, _ in results]
    assert statuses == [201, 422, 200, 422]
    _, game, err = results[1]
    assert game is None and err is not None
    assert (err.code, err.line, err.col) == ("invalid_gdl", 3, 5)
    _, again, _ = results[2]
    assert again["name"] == f"batch-{tag}/stored" and again["alias_added"] is True
    assert gq.find_game(f"batch-{tag}/good")["id"] == results[0][1]["id"]


def test_batch_split_on_body_cap(server_bin: str) -> None:
    from conftest import Server

    srv = Server(server_bin, ["--rate-limit", "0", "--classify=false", "--max-body", "4000"])
    try:
        gq = gamequiv.Client(srv.url)
        games = [(f"g{i}", unique(BUTTONS)) for i in range(6)]  # ~600 bytes each
        results = gq.upload_many(games)
        assert [s for s, _, _ in results] == [201] * 6
    finally:
        srv.stop()


def test_upload_folder(gq: gamequiv.Client, tmp_path: Path) -> None:
    tag = uuid.uuid4().hex[:8]
    root = tmp_path / f"corpus-{tag}"
    (root / "sub").mkdir(parents=True)
    text = unique(BUTTONS)
    (root / "a.kif").write_text(text)
    (root / "sub" / "copy.kif").write_bytes(text.replace("\n", "\r\n").encode())
    (root / "sub" / "other.gdl").write_text(unique(OTHER))
    (root / "bad.kif").write_text(UNSAFE)
    (root / "latin1.kif").write_bytes("(role r\xe9)".encode("latin-1"))
    (root / "notes.txt").write_text("not a game")

    report = gq.upload_folder(root, progress=True)
    by_path = {r.path: r for r in report.results}
    assert sorted(by_path) == ["a.kif", "bad.kif", "latin1.kif", "sub/copy.kif", "sub/other.gdl"]
    assert by_path["a.kif"].status == 201 and by_path["a.kif"].name == "a"
    copy = by_path["sub/copy.kif"]
    assert copy.duplicate_of == "a.kif" and copy.status == 200
    assert copy.game["id"] == by_path["a.kif"].game["id"] and copy.game["alias_added"] is True
    assert gq.game(copy.game["id"])["aliases"] == ["sub/copy"]
    assert by_path["bad.kif"].error.code == "invalid_gdl" and by_path["bad.kif"].error.line == 3
    assert by_path["latin1.kif"].status == 0 and by_path["latin1.kif"].error.code == "unreadable"
    assert len(report.games) == 2 and len(report.errors) == 2

    df = report.frame()
    assert list(df.columns) == frames.UPLOAD_COLUMNS and len(df) == 5
    assert df.set_index("path").loc["bad.kif", "line"] == 3

    # A second run stores nothing new.
    again = gq.upload_folder(root, progress=False)
    assert {r.status for r in again.results if r.ok} == {200}


def test_upload_respects_rate_limit(limited_server: Any) -> None:
    gq = gamequiv.Client(limited_server.url)
    start = time.monotonic()
    ids = [gq.upload(unique(BUTTONS), name=f"r{i}")["id"] for i in range(3)]
    assert len(set(ids)) == 3
    # Burst 1 at 1/s: the later uploads waited for the server's Retry-After.
    assert time.monotonic() - start >= 1.5
    no_retry = gamequiv.Client(limited_server.url, retries=0)
    time.sleep(1.2)  # the bucket refills
    no_retry.upload(unique(BUTTONS))
    with pytest.raises(gamequiv.GamequivError) as info:
        no_retry.upload(unique(BUTTONS))
    assert info.value.code == "rate_limited" and info.value.status == 429


def test_compare_equivalent_with_progress_and_mapping(gq: gamequiv.Client) -> None:
    a = gq.upload(unique(BUTTONS), name="cmp/buttons")
    b = gq.upload(unique(RENAMED), name="cmp/renamed")
    states: List[Tuple[str, str, float]] = []
    c = gq.compare(a, b, progress=lambda d, t: states.append((d["status"], d["progress"]["phase"], t)))
    assert c["verdict"] == "equivalent"
    assert c["a_name"] == "cmp/buttons" and c["b_name"] == "cmp/renamed"
    assert "verified mapping" in c["reason"]
    assert states and states[-1][0] == "done"
    assert all(t2 >= t1 for (_, _, t1), (_, _, t2) in zip(states, states[1:]))

    m = gq.mapping_frames(c)
    assert m.roles.to_dict("records") == [{"a": "robot", "b": "bot"}]
    assert set(m.propositions["a"]) == {"(on a)", "(on b)"}
    assert set(m.propositions["b"]) == {"(lit x)", "(lit y)"}
    assert list(m.actions.columns) == ["role_a", "role_b", "a", "b"]
    assert set(m.actions["role_b"]) == {"bot"} and len(m.actions) == 2
    # By id too, fetching the result.
    assert gq.mapping_frames(c["id"]).propositions.equals(m.propositions)

    # The same submission again is the same comparison, done at once.
    assert gq.compare(a["id"], b["id"], progress=False)["id"] == c["id"]


def test_compare_by_name_and_path(gq: gamequiv.Client, tmp_path: Path) -> None:
    gq.upload(unique(BUTTONS), name="named/buttons-for-path-test")
    p = tmp_path / "other.kif"
    p.write_text(unique(OTHER))
    c = gq.compare("named/buttons-for-path-test", p, progress=False)
    assert c["verdict"] == "not_equivalent" and c["reason"]
    with pytest.raises(gamequiv.GamequivError) as info:
        gq.mapping_frames(c)
    assert info.value.code == "no_mapping"


def test_comparisons_frame_with_results(fresh_server: Any) -> None:
    gq = gamequiv.Client(fresh_server.url)
    a, b, o = (gq.upload(t, name=n) for t, n in ((BUTTONS, "buttons"), (RENAMED, "renamed"), (OTHER, "other")))
    gq.compare(a, b, progress=False)
    gq.compare(a, o, progress=False)
    df = gq.comparisons_frame()
    assert list(df.columns) == frames.COMPARISON_COLUMNS
    assert list(df["b_name"]) == ["other", "renamed"]  # newest first
    assert list(df["verdict"]) == ["not_equivalent", "equivalent"]
    assert df["reason"].notna().all()
    full = gq.comparisons_frame(results=True)
    assert list(full.columns) == frames.COMPARISON_COLUMNS + frames.RESULT_COLUMNS
    eq = full[full.verdict == "equivalent"].iloc[0]
    assert eq["nodes_a"] > 0 and eq["nodes_a"] == eq["nodes_b"] and eq["total_ms"] > 0
    assert pd.api.types.is_datetime64_any_dtype(full["finished_at"])


def test_wait_timeout_cancel_and_live_progress(holding_server: Any) -> None:
    gq = gamequiv.Client(holding_server.url)
    a = gq.upload(BUTTONS, name="buttons")
    b = gq.upload(RENAMED, name="renamed")
    sub = gq.submit(a, b)
    assert sub["status"] in ("queued", "running")
    seen: List[str] = []
    start = time.monotonic()
    with pytest.raises(gamequiv.GamequivError) as info:
        gq.wait(sub, timeout=3, progress=lambda d, t: seen.append(d["progress"]["phase"]))
    assert info.value.code == "timeout"
    assert time.monotonic() - start < 10
    assert "search" in seen  # the phase the hold stops at, seen through the long poll
    gq.cancel(sub["id"])
    done = gq.wait(sub, timeout=30, progress=False)
    assert done["status"] == "cancelled"
    # A cancelled comparison is not an answer: the same submission starts
    # a new job (which this server holds too, so cancel it as well).
    again = gq.submit(a, b)
    assert again["id"] != sub["id"] and again["status"] in ("queued", "running")
    gq.cancel(again["id"])
    assert gq.wait(again, timeout=30, progress=False)["status"] == "cancelled"


def test_long_poll_returns_on_change(holding_server: Any) -> None:
    gq = gamequiv.Client(holding_server.url)
    a = gq.upload(BUTTONS, name="buttons")
    sub = gq.submit(a, a)
    # Wait until it holds at search; then a long poll with its revision
    # lasts the whole wait, and the cancel ends the next one early.
    doc = sub
    for _ in range(100):
        doc = gq.comparison(sub["id"])
        if doc["progress"]["phase"] == "search":
            break
        time.sleep(0.1)
    assert doc["progress"]["phase"] == "search"
    start = time.monotonic()
    same = gq._get(f"/api/v1/comparisons/{sub['id']}", {"wait": "1s", "since": doc["revision"]})
    assert same["revision"] == doc["revision"] and time.monotonic() - start >= 0.9
    gq.cancel(sub["id"])
    start = time.monotonic()
    changed = gq._get(f"/api/v1/comparisons/{sub['id']}", {"wait": "30s", "since": doc["revision"]})
    assert changed["revision"] != doc["revision"]
    assert time.monotonic() - start < 15


def test_symmetries(gq: gamequiv.Client) -> None:
    g = gq.upload(unique(BUTTONS), name="sym/buttons")
    s = gq.symmetries(g)
    assert s["order"] == 2 and isinstance(s["order"], int)
    assert len(s["generators"]) == 1
    assert s["generators"][0]["propositions"] == {"(on a)": "(on b)", "(on b)": "(on a)"}
    df = gq.symmetries_frame([g["id"]])
    assert list(df.columns) == frames.SYMMETRY_COLUMNS
    assert df.iloc[0]["order"] == 2 and df.iloc[0]["name"] == "sym/buttons"


def test_classes(server_bin: str) -> None:
    from conftest import Server

    srv = Server(server_bin, ["--rate-limit", "0"])  # with the classifier
    try:
        gq = gamequiv.Client(srv.url)
        a = gq.upload(BUTTONS, name="buttons")
        b = gq.upload(RENAMED, name="renamed")
        o = gq.upload(OTHER, name="other")
        games = gq.wait_classified(timeout=120)
        assert {g["id"] for g in games} == {a["id"], b["id"], o["id"]}
        df = gq.classes_frame()
        assert list(df.columns) == frames.CLASS_COLUMNS
        assert list(df["size"]) == [2, 1]  # largest first
        top = df.iloc[0]
        assert set(top["member_names"]) == {"buttons", "renamed"}
        assert gq.class_(int(top["id"]))["representative"] == top["representative"]
        gf = gq.games_frame()
        assert gf.set_index("name").loc["buttons", "class_id"] == top["id"]
    finally:
        srv.stop()


def test_game_ref_errors(gq: gamequiv.Client) -> None:
    with pytest.raises(TypeError):
        gq.submit(True, 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        gq.submit(1.5, 1)  # type: ignore[arg-type]


def test_token_access_control(auth_server: Any, cli_bin: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from conftest import make_token

    alice = make_token(cli_bin, auth_server, "alice")
    bob = make_token(cli_bin, auth_server, "bob")
    root = make_token(cli_bin, auth_server, "root", admin=True)

    anon = gamequiv.Client(auth_server.url, timeout=30, token="")
    with pytest.raises(gamequiv.GamequivError) as err:
        anon.games()
    assert err.value.code == "unauthorized" and err.value.status == 401
    with pytest.raises(gamequiv.GamequivError) as err:
        gamequiv.Client(auth_server.url, token="gq_bogus").games()
    assert err.value.status == 401

    monkeypatch.setenv("GAMEQUIV_TOKEN", alice)  # the default token
    ga = gamequiv.Client(auth_server.url, timeout=30)
    assert ga.me()["name"] == "alice" and ga.me()["access_control"]
    g = ga.upload(BUTTONS, name="buttons")
    assert g["owner"] == "alice"
    assert "alice" not in repr(ga) and alice not in repr(ga)

    gb = gamequiv.Client(auth_server.url, timeout=30, token=bob)
    for call in (lambda: gb.rename(g, "mine"), lambda: gb.delete(g)):
        with pytest.raises(gamequiv.GamequivError) as err:
            call()
        assert err.value.code == "forbidden" and err.value.status == 403
    assert ga.rename(g, "two buttons")["name"] == "two buttons"
    cmp = ga.submit(g, ga.upload(RENAMED, name="renamed"))
    with pytest.raises(gamequiv.GamequivError) as err:
        gb.cancel(cmp["id"])
    assert err.value.status == 403
    assert gamequiv.Client(auth_server.url, token=root).delete("two buttons") is None
    with pytest.raises(gamequiv.GamequivError) as err:
        ga.game(g["id"])
    assert err.value.code == "not_found"
    with pytest.raises(gamequiv.GamequivError) as err:
        ga.comparison(cmp["id"])
    assert err.value.code == "not_found"


def test_rename_and_delete_without_access_control(fresh_server: Any) -> None:
    gq = gamequiv.Client(fresh_server.url, timeout=30, token="")
    assert gq.me() == {"access_control": False, "admin": False, "public_read": True}
    g = gq.upload(BUTTONS, name="b1")
    assert gq.rename(g["id"], "b2")["name"] == "b2"
    gq.delete("b2")
    assert gq.games() == []
