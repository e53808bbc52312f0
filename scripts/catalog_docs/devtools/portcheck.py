"""`make serve` asks this first whether HOST:PORT is free, so a busy port is one line naming PORT=,
not the traceback mkdocs serve ends in when its bind fails.

Usage: python -m catalog_docs.devtools.portcheck HOST PORT  (exit 0 when free, 2 with one line on stderr when not)
"""

from __future__ import annotations

import socket
import sys


def port_problem(host: str, port: int) -> str | None:
    """Why a server could not listen on host:port (None when it can), in one line."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        return f"HOST={host} is not an address this machine can listen on ({exc.strerror})"
    family, _type, _proto, _name, address = infos[0]
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        # Same option as mkdocs' server: a port left in TIME_WAIT by a stopped server counts as free.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(address)
        except PermissionError:
            return f"port {port} needs more privileges on {host}; pick another with PORT=, e.g. make serve PORT=8001"
        except OSError as exc:
            return (f"port {port} on {host} is already in use ({exc.strerror}); stop the other server or pick "
                    f"another port: make serve PORT={port + 1 if port < 65535 else 8001}")
    return None


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or not args[1].isdigit() or not 0 < int(args[1]) < 65536:
        found = repr(args[1]) if len(args) > 1 else "nothing"
        print(f"make serve: PORT must be a number from 1 to 65535, not {found}", file=sys.stderr)
        return 2
    problem = port_problem(args[0], int(args[1]))
    if problem is not None:
        print(f"make serve: {problem}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
