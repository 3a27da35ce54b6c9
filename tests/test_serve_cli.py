"""``pinochle serve`` on the command line: it serves, stops at once on Ctrl-C (exit 130, no traceback), a second
server of the same file runs beside the first, --share prints the address, a QR code and the PIN, and every
error is one line with exit 2 (the extra missing among them)."""

from __future__ import annotations

import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner
from servehelp import new_record, start_server, stop_server

from pinochle_cli.cli import cli, serve_cmd

ROOT = Path(__file__).resolve().parent.parent


def test_it_serves_and_ctrl_c_stops_it_at_once(tmp_path: Path) -> None:
    path = new_record(tmp_path)
    proc, url = start_server(path)
    try:
        assert url.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(url, timeout=30) as page:
            assert b"game.yaml" in page.read()
    finally:
        code, err, took = stop_server(proc)
    assert code == 130 and "Traceback" not in err and took < 10


def test_a_second_server_of_the_same_file_runs_beside_the_first(tmp_path: Path) -> None:
    path = new_record(tmp_path)
    first, url1 = start_server(path)
    try:
        second, url2 = start_server(path)
        try:
            assert url1 != url2
            for url in (url1, url2):
                with urllib.request.urlopen(url + "live", timeout=30) as live:
                    assert live.status == 200
        finally:
            assert stop_server(second)[0] == 130
    finally:
        assert stop_server(first)[0] == 130


def test_share_prints_the_address_a_qr_code_and_the_pin(tmp_path: Path) -> None:
    path = new_record(tmp_path)
    proc, url = start_server(path, "--share", "--port", "0")
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline()]
        while lines[-1] and not lines[-1].startswith("Ctrl-C") and len(lines) < 100:
            lines.append(proc.stdout.readline())
        pin = next(line for line in lines if line.startswith("PIN to enter deals: "))
        assert pin.strip()[-6:].isdigit()
        assert sum("█" in line for line in lines) > 10
        assert not url.startswith("http://127.")
    finally:
        assert stop_server(proc)[0] == 130


def _invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["serve", *args], env={"PINOCHLE_RULESET": None})
    return result.exit_code, result.stderr


def test_without_the_extra_it_says_how_to_install_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = new_record(tmp_path)
    real = serve_cmd.importlib.util.find_spec
    monkeypatch.setattr(serve_cmd.importlib.util, "find_spec", lambda name: None if name == "flask" else real(name))
    code, err = _invoke(str(path))
    assert code == 2 and err.count("\n") == 1 and 'pip install "pinochle-cli[serve]"' in err


def test_errors_are_one_line(tmp_path: Path) -> None:
    path = new_record(tmp_path)
    broken = tmp_path / "broken.yaml"
    broken.write_text("ruleset: nosuch\n", encoding="utf-8")
    for args in ([str(tmp_path / "missing.yaml")], [str(broken)], [str(path), "--port", "70000"],
                 [str(path), "--host", "256.1.1.1", "--port", "8999"]):
        code, err = _invoke(*args)
        assert code == 2 and err.startswith("Error: ") and err.count("\n") == 1, (args, err)


def test_a_port_in_use_is_an_error(tmp_path: Path) -> None:
    path = new_record(tmp_path)
    proc, url = start_server(path)
    try:
        port = url.rsplit(":", 1)[1].strip("/")
        code, err = _invoke(str(path), "--port", port)
        assert code == 2 and f"port {port}" in err
    finally:
        stop_server(proc)
