#!/usr/bin/env bash
# Stops an install step, with one line and exit 2, when the folder it writes and deletes in (or a folder above it
# in the checkout) is a symbolic link: `npm ci` empties node_modules and pip and venv write into .venv through a
# link as readily as into a folder, so a link committed in a branch (or made by hand) would have `make install`
# or `make test` delete or write outside the checkout. A real folder, or none yet, passes. An absolute PATH is one
# given on make's command line (VENV=/elsewhere/venv), the user's own choice: it is not checked.
# Usage (from the checkout's root, as the Makefile runs it): scripts/refuse-links.sh PATH...
set -euo pipefail
for path in "$@"; do
  [[ "$path" == /* ]] && continue
  part=""
  IFS=/ read -ra segments <<<"$path"
  for segment in "${segments[@]}"; do
    part="${part:+$part/}$segment"
    if [ -L "$part" ]; then
      # %q: the link's target comes from the branch; it is printed escaped, never as raw control characters.
      printf 'make: %q is a symbolic link (to %q); the install step writes and deletes inside %q, so it refuses a link: remove the link and run make again\n' \
        "$part" "$(readlink -- "$part")" "$path" >&2
      exit 2
    fi
  done
done
