"""A small static file server for the built site, with gzip, as any static host serves it.

Used by `make lighthouse` and by the tests; binds to 127.0.0.1 only.
"""

from __future__ import annotations

import gzip
import sys
import threading
from functools import lru_cache, partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

_COMPRESSIBLE = (".html", ".css", ".js", ".json", ".xml", ".svg", ".txt", ".map", ".csv", ".yaml")


@lru_cache(maxsize=4096)
def _gzipped(path: str, mtime: float) -> bytes:
    return gzip.compress(Path(path).read_bytes(), compresslevel=6, mtime=0)


class _Handler(SimpleHTTPRequestHandler):
    # HTTP/1.1 keeps connections open, as every static host does; the base class speaks HTTP/1.0, which opens
    # a new connection per file and makes Lighthouse count a connection set-up for each stylesheet and script.
    # Every response here carries a Content-Length, which keep-alive needs.
    protocol_version = "HTTP/1.1"
    # The base class declares extensions_map an instance attribute (a dict), so it stays one; guess_type only
    # reads it.
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".js": "text/javascript",  # noqa: RUF012
                      ".json": "application/json", ".yaml": "application/yaml", ".csv": "text/csv",
                      ".webmanifest": "application/manifest+json"}

    def log_message(self, format: str, *args: object) -> None:
        pass

    def send_head(self):  # type: ignore[no-untyped-def]
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not self.path.split("?", 1)[0].endswith("/"):
                return super().send_head()  # the base class redirects to the folder URL
            path = path / "index.html"
        if not path.is_file():
            not_found = Path(self.directory) / "404.html"
            body = not_found.read_bytes() if not_found.is_file() else b"not found"
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return _Body(body)
        ctype = self.guess_type(str(path))
        if ctype.startswith("text/") or ctype in ("application/json", "application/javascript"):
            ctype += "; charset=utf-8"
        data = path.read_bytes()
        gz = "gzip" in self.headers.get("Accept-Encoding", "") and path.suffix in _COMPRESSIBLE
        if gz:
            data = _gzipped(str(path), path.stat().st_mtime)
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "max-age=31536000, immutable" if "/assets/" in self.path else "no-cache")
        if gz:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return _Body(data)


class _Body:
    def __init__(self, data: bytes) -> None:
        self.data = data

    def read(self, *_a: object) -> bytes:
        data, self.data = self.data, b""
        return data

    def close(self) -> None:
        pass


class _Server(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        """A browser that closes a kept-alive connection (Chromium resets idle ones when it exits) is not an
        error: say nothing. Anything else is reported as the base class does, with its traceback."""
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


def serve(site: Path, port: int = 0) -> tuple[ThreadingHTTPServer, str]:
    """Start serving site/ in a background thread on 127.0.0.1; returns the server and its base URL."""
    server = _Server(("127.0.0.1", port), partial(_Handler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"
