"""The local static server used by `make lighthouse`, pa11y and the tests serves as a static host does:
gzip for text files, one kept-alive HTTP/1.1 connection for many files, and the 404 page for unknown URLs."""

from __future__ import annotations

import gzip
import http.client
from pathlib import Path

import pytest

from catalog_docs.devtools.static_server import serve


def _site(tmp_path: Path) -> Path:
    (tmp_path / "assets").mkdir()
    (tmp_path / "index.html").write_text("<!doctype html><title>home</title>" + "x" * 2000, encoding="utf-8")
    (tmp_path / "assets" / "site.css").write_text("body { color: black; }\n" * 100, encoding="utf-8")
    (tmp_path / "404.html").write_text("<!doctype html><title>not found</title>", encoding="utf-8")
    return tmp_path


def test_many_files_over_one_kept_alive_connection_gzipped(tmp_path: Path) -> None:
    site = _site(tmp_path)
    server, _ = serve(site)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=10)
        bodies = []
        for path in ("/", "/assets/site.css", "/no-such-page/"):
            conn.request("GET", path, headers={"Accept-Encoding": "gzip"})
            response = conn.getresponse()
            body = response.read()
            assert response.version == 11 and not response.will_close, path  # the connection stays open
            bodies.append((response.status, response.getheader("Content-Encoding"), body))
        sock = conn.sock
        conn.request("GET", "/assets/site.css")
        plain = conn.getresponse()
        assert conn.sock is sock  # the same connection served every request
        assert plain.getheader("Content-Encoding") is None
        assert plain.read() == (site / "assets" / "site.css").read_bytes()
        conn.close()
    finally:
        server.shutdown()
    (home_status, home_enc, home), (css_status, css_enc, css), (missing_status, _, missing) = bodies
    assert (home_status, home_enc) == (200, "gzip") and gzip.decompress(home) == (site / "index.html").read_bytes()
    assert (css_status, css_enc) == (200, "gzip")
    assert gzip.decompress(css) == (site / "assets" / "site.css").read_bytes()
    assert missing_status == 404 and b"not found" in missing


def test_a_client_that_resets_its_connection_is_not_reported(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """Chromium resets its idle kept-alive connections when Lighthouse closes it: no traceback for that."""
    import socket
    import struct

    server, _ = serve(_site(tmp_path))
    try:
        for _ in range(3):
            sock = socket.create_connection(("127.0.0.1", server.server_address[1]), timeout=10)
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            assert sock.recv(64).startswith(b"HTTP/1.1 200")
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close sends a reset
            sock.close()
        conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=10)
        conn.request("GET", "/")
        assert conn.getresponse().status == 200  # and the server carries on
        conn.close()
    finally:
        server.shutdown()
    err = capfd.readouterr().err
    assert "Traceback" not in err and "ConnectionResetError" not in err, err
