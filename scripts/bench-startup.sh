#!/usr/bin/env bash
# Times what the tools cost before they do any work, against C tools in the same run:
#
#   scripts/bench-startup.sh [RUNS] [HISTORY]
#
#   sqlite3 --version, git --version           the yardsticks (C programs)
#   dbgen --version, dbgen-plugin-tool --version, versionstamp --version
#                                              a process start (goal: 5 ms or less)
#   dbgen no-op build                          `dbgen schema.txt -o out.sqlite` with its inputs
#                                              unchanged since the last build (goal: 10 ms or less)
#   versionstamp print warm                    `versionstamp print` with the history cache
#                                              present, against `git rev-list --count HEAD` on the
#                                              same repository (goal: 0.03x git or less)
#
# RUNS (default 100) runs of each start-up row and of the no-op build, a quarter of that (at
# least 10) of versionstamp warm and of git's count. The rows run in turn, one run of each per
# round, so a change in the machine's load touches every row alike. Each command is started
# with posix_spawn from one Python process, its output to /dev/null; wall time is read around
# the spawn and the wait, CPU time (user + system) is the kernel's accounting of the child.
# Prints min / median / max wall milliseconds, the median CPU milliseconds, and each row's
# ratio of medians to its yardstick (sqlite3 --version for the start-ups and the no-op build,
# git's count for versionstamp); the load average before and after.
#
# HISTORY (default /tmp/shipyard-history-100k) is a repository of 100,000 commits written by
# scripts/make-history.sh when it does not exist yet (about a minute), or any repository;
# versionstamp's answer is checked against git's first.
#
# Binaries: those scripts/install.sh installs and the artifact bundles ship (release, the Swift
# runtime linked statically on Linux), built into .build-startup unless DBGEN, DBGEN_PLUGIN_TOOL
# and VERSIONSTAMP name binaries to measure (say, an older build, for before/after figures).
# The no-op build's inputs (scripts/gen-food.py, 1,000 rows: a no-op reads none of them, it
# compares their stat data) go to a temporary directory, deleted after.
set -euo pipefail
RUNS=${1:-100}
HISTORY=${2:-/tmp/shipyard-history-100k}
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
for tool in sqlite3 git python3; do
  command -v "$tool" >/dev/null || { echo "bench-startup: $tool is not installed" >&2; exit 2; }
done

if [ -z "${DBGEN:-}" ] || [ -z "${DBGEN_PLUGIN_TOOL:-}" ] || [ -z "${VERSIONSTAMP:-}" ]; then
  flags=(-c release --scratch-path "$REPO/.build-startup")
  if [ "$(uname -s)" = Linux ]; then flags+=(--static-swift-stdlib); fi
  echo "== building dbgen, dbgen-plugin-tool and versionstamp (swift build ${flags[*]})"
  for product in dbgen dbgen-plugin-tool versionstamp; do
    (cd "$REPO" && swift build "${flags[@]}" --product "$product" >/dev/null)
  done
  bin=$(cd "$REPO" && swift build "${flags[@]}" --show-bin-path)
  DBGEN=${DBGEN:-$bin/dbgen} DBGEN_PLUGIN_TOOL=${DBGEN_PLUGIN_TOOL:-$bin/dbgen-plugin-tool}
  VERSIONSTAMP=${VERSIONSTAMP:-$bin/versionstamp}
fi
if [ ! -e "$HISTORY" ]; then
  echo "== writing a history of 100,000 commits in $HISTORY"
  "$HERE/make-history.sh" "$HISTORY" 100000
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-startup.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
python3 "$HERE/gen-food.py" 1000 "$WORK/data" >/dev/null
"$DBGEN" "$WORK/data/schema.txt" -o "$WORK/out.sqlite" --quiet
# A build's inputs modified in the timestamp tick the build began in do not count as unchanged
# (BuildFingerprint); wait that tick out and build again so that the next builds are no-ops.
sleep 0.1
touch "$WORK/data/schema.txt"
"$DBGEN" "$WORK/data/schema.txt" -o "$WORK/out.sqlite" --quiet
"$VERSIONSTAMP" print --repo "$HISTORY" >/dev/null   # writes the history cache: warm from here on
sync

echo "== load before: $(uptime | sed 's/.*load average: //')"
echo "== dbgen $DBGEN"
echo "== dbgen-plugin-tool $DBGEN_PLUGIN_TOOL"
echo "== versionstamp $VERSIONSTAMP"
echo "== history $HISTORY ($(git -C "$HISTORY" rev-list --count HEAD) commits)"
python3 - "$RUNS" "$DBGEN" "$DBGEN_PLUGIN_TOOL" "$VERSIONSTAMP" "$HISTORY" "$WORK" <<'PY'
import os, statistics, subprocess, sys, time

runs, dbgen, plugin_tool, versionstamp, history, work = sys.argv[1:]
runs = int(runs)
schema, output = os.path.join(work, "data", "schema.txt"), os.path.join(work, "out.sqlite")
git = subprocess.run(["sh", "-c", "command -v git"], capture_output=True, text=True).stdout.strip()
sqlite3 = subprocess.run(["sh", "-c", "command -v sqlite3"], capture_output=True, text=True).stdout.strip()
null = os.open(os.devnull, os.O_RDWR)

def spawn(argv):
    """Wall and CPU seconds of one run of argv (an absolute path), its output to /dev/null."""
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=[
        (os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)])
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        sys.exit(f"bench-startup: {' '.join(argv)} failed (status {status})")
    return wall, usage.ru_utime + usage.ru_stime

# The answers first: the no-op build must be one, versionstamp must print git's count.
noop = [dbgen, schema, "-o", output, "--json"]
summary = subprocess.run(noop, capture_output=True, text=True, check=True).stdout
if '"upToDate" : true' not in summary:
    sys.exit(f"bench-startup: the build is not a no-op: {summary[:300]}")
count = [git, "-C", history, "rev-list", "--count", "HEAD"]
expected = subprocess.run(count, capture_output=True, text=True, check=True).stdout.strip()
warm = [versionstamp, "print", "--repo", history]
got = subprocess.run(warm, capture_output=True, text=True, check=True).stdout.strip()
if got != expected:
    sys.exit(f"bench-startup: versionstamp printed {got}, git {expected}")

rows = [  # name, argv, yardstick row, runs
    ("sqlite3 --version", [sqlite3, "--version"], None, runs),
    ("git --version", [git, "--version"], None, runs),
    ("dbgen --version", [dbgen, "--version"], "sqlite3 --version", runs),
    ("dbgen-plugin-tool --version", [plugin_tool, "--version"], "sqlite3 --version", runs),
    ("versionstamp --version", [versionstamp, "--version"], "sqlite3 --version", runs),
    ("dbgen no-op build", noop, "sqlite3 --version", runs),
    (f"git rev-list --count HEAD ({expected} commits)", count, None, max(10, runs // 4)),
    ("versionstamp print warm", warm, f"git rev-list --count HEAD ({expected} commits)", max(10, runs // 4)),
]
for _, argv, _, _ in rows:  # one untimed run each: page cache, the history cache
    spawn(argv)
times = {name: [] for name, _, _, _ in rows}
for round in range(runs):
    for name, argv, _, n in rows:
        if round < n:
            times[name].append(spawn(argv))

def median(name, index):
    return statistics.median(t[index] for t in times[name])
print(f"{'':44} {'wall ms: min / median / max':>28} {'CPU ms':>8}  ratio of medians")
for name, _, yardstick, _ in rows:
    walls = [t[0] * 1000 for t in times[name]]
    line = (f"{name:44} {min(walls):8.2f} / {statistics.median(walls):7.2f} / {max(walls):7.2f}"
            f" {median(name, 1) * 1000:8.2f}")
    if yardstick:
        line += f"  {median(name, 0) / median(yardstick, 0):6.3f}x {yardstick}"
    print(line, flush=True)
PY
echo "== load after: $(uptime | sed 's/.*load average: //')"
