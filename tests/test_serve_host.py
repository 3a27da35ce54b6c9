"""The score page against DNS rebinding (every request's Host checked against the server's own names), and the
address `serve --share` prints (found with the resolver and the routing table patched: no network needed)."""

from __future__ import annotations

import socket
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, ClassVar

import pytest
from click.testing import CliRunner
from servehelp import MADE, Phone, new_record, start_server, stop_server

from pinochle_cli.cli import cli, serve_cmd
from pinochle_cli.records import read_record
from pinochle_cli.serve import server
from pinochle_cli.serve.security import LOCAL_NAMES, Guard, host_name, hosts_for

EVIL = "rebound.example"


@pytest.fixture
def record(tmp_path: Path) -> Path:
    return new_record(tmp_path)


# ------------------------------------------------------------------ the Host header


@pytest.mark.parametrize("host", ["127.0.0.1:8177", "localhost:8177", "LOCALHOST", "[::1]:8177", "localhost."])
def test_the_page_opens_at_this_machines_names(record: Path, host: str) -> None:
    page = Phone(record).client.get("/", headers={"Host": host})
    assert page.status_code == 200 and "game.yaml" in page.get_data(as_text=True)


@pytest.mark.parametrize("where", ["/", "/live", "/record", "/app.js"])
@pytest.mark.parametrize("host", [EVIL, f"{EVIL}:8177", "127.0.0.1.rebound.example", "", "[::2]:8177"])
def test_reading_under_another_host_is_refused(record: Path, where: str, host: str) -> None:
    answer = Phone(record).client.get(where, headers={"Host": host})
    assert answer.status_code == 400
    assert "is not this server's" in answer.get_data(as_text=True)
    assert "game.yaml" not in answer.get_data(as_text=True)


@pytest.mark.parametrize(("host", "status"), [("localhost:8177", 303), (f"{EVIL}:8177", 400)])
def test_a_post_under_another_host_changes_nothing(record: Path, host: str, status: int) -> None:
    phone = Phone(record)
    phone.open()
    before = record.read_bytes()
    # the same form, token and cookies: only the Host (and the Origin the browser would send with it) differ
    answer = phone.client.post("/deal", data={**phone.forms["/deal"], "dealer": "Ann", **MADE},
                               headers={"Host": host, "Origin": f"http://{host}"})
    assert answer.status_code == status
    if status == 400:
        assert record.read_bytes() == before
    else:
        assert len(read_record(str(record)).deals) == 1


def test_a_server_for_the_network_takes_its_printed_address(record: Path) -> None:
    guard = Guard(None, hosts=hosts_for("0.0.0.0", "192.168.1.20", loopback=True))
    client = Phone(record, guard).client
    for host in ("192.168.1.20:8177", "localhost:8177"):
        assert client.get("/", headers={"Host": host}).status_code == 200
    assert client.get("/", headers={"Host": "192.168.1.21:8177"}).status_code == 400


@pytest.mark.parametrize(("header", "name"), [
    ("localhost", "localhost"), ("LocalHost:8177", "localhost"), ("[::1]:80", "::1"), ("[::1]", "::1"),
    ("box.lan.:8177", "box.lan"), ("192.168.1.20:8177", "192.168.1.20"), ("", None), (None, None),
    ("[::1", None),
])
def test_host_names(header: str | None, name: str | None) -> None:
    assert host_name(header) == name


@pytest.mark.parametrize(("address", "shown", "loopback", "names"), [
    # this machine only: its loopback names
    ("127.0.0.1", "127.0.0.1", True, LOCAL_NAMES),
    ("localhost", "localhost", True, LOCAL_NAMES),
    ("::1", "::1", True, LOCAL_NAMES),
    # every address: the one printed, and this machine's own names
    ("0.0.0.0", "192.168.1.20", True, LOCAL_NAMES | {"0.0.0.0", "192.168.1.20"}),
    ("0.0.0.0", "Box", True, LOCAL_NAMES | {"0.0.0.0", "box"}),
    # --host: its own, and no loopback name (that address is not loopback)
    ("192.168.1.20", "192.168.1.20", False, {"192.168.1.20"}),
    ("box.lan", "box.lan", False, {"box.lan"}),
    ("fe80::1", "fe80::1", False, {"fe80::1"}),
])
def test_hosts_for(address: str, shown: str, loopback: bool, names: frozenset[str]) -> None:
    assert hosts_for(address, shown, loopback=loopback) == names


def test_the_running_server_refuses_another_host(tmp_path: Path) -> None:
    path = new_record(tmp_path)
    proc, url = start_server(path, "--port", "0")
    try:
        port = url.rsplit(":", 1)[1].strip("/")
        with urllib.request.urlopen(f"http://localhost:{port}/", timeout=30) as page:
            assert page.status == 200
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(urllib.request.Request(url, headers={"Host": f"{EVIL}:{port}"}), timeout=30)
        assert refused.value.code == 400
    finally:
        stop_server(proc)


# ------------------------------------------------------------------ the address --share prints


class _Probe:
    """A UDP socket whose "connect" picks ``local`` as the route's address (or fails: no route)."""

    local: str | None = None
    asked: ClassVar[list[tuple[str, int]]] = []

    def __init__(self, *_args: Any) -> None:
        pass

    def __enter__(self) -> _Probe:
        return self

    def __exit__(self, *_exc: object) -> None:
        return None

    def connect(self, where: tuple[str, int]) -> None:
        _Probe.asked.append(where)
        if _Probe.local is None:
            raise OSError(101, "Network is unreachable")

    def getsockname(self) -> tuple[str, int]:
        assert _Probe.local is not None
        return (_Probe.local, 40000)


def _resolving(monkeypatch: pytest.MonkeyPatch, addresses: list[str] | None, route: str | None) -> None:
    def getaddrinfo(name: str, *_args: Any) -> list[Any]:
        assert name == "box"
        if addresses is None:
            raise socket.gaierror(-2, "Name or service not known")
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, 0)) for a in addresses]

    monkeypatch.setattr(server.socket, "gethostname", lambda: "box")
    monkeypatch.setattr(server.socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(server.socket, "socket", _Probe)
    monkeypatch.setattr(_Probe, "local", route)
    monkeypatch.setattr(_Probe, "asked", [])


@pytest.mark.parametrize(("addresses", "route", "shown"), [
    # the name resolves to the network address: that one (the routing table is not asked)
    (["192.168.1.20"], "10.0.0.5", ("192.168.1.20", True)),
    (["127.0.1.1", "192.168.1.20"], "10.0.0.5", ("192.168.1.20", True)),
    # Debian's 127.0.1.1 (or an unknown name): the address of the interface that routes outward
    (["127.0.1.1"], "192.168.1.20", ("192.168.1.20", True)),
    (None, "192.168.1.20", ("192.168.1.20", True)),
    # no route but loopback, or none at all: the name, and not found
    (["127.0.1.1"], "127.0.0.1", ("box", False)),
    (["127.0.1.1"], "0.0.0.0", ("box", False)),
    (["127.0.1.1"], None, ("box", False)),
])
def test_the_share_address(monkeypatch: pytest.MonkeyPatch, addresses: list[str] | None, route: str | None,
                           shown: tuple[str, bool]) -> None:
    _resolving(monkeypatch, addresses, route)
    assert server.share_address() == shown
    # the probe is a private address, asked of the routing table only
    assert all(socket.inet_aton(host) and host.startswith("10.") for host, _port in _Probe.asked)


def test_share_says_when_no_address_was_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = new_record(tmp_path)
    _resolving(monkeypatch, ["127.0.1.1"], None)
    apps: list[Any] = []
    monkeypatch.setattr(server, "listen", lambda app, host, port: apps.append(app))
    monkeypatch.setattr(server, "bound_port", lambda _server: 8177)
    monkeypatch.setattr(server, "run", lambda _server: None)
    result = CliRunner().invoke(cli, ["serve", str(path), "--share"], env={"PINOCHLE_RULESET": None})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"Serving {path} at http://box:8177/"
    assert lines[1] == serve_cmd.NOT_FOUND
    # the name printed is one the page answers to, beside this machine's own names
    client = apps[0].test_client()
    for host, status in (("box:8177", 200), ("localhost:8177", 200), (f"{EVIL}:8177", 400)):
        assert client.get("/", headers={"Host": host}).status_code == status
