"""A small threaded static HTTP server for a built site folder, on 127.0.0.1 and a free port."""

from __future__ import annotations

import functools
import io
import mimetypes
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import BinaryIO, ClassVar

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

    def send_head(self) -> BinaryIO | None:
        body = self.server.sitemap if isinstance(self.server, _Server) else None
        if body is None or self.path.split("?")[0] != "/sitemap.xml":
            return super().send_head()
        self.send_response(200)
        self.send_header("Content-Type", _TYPES[".xml"])
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def log_message(self, format: str, *args: object) -> None:
        pass  # keep test output quiet; failures are reported by the tests themselves


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    sitemap: bytes | None = None
    """sitemap.xml as `serve(..., deployed=True)` serves it; None: the file as it is."""

    @property
    def base(self) -> str:
        """The served site's address, ending with '/'."""
        return f"http://127.0.0.1:{self.server_address[1]}/"

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # a browser or checker closing a connection early is not a site problem


@contextmanager
def serve(folder: Path, *, deployed: bool = False) -> Iterator[str]:
    """Serve folder over HTTP on 127.0.0.1 (a free port) in a background thread; yields the base URL.

    `deployed`: the site's sitemap.xml is served with the address the site was built for (its site_url, the
    shortest address the sitemap lists: the home page's) replaced by the served one, as a site deployed at its own
    address has it: the theme's instant navigation takes over a click only on a link its sitemap lists at the
    page's own address (port included), so without it every click in a test is a full load."""
    handler = functools.partial(_Handler, directory=str(folder))
    server = _Server(("127.0.0.1", 0), handler)
    if deployed:
        sitemap = (folder / "sitemap.xml").read_text(encoding="utf-8")
        built_for = min(re.findall(r"<loc>([^<]+)</loc>", sitemap), key=len)
        server.sitemap = sitemap.replace(built_for, server.base).encode()
    thread = threading.Thread(target=server.serve_forever, name=f"site-server-{folder.name}", daemon=True)
    thread.start()
    try:
        yield server.base
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
