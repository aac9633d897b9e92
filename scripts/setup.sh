#!/usr/bin/env bash
# Installs the Debian packages Shipyard builds and tests with, when any is missing.
# sqlite3, sqlite3-tools (sqldiff), git, python3, make (depfiles) and bsdutils (script: a terminal) are the tests' oracles;
# strace traces dbgen's locks and syncs (scripts/check-file-locks.sh). Idempotent and quick when everything is present; called by the README's commands and
# by .ci/run. Needs root (or sudo) only when something has to be installed.
set -euo pipefail

packages=(pkg-config libsqlite3-dev libgit2-dev libxml2-dev zlib1g-dev sqlite3 sqlite3-tools git python3 make bsdutils strace)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}" >&2
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
