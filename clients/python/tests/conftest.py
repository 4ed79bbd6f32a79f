"""Fixtures: real gamequiv servers on loopback ports with temporary
databases, and the client package from this checkout.

The server binary is $GAMEQUIV_SERVER_BIN, or built once per session from
the repository (``go build -tags gamequiv_e2e ./cmd/server``; the tag only
adds a hook, read from $GAMEQUIV_E2E_HOLD_PHASE, that holds comparisons at
a phase so that the tests can watch a running one).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Dict, Iterator, List, Optional

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
sys.path.insert(0, str(HERE.parent))  # the client from this checkout

import gamequiv  # noqa: E402

#: Seconds a server may take to print its "listening" line.
START_TIMEOUT = 60.0
#: The environment variable of the hold hook (cmd/server/hold_e2e.go).
HOLD_PHASE_ENV = "GAMEQUIV_E2E_HOLD_PHASE"


@pytest.fixture(scope="session")
def server_bin(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The server binary: $GAMEQUIV_SERVER_BIN or a fresh build."""
    given = os.environ.get("GAMEQUIV_SERVER_BIN")
    if given:
        return given
    go = shutil.which("go")
    if go is None:
        pytest.skip("go not on PATH and GAMEQUIV_SERVER_BIN unset: cannot build the server")
    out = tmp_path_factory.mktemp("bin") / "server"
    subprocess.run(
        [go, "build", "-buildvcs=false", "-tags", "gamequiv_e2e", "-o", str(out), "./cmd/server"],
        cwd=REPO, check=True,
    )
    return str(out)


@pytest.fixture(scope="session")
def cli_bin(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The gamequiv CLI (for ``gamequiv token``): $GAMEQUIV_CLI_BIN or a
    fresh build."""
    given = os.environ.get("GAMEQUIV_CLI_BIN")
    if given:
        return given
    go = shutil.which("go")
    if go is None:
        pytest.skip("go not on PATH and GAMEQUIV_CLI_BIN unset: cannot build the CLI")
    out = tmp_path_factory.mktemp("cli") / "gamequiv"
    subprocess.run([go, "build", "-buildvcs=false", "-o", str(out), "./cmd/gamequiv"], cwd=REPO, check=True)
    return str(out)


class Server:
    """A running server process with its own data directory."""

    def __init__(self, binary: str, args: List[str], env: Optional[Dict[str, str]] = None) -> None:
        self.data = tempfile.mkdtemp(prefix="gamequiv-pytest-")
        full_env = dict(os.environ, GAMEQUIV_DATABASE_URL="", **(env or {}))
        cmd = [binary, "--addr", "127.0.0.1:0", "--data", self.data, *args]
        self.proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, env=full_env, text=True)
        self.log: List[str] = []
        addr: List[str] = []
        ready = threading.Event()

        def read() -> None:
            assert self.proc.stderr is not None
            for line in self.proc.stderr:
                self.log.append(line)
                try:
                    rec = json.loads(line)
                except ValueError:
                    continue
                if rec.get("msg") == "listening" and not ready.is_set():
                    addr.append(rec["addr"])
                    ready.set()
            ready.set()

        threading.Thread(target=read, daemon=True).start()
        if not ready.wait(START_TIMEOUT) or not addr:
            self.stop()
            raise RuntimeError("server did not start:\n" + "".join(self.log))
        self.url = "http://" + addr[0]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.data, ignore_errors=True)


def _server(binary: str, args: List[str], env: Optional[Dict[str, str]] = None) -> Iterator[Server]:
    s = Server(binary, args, env)
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture(scope="session")
def server(server_bin: str) -> Iterator[Server]:
    """A server without rate limit, shared by the session."""
    yield from _server(server_bin, ["--rate-limit", "0", "--workers", "2"])


@pytest.fixture
def fresh_server(server_bin: str) -> Iterator[Server]:
    """A server with an empty database, for one test."""
    yield from _server(server_bin, ["--rate-limit", "0", "--workers", "2", "--classify=false"])


@pytest.fixture
def limited_server(server_bin: str) -> Iterator[Server]:
    """A server that allows one POST per second per client (burst 1)."""
    yield from _server(server_bin, ["--rate-limit", "1", "--rate-burst", "1", "--classify=false"])


@pytest.fixture
def holding_server(server_bin: str) -> Iterator[Server]:
    """A server whose comparisons stop at the search phase until cancelled."""
    yield from _server(server_bin, ["--rate-limit", "0", "--classify=false"], {HOLD_PHASE_ENV: "search"})


@pytest.fixture
def auth_server(server_bin: str) -> Iterator[Server]:
    """A server with access control (--auth) and private reads."""
    yield from _server(server_bin, ["--rate-limit", "0", "--classify=false", "--auth"])


def make_token(cli: str, server: Server, name: str, admin: bool = False) -> str:
    """A new API token of the server's database, made with the CLI."""
    args = [cli, "token", "create", "--name", name, "--data", server.data] + (["--admin"] if admin else [])
    env = dict(os.environ, GAMEQUIV_DATABASE_URL="")
    return subprocess.run(args, check=True, capture_output=True, text=True, env=env).stdout.strip()


@pytest.fixture
def gq(server: Server) -> gamequiv.Client:
    """A client of the shared server."""
    return gamequiv.Client(server.url, timeout=30)
