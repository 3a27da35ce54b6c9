"""The score page under real use and abuse, through its HTTP interface (Flask's test client; a real waitress server
on loopback where the server itself is what is tested): redo never brings back a replaced deal, a stale or repeated
form changes nothing twice, the answer is where the page opens, bounded requests, no lock-out by idle connections
or by guessing the PIN, a --host this machine lacks, the QR code on light and dark terminals."""

from __future__ import annotations

import contextlib
import errno
import hmac
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from clihelp import run_cli
from servehelp import MADE, ORIGIN, Phone, new_record, start_server, stop_server

from pinochle_cli.records import read_record
from pinochle_cli.serve import security, server
from pinochle_cli.serve.app import create_app
from pinochle_cli.serve.security import PIN_FREE, Guard, Guesses

# a second deal, unlike MADE
OTHER = {"bidder": "Bob", "bid": "300", "trump": "S", "meld:Us": "20", "meld:Them": "200", "counters:Us": "40"}


@pytest.fixture
def record(tmp_path: Path) -> Path:
    return new_record(tmp_path)


def _html(answer: Any) -> str:
    return str(answer.get_data(as_text=True))


# ------------------------------------------------------------------ 1. redo never brings back a replaced deal

def test_a_new_deal_after_undo_leaves_nothing_to_redo(record: Path) -> None:
    phone = Phone(record)
    phone.post("/deal", {"dealer": "Ann", **MADE})
    phone.post("/deal", MADE)
    assert phone.post("/undo").status_code == 303
    # deal 2 may be put back now, and the page offers it
    redo = dict(phone.forms["/redo"])
    assert 'action="/redo#said"' in _html(phone.open())
    # a different deal 2: redo is no longer offered, and the old redo form puts nothing back
    assert phone.post("/deal", OTHER).status_code == 303
    assert "/redo" not in phone.forms
    before = record.read_bytes()
    refused = phone.client.post("/redo", data={**redo, "sent": "another"}, headers={"Origin": ORIGIN},
                                base_url=ORIGIN)
    assert refused.status_code == 409 and record.read_bytes() == before
    assert [d.bidder for d in read_record(str(record)).deals] == ["Ann", "Bob"]


# ------------------------------------------------------------------ 2. no deal twice, none into a changed sheet

def test_a_form_left_open_while_another_phone_adds_the_deal(record: Path) -> None:
    first, second = Phone(record), Phone(record)
    first.open()
    second.open()
    assert second.post("/deal", {"dealer": "Ann", **MADE}).status_code == 303
    before = record.read_bytes()
    stale = first.post("/deal", {"dealer": "Ann", **MADE})
    html = _html(stale)
    assert stale.status_code == 409 and record.read_bytes() == before
    # the sheet as it is now, the deal as typed, the form now naming deal 2 of the new version
    assert "The sheet changed: here it is now." in html and "<td>1</td>" in html
    assert 'value="150"' in html and "<h2>Deal 2</h2>" in html
    assert first.forms["/deal"]["deal"] == "2"


def test_a_deal_added_in_a_terminal_meanwhile(record: Path) -> None:
    phone = Phone(record)
    phone.open()
    added = run_cli("record", "add", str(record), "--dealer", "Ann", "--bidder", "Ann", "--bid", "250", "-t", "H",
                    "--meld", "Us=100", "--meld", "Them=40", "--counters", "Us=150")
    assert added.code == 0, added.err
    assert phone.post("/deal", {"dealer": "Ann", **MADE}).status_code == 409
    assert len(read_record(str(record)).deals) == 1


@pytest.mark.parametrize("where", ["/deal", "/undo"])
def test_a_form_sent_twice_is_applied_once(record: Path, where: str) -> None:
    phone = Phone(record)
    phone.post("/deal", {"dealer": "Ann", **MADE})
    phone.post("/deal", OTHER)
    form = {**phone.forms[where], **(OTHER if where == "/deal" else {})}
    answers = [phone.client.post(where, data=form, headers={"Origin": ORIGIN}, base_url=ORIGIN) for _ in range(3)]
    assert [a.status_code for a in answers] == [303, 303, 303]
    assert len(read_record(str(record)).deals) == (3 if where == "/deal" else 1)
    # the repeats answer with what the first did
    first, *again = [a.location for a in answers]
    if where == "/deal":
        assert first == "/?said=added&n=3#said" and again == ["/?said=again&n=3#said"] * 2
    else:
        assert first == "/?said=undone&n=2#said" and again == [first] * 2


def test_a_double_tap_at_once_adds_one_deal(record: Path) -> None:
    phone = Phone(record)
    phone.open()
    form = {**phone.forms["/deal"], "dealer": "Ann", **MADE}
    codes: list[int] = []

    def tap() -> None:
        codes.append(phone.client.post("/deal", data=form, headers={"Origin": ORIGIN}, base_url=ORIGIN).status_code)

    taps = [threading.Thread(target=tap) for _ in range(4)]
    for t in taps:
        t.start()
    for t in taps:
        t.join(timeout=60)
    assert codes == [303] * 4
    assert len(read_record(str(record)).deals) == 1


def test_an_undo_from_a_stale_page_takes_out_nothing(record: Path) -> None:
    phone, other = Phone(record), Phone(record)
    phone.post("/deal", {"dealer": "Ann", **MADE})
    other.open()
    other.post("/deal", OTHER)
    before = record.read_bytes()
    stale = phone.post("/undo")
    assert stale.status_code == 409 and "The sheet changed" in _html(stale)
    assert record.read_bytes() == before


def test_a_change_that_names_no_version_is_refused(record: Path) -> None:
    phone = Phone(record)
    phone.open()
    before = record.read_bytes()
    answer = phone.client.post("/deal", data={"token": phone.token, "dealer": "Ann", **MADE},
                               headers={"Origin": ORIGIN}, base_url=ORIGIN)
    assert answer.status_code == 400 and "version" in _html(answer)
    assert record.read_bytes() == before


# ------------------------------------------------------------------ 7. the answer where the eye is

def test_after_a_deal_the_page_opens_at_the_answer_with_the_standing(record: Path) -> None:
    phone = Phone(record)
    done = phone.post("/deal", {"dealer": "Ann", **MADE})
    assert done.location.endswith("#said")
    html = _html(phone.open(done.location))
    said = html[html.index('<div id="said">'):]
    said = said[:said.index("</div>")]
    assert "Deal 1 added. Ann dealt; Ann bid 250 in hearts" in said
    assert "Now: Us 250, Them 140; Bob deals next." in said
    # every form opens its answer at the same place
    assert html.count('#said"') >= 2


def test_a_refused_field_is_marked_and_focused(record: Path) -> None:
    refused = Phone(record).post("/deal", {"dealer": "Ann", **MADE, "counters:Us": "300"})
    html = _html(refused)
    assert refused.status_code == 422 and "Not added" in html
    field = html.index('name="counters:Us"')
    assert "autofocus" in html[field:field + 200] and 'id="e-counters:Us"' in html[field:field + 400]
    assert html.count("autofocus") == 1


def test_a_read_only_folder_is_said_at_once_on_the_page(record: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 16 on the page: the lock file that cannot be made is the reason given, at once, at the form's top (no
    field is marked); the record is unchanged."""
    phone = Phone(record)
    phone.open()
    before = record.read_bytes()
    real = os.open

    def refuse(path: str | os.PathLike[str], flags: int, *args: object, **kwargs: object) -> int:
        # every file made in the record's folder fails as a read-only folder's would (modes do not stop root)
        if flags & os.O_CREAT and Path(path).parent == record.parent:
            raise PermissionError(errno.EROFS, "Read-only file system", str(path))
        return real(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", refuse)
    started = time.monotonic()
    refused = phone.post("/deal", {"dealer": "Ann", **MADE})
    took = time.monotonic() - started
    html = _html(refused)
    assert refused.status_code == 422 and took < 5 and record.read_bytes() == before
    assert "Not added: see the reason below." in html and "cannot lock: " in html and "read-only" in html
    assert "another writer" not in html and "aria-invalid" not in html and 'id="e-' not in html


# ------------------------------------------------------------------ 4. the title and why the match ended

def test_the_page_shows_the_title_and_why_the_match_ended(tmp_path: Path) -> None:
    path = tmp_path / "saturday.yaml"
    path.write_bytes((Path(__file__).resolve().parent.parent / "examples" / "three-handed-night.yaml").read_bytes())
    html = _html(Phone(path).open())
    assert "<title>Saturday at Cy&#x27;s</title>" in html and "<h1>Saturday at Cy&#x27;s</h1>" in html
    assert "saturday.yaml</h1>" not in html
    assert "Ann won: the bidder went out (Bob also reached 1,500 on that deal)." in html


# ------------------------------------------------------------------ 9. bounded, well-formed requests

@pytest.mark.parametrize("host", ["localhost:99999", "localhost:abc", "local host", "localhost:8177/x", "a@localhost",
                                  "[::1", "localhost:0"])
def test_a_malformed_host_is_400(record: Path, host: str) -> None:
    assert Phone(record).client.get("/", headers={"Host": host}).status_code == 400


@pytest.mark.parametrize(("body", "said"), [
    (b'{"token": "a", "token": "b"}', "given more than once"),
    (b"[" * 5000 + b"]" * 5000, "nested too deeply"),
    (b'{"bid": {"a": 1}}', "one object of strings and numbers"),
    (b"\xff", "not JSON"),
])
def test_a_bad_json_body_is_400(record: Path, body: bytes, said: str) -> None:
    phone = Phone(record)
    phone.open()
    answer = phone.client.post("/deal", data=body, content_type="application/json", headers={"Origin": ORIGIN},
                               base_url=ORIGIN)
    assert answer.status_code == 400 and said in _html(answer)


def test_a_json_body_enters_a_deal(record: Path) -> None:
    phone = Phone(record)
    phone.open()
    answer = phone.client.post("/deal", json={**phone.forms["/deal"], "dealer": "Ann", **MADE},
                               headers={"Origin": ORIGIN}, base_url=ORIGIN)
    assert answer.status_code == 303 and len(read_record(str(record)).deals) == 1


def test_a_form_field_given_twice_is_400(record: Path) -> None:
    phone = Phone(record)
    phone.open()
    body = "&".join(f"{k}={v}" for k, v in {**phone.forms["/deal"], "dealer": "Ann", **MADE}.items()) + "&bid=300"
    answer = phone.client.post("/deal", data=body, content_type="application/x-www-form-urlencoded",
                               headers={"Origin": ORIGIN}, base_url=ORIGIN)
    assert answer.status_code == 400 and "'bid' is given more than once" in _html(answer)
    assert read_record(str(record)).deals == ()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """A real ``pinochle serve`` on loopback: its port."""
    proc, url = start_server(new_record(tmp_path_factory.mktemp("served")))
    try:
        yield int(url.rsplit(":", 1)[1].strip("/"))
    finally:
        stop_server(proc)


def _raw(port: int, request: bytes, seconds: float = 10) -> tuple[bytes, float]:
    """The status line the server answers ``request`` with, and how long it took."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=seconds) as sock:
        # the server may answer and close before reading everything sent
        with contextlib.suppress(OSError):
            sock.sendall(request)
        data = b""
        while b"\r\n" not in data:
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
    return data.split(b"\r\n", 1)[0], time.monotonic() - started


POST = b"POST /deal HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\n"


def test_a_huge_body_is_refused_before_it_is_read(served: int) -> None:
    # a gigabyte announced, a few bytes sent: answered at once, nothing waited for
    status, took = _raw(served, POST + b"Content-Length: 1000000000\r\n\r\nbid=250")
    assert status.split()[1] == b"413" and took < 5
    chunked = POST + b"Transfer-Encoding: chunked\r\n\r\n" + (b"4000\r\n" + b"a" * 0x4000 + b"\r\n") * 6
    assert _raw(served, chunked)[0].split()[1] == b"413"


def test_huge_headers_and_a_malformed_host_on_the_wire(served: int) -> None:
    assert _raw(served, b"GET / HTTP/1.1\r\nHost: localhost\r\nX-A: " + b"a" * 40000 + b"\r\n\r\n")[0].split()[1] \
        == b"431"
    for host in (b"localhost:99999", b"exa mple", b"", b"localhost\r\nHost: evil.example"):
        assert _raw(served, b"GET / HTTP/1.1\r\nHost: " + host + b"\r\nConnection: close\r\n\r\n")[0].split()[1] \
            == b"400", host


# ------------------------------------------------------------------ 10. no lock-out by idle connections

def test_a_hundred_idle_connections_do_not_keep_a_phone_out(served: int) -> None:
    idle = [socket.create_connection(("127.0.0.1", served), timeout=10) for _ in range(server.CONNECTIONS + 30)]
    try:
        for _ in range(3):
            status, took = _raw(served, b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            assert status.split()[1] == b"200" and took < 5
    finally:
        for sock in idle:
            sock.close()


def test_an_idle_connection_is_closed(record: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server, "IDLE_SECONDS", 1)
    running = server.listen(create_app(str(record), Guard(None)), "127.0.0.1", 0)
    loop = threading.Thread(target=running.run, daemon=True)
    loop.start()
    try:
        with socket.create_connection(("127.0.0.1", server.bound_port(running)), timeout=15) as sock:
            started = time.monotonic()
            # the server closes it: the read ends with nothing
            assert sock.recv(10) == b""
            assert time.monotonic() - started < 10
    finally:
        running.close()
        for dispatcher in list(running._map.values()):
            dispatcher.close()
        loop.join(timeout=10)


# ------------------------------------------------------------------ 11. no lock-out by guessing the PIN

def test_a_guesser_waits_longer_and_longer_and_no_one_else_waits(record: Path) -> None:
    now = [1000.0]
    guard = Guard("123456", guesses=Guesses(clock=lambda: now[0]))
    guesser = Phone(record, guard, address="192.168.1.66")
    for _ in range(PIN_FREE):
        assert guesser.post("/pin", {"pin": "000000"}).status_code == 403
    waiting = guesser.post("/pin", {"pin": "123456"})
    assert waiting.status_code == 429 and waiting.headers["Retry-After"] == "1"
    assert "Too many wrong PINs from this phone" in _html(waiting)
    # each wrong PIN after the wait doubles it
    waits = []
    for _ in range(4):
        now[0] += 1000
        assert guesser.post("/pin", {"pin": "000000"}).status_code == 403
        waits.append(guard.guesses.wait("192.168.1.66"))
    assert waits == [2.0, 4.0, 8.0, 16.0]
    # meanwhile the right PIN from another phone is taken at once, and that phone may enter deals
    phone = Phone(record, guard, address="192.168.1.20", app=guesser.app)
    assert phone.post("/pin", {"pin": "123456"}).status_code == 303
    assert phone.post("/deal", {"dealer": "Ann", **MADE}).status_code == 303


def test_pins_are_compared_in_constant_time(record: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    compared: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(security.hmac, "compare_digest", spy)
    assert Guard("123456").check_pin("654321", "10.0.0.1")[0] == "wrong"
    assert (b"654321", b"123456") in compared


def test_the_guessers_remembered_are_bounded() -> None:
    guesses = Guesses()
    for i in range(security.PIN_CLIENTS + 50):
        guesses.wrong(f"10.{i // 65536}.{i // 256 % 256}.{i % 256}")
    assert len(guesses.clients) == security.PIN_CLIENTS


# ------------------------------------------------------------------ 12. an address this machine lacks

@pytest.mark.parametrize("host", ["192.0.2.1", "no-such-host.invalid", "256.1.1.1"])
def test_a_host_this_machine_lacks_is_said(record: Path, host: str) -> None:
    code, _out, err = run_cli("serve", str(record), "--host", host, "--port", "0")
    assert code == 2 and err.startswith(f"Error: cannot listen on '{host}': not an address of this machine")
    assert "port" not in err


# ------------------------------------------------------------------ 8. the QR code on light and dark terminals

def _seen(lines: list[str], background: int) -> list[list[int]]:
    """The modules a terminal shows (1 dark), drawing text in 1 - ``background`` on ``background`` unless the
    line sets its own colours: each half-block character is two modules, top and bottom."""
    fg, bg = 1 - background, background
    if lines[0].startswith("\x1b[38;5;16;48;5;231m"):
        fg, bg = 1, 0
    top: list[int] = []
    bottom: list[int] = []
    for ch in "".join(line.replace("\x1b[38;5;16;48;5;231m", "").replace("\x1b[0m", "") + "\n" for line in lines):
        if ch == "\n":
            continue
        up, down = {" ": (bg, bg), "█": (fg, fg), "▀": (fg, bg), "▄": (bg, fg)}[ch]
        top.append(up)
        bottom.append(down)
    width = len(lines[0].replace("\x1b[38;5;16;48;5;231m", "").replace("\x1b[0m", ""))
    rows = []
    for i in range(len(lines)):
        rows += [top[i * width:(i + 1) * width], bottom[i * width:(i + 1) * width]]
    return rows


def _modules(url: str) -> list[list[int]]:
    import segno

    matrix = [[int(bool(v)) for v in row] for row in segno.make(url, error="l", micro=False).matrix]
    size = len(matrix) + 4
    quiet = [[0] * size for _ in range(2)]
    return quiet + [[0, 0, *row, 0, 0] for row in matrix] + quiet


@pytest.mark.parametrize("background", [0, 1], ids=["light-terminal", "dark-terminal"])
def test_the_qr_code_in_colours_reads_the_same_on_every_terminal(background: int) -> None:
    url = "http://192.168.1.20:8177/"
    shown = _seen(server.qr_text(url, blocks=True, colours=True), background)
    assert shown[:len(_modules(url))] == _modules(url)


def test_without_colours_the_qr_code_is_drawn_for_a_dark_terminal() -> None:
    url = "http://192.168.1.20:8177/"
    shown = _seen(server.qr_text(url, blocks=True), background=1)
    assert shown[:len(_modules(url))] == _modules(url)


@pytest.mark.parametrize(("tty", "env", "expected"), [(True, {}, True), (False, {}, False),
                                                      (True, {"NO_COLOR": "1"}, False), (True, {"TERM": "dumb"}, False)])
def test_colours_only_on_a_colour_terminal(monkeypatch: pytest.MonkeyPatch, tty: bool, env: dict[str, str],
                                           expected: bool) -> None:
    from pinochle_cli.cli import serve_cmd

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(serve_cmd.sys.stdout, "isatty", lambda: tty, raising=False)
    monkeypatch.setattr(serve_cmd.os, "name", "posix")
    assert serve_cmd._colours() is expected
