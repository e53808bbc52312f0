"""The npm tools the download and schema tests run (Redocly CLI, Spectral, ajv, yaml-language-server).

They come from the root package.json and package-lock.json, installed by `make test` (`npm ci`)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
NODE_MODULES = ROOT / "node_modules"
SCRIPTS = Path(__file__).resolve().parent / "tools"
# Redocly CLI asks the network for telemetry and update notices unless told not to; these tests stay offline.
OFFLINE_ENV = {**os.environ, "REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true", "NO_COLOR": "1"}


def node() -> str:
    found = shutil.which("node")
    assert found, "node is missing: run `make tools` (it installs Node.js and the npm test tools)"
    return found


def npm_bin(name: str) -> Path:
    """A command installed from the root package-lock.json, or a failure that says how to install it."""
    path = NODE_MODULES / ".bin" / name
    assert path.exists(), f"{path} is missing: run `make tools` or `npm ci` in the project folder"
    return path


def run_script(script: str, *args: str | Path) -> dict[str, Any]:
    """Run one of tests/tools/*.mjs with node and return the JSON object it prints."""
    assert (NODE_MODULES / "ajv").is_dir(), "node_modules is missing: run `make tools` or `npm ci`"
    done = subprocess.run([node(), str(SCRIPTS / script), *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, env=OFFLINE_ENV, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
