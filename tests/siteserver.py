"""A small threaded static HTTP server for a built site folder, on 127.0.0.1 and a free port."""

from __future__ import annotations

import functools
import mimetypes
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

# The platform's MIME table may lack some of these; a browser refuses module scripts, workers or
# stylesheets served with the wrong type, so the types are fixed here.
_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".xml": "application/xml",
    ".gz": "application/gzip",
    ".woff2": "font/woff2",
    ".map": "application/json",
}


class _Handler(SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {**mimetypes.types_map, **_TYPES, "": "application/octet-stream"}

    def log_message(self, format: str, *args: object) -> None:
        pass  # keep test output quiet; failures are reported by the tests themselves


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # a browser or checker closing a connection early is not a site problem


@contextmanager
def serve(folder: Path) -> Iterator[str]:
    """Serve folder over HTTP on 127.0.0.1 (a free port) in a background thread; yields the base URL."""
    handler = functools.partial(_Handler, directory=str(folder))
    server = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, name=f"site-server-{folder.name}", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
