"""Serving the page: the listening socket (waitress), the address to open from another phone, its QR code.

``listen`` binds the first free port from the one asked for (a second server of the same file takes
the next); ``share_address`` finds the address to print for the other phones; ``run`` serves until
Ctrl-C, then raises ``KeyboardInterrupt`` (waitress stops its threads first: the page holds no
request open, so it stops at once).
"""

from __future__ import annotations

import errno
import ipaddress
import socket
from typing import Any

from ..errors import Message, ServeError

__all__ = ["DEFAULT_PORT", "PORTS_TRIED", "bound_port", "listen", "qr_text", "run", "share_address"]

DEFAULT_PORT = 8177
PORTS_TRIED = 20
THREADS = 8
# a private address to ask the routing table about (nothing is sent to it)
PROBE = "10.254.254.254"


def listen(app: Any, host: str, port: int | None) -> Any:
    """A waitress server for ``app`` on ``host``: ``port``, or the first free one from ``DEFAULT_PORT``."""
    from waitress.server import create_server

    ports = [port] if port is not None else list(range(DEFAULT_PORT, DEFAULT_PORT + PORTS_TRIED))
    for candidate in ports:
        try:
            return create_server(app, host=host, port=candidate, threads=THREADS, ident="pinochle",
                                 clear_untrusted_proxy_headers=True)
        except ValueError:
            raise ServeError(Message(f"cannot listen on {host!r}: not an address of this machine"),
                             parameter="host") from None
        except OSError as exc:
            if exc.errno not in (errno.EADDRINUSE, errno.EACCES) or candidate == ports[-1]:
                where = f"port {candidate}" if port is not None else f"ports {ports[0]}-{ports[-1]}"
                raise ServeError(Message(f"cannot listen on {host}, {where}: {exc.strerror or exc}"),
                                 parameter="port") from None
    raise AssertionError("unreachable")


def bound_port(server: Any) -> int:
    return int(server.effective_port)


def run(server: Any) -> None:
    """Serve until Ctrl-C (waitress takes it and stops its threads), then raise ``KeyboardInterrupt``."""
    server.run()
    raise KeyboardInterrupt


def share_address() -> tuple[str, bool]:
    """This machine's address on the local network and True: its name's first non-loopback IPv4, else (the
    name resolves to loopback, as Debian's 127.0.1.1) the address of the interface that routes outward;
    where neither is found, its name and False."""
    name = socket.gethostname()
    try:
        found = [str(sockaddr[0]) for *_rest, sockaddr in socket.getaddrinfo(name, None, socket.AF_INET)]
    except OSError:
        found = []
    for address in [*found, _outward_address()]:
        if address is not None and _usable(address):
            return address, True
    return name, False


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local)


def _outward_address() -> str | None:
    """The local address of the interface that routes toward a private network: "connecting" a UDP socket
    sends nothing, it only picks the route (no network needed)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect((PROBE, 9))
            return str(probe.getsockname()[0])
    except OSError:
        return None


def qr_text(url: str, *, blocks: bool) -> list[str]:
    """A QR code of ``url`` to print: two rows a line in half blocks, or (``blocks`` False) ``##`` per dark
    module for a terminal without them."""
    import segno

    matrix = [list(row) for row in segno.make(url, error="l", micro=False).matrix]
    border = 2
    size = len(matrix) + 2 * border
    light = [[0] * size for _ in range(border)]
    rows = light + [[0] * border + [int(bool(v)) for v in row] + [0] * border for row in matrix] + light
    if not blocks:
        return ["".join("  " if v else "##" for v in row) for row in rows]
    rows.append([0] * size)
    # dark modules print as spaces on a light block: the code reads on dark and light terminals alike
    glyph = {(0, 0): "█", (0, 1): "▀", (1, 0): "▄", (1, 1): " "}
    return ["".join(glyph[(a, b)] for a, b in zip(rows[i], rows[i + 1], strict=True))
            for i in range(0, len(rows) - 1, 2)]
