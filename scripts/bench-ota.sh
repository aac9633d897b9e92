#!/usr/bin/env bash
# The over-the-air feed's figures (issue #29), every ratio measured in the same run:
#
# 1. Bytes on the wire of one update, metadata included, against binary deltas of the same two
#    files. Releases 1, 2 and 3 of the 300,000-row food database (scripts/gen-food.py; each
#    release: 1% of the values changed, 0.1% of the rows deleted, 0.1% inserted, by
#    scripts/gen-release.py) and of the TPC-H shape at scale 0.1 (scripts/gen-tpch.py; 1% of
#    lineitem's rows changed), each built by dbgen from its own files; a feed (`dbgen keys
#    generate`, `feed init`, `publish` of the three with `--patches-from 2`, `feed verify`)
#    served by nginx on 127.0.0.1 with a generated configuration; `dbgen fetch` updates a
#    device on release 1 to release 2 (one behind) and, from a fresh device, to release 3 (two
#    behind). The bytes are nginx's `$bytes_sent` (status line, headers and body of every
#    response) from its access log; the installed database must hold the release's content
#    (sqlite3's .sha3sum). Compared with bsdiff, `xdelta3 -9 -e -s` and
#    `zstd --patch-from --ultra -19` on the same two files (target: at most 0.10x the
#    smallest) and with the whole file compressed (gzip -9, and the feed's own whole-file target, bzip2).
# 2. Nothing new: the up-to-date device asks again (target: at most 2 requests, 2 KB both ways).
# 3. Client peak memory (`/usr/bin/time -v`) while `dbgen fetch` installs an update of the
#    1,000,000-row food database: a patch, and the whole file (target: 64 MiB).
# 4. Publishing release 6 of the 1,000,000-row food database with patches from the 5 earlier
#    ones, against 5 runs of `dbgen diff` on the same pairs (RUNS alternating pairs).
#
# usage: scripts/bench-ota.sh [--quick] [WORKDIR]
#   --quick  30,000 food rows, TPC-H scale 0.01, 100,000 rows for memory and publishing, 1 run
#   WORKDIR  where data, releases, feeds and patches go (default: a fresh temporary directory,
#            deleted after); what is already there for the same sizes is reused
#   RUNS     (environment) publish runs (default 3; 1 with --quick)
#   DBGEN    (environment) a dbgen binary to measure instead of this checkout's release build
#   PARTS    (environment) which figures, comma-separated: wire,memory,publish (default: all)
#
# Installs bsdiff, xdelta3 and zstd from Debian when missing (apt-get, as scripts/setup.sh
# installs its packages); nginx, sqlite3 and python3 come from scripts/setup.sh.
set -euo pipefail

QUICK=()
if [ "${1:-}" = --quick ]; then QUICK=(--quick); shift; fi
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"

missing=()
for pair in bsdiff:bsdiff xdelta3:xdelta3 zstd:zstd; do
    command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "bench-ota: installing ${missing[*]}" >&2
    sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
for tool in sqlite3 python3 gzip /usr/sbin/nginx /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "bench-ota: $tool is not installed (scripts/setup.sh)" >&2; exit 2; }
done

WORK_ARGUMENT="${1:-}"
WORK="${WORK_ARGUMENT:-$(mktemp -d "${TMPDIR:-/tmp}/bench-ota.XXXXXX")}"
mkdir -p "$WORK"
WORK="$(cd "$WORK" && pwd)"
if [ -z "${DBGEN:-}" ]; then
    echo "== building dbgen (release)"
    (cd "$REPO" && swift build -c release --product dbgen >/dev/null)
    DBGEN="$(cd "$REPO" && swift build -c release --show-bin-path)/dbgen"
fi
echo "== bsdiff $(dpkg-query -W -f='${Version}' bsdiff 2>/dev/null), xdelta3 $(xdelta3 -V 2>&1 | head -1 | sed 's/.*version \([0-9.]*\).*/\1/'), $(zstd --version | sed 's/.*v\([0-9.]*\).*/zstd \1/'), $(/usr/sbin/nginx -v 2>&1 | sed 's/.*: //'); load before: $(uptime | sed 's/.*load average: //')"
PYTHONPATH="$HERE" PYTHONDONTWRITEBYTECODE=1 python3 "$HERE/bench_ota.py" "$DBGEN" "$WORK" "${QUICK[@]}"
echo "== load after: $(uptime | sed 's/.*load average: //')"
if [ -z "$WORK_ARGUMENT" ]; then rm -rf "$WORK"; fi
