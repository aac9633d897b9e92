#!/usr/bin/env bash
# Peak memory of `dbgen fetch` against endless answers (issue #34, item 8): a server that declares
# `Content-Length: 10^12`, one that sends no length, and one that sends `Transfer-Encoding:
# chunked`, each streaming zeros until the client goes away, for `timestamp.json` (the metadata
# fetch) and for a target (the download). `dbgen fetch` must refuse each with exit 1, and its peak
# RSS (`/usr/bin/time -v`) must stay at or below 64 MiB. A memory benchmark, not a timed test: the
# figures vary from run to run, the limit does not.
#
# usage: scripts/bench-fetch-memory.sh [WORKDIR]
#   WORKDIR  where the feed and the devices go (default: a fresh temporary directory, deleted after)
#   DBGEN    (environment) a dbgen binary to measure instead of this checkout's debug build
#
# Exit 0 when every answer is refused within the limit, 1 otherwise.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
for tool in python3 /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "bench-fetch-memory: $tool is not installed" >&2; exit 2; }
done
WORK_ARGUMENT="${1:-}"
WORK="${WORK_ARGUMENT:-$(mktemp -d "${TMPDIR:-/tmp}/bench-fetch-memory.XXXXXX")}"
mkdir -p "$WORK"
if [ -z "${DBGEN:-}" ]; then
    echo "== building dbgen"
    (cd "$REPO" && swift build --product dbgen >/dev/null)
    DBGEN="$(cd "$REPO" && swift build --show-bin-path)/dbgen"
fi
echo "== dbgen fetch against endless answers ($DBGEN); load before: $(uptime | sed 's/.*load average: //')"
status=0
PYTHONDONTWRITEBYTECODE=1 python3 "$HERE/bench_fetch_memory.py" "$DBGEN" "$WORK" || status=$?
echo "== load after: $(uptime | sed 's/.*load average: //')"
if [ -z "$WORK_ARGUMENT" ]; then rm -rf "$WORK"; fi
exit "$status"
