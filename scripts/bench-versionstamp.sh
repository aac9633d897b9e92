#!/usr/bin/env bash
# bench-versionstamp.sh REPO [RUNS]
#
# Times `versionstamp print` against `git rev-list --count HEAD` on the same repository in
# the same run, and prints the ratios (versionstamp / git; lower is better):
#   cold  = no commit-count cache (VERSIONSTAMP_COUNT_CACHE=0: a full history walk)
#   warm  = cache present for HEAD (the usual repeated build)
#   ahead = cache written for HEAD~10 (a few new commits since the last build)
#   stamp = the stamp default format r{count}{dirty} with a warm cache (adds the dirty check)
# Each figure is min / median / max of RUNS runs (default 5); ratios are of the medians. Uses the release build
# (.build/release/versionstamp, built if missing). Make a big history first, e.g.
#   bash /work/shared/bench/make-history.sh /tmp/history-100k 100000
# The repository's .git/versionstamp cache is deleted and rewritten.
set -euo pipefail
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 REPO [RUNS]" >&2; exit 64; }
REPO=$1 RUNS=${2:-5}
cd "$(dirname "$0")/.."
[ -x .build/release/versionstamp ] || swift build -c release --product versionstamp >/dev/null
VS=$PWD/.build/release/versionstamp
CACHE=$(git -C "$REPO" rev-parse --git-common-dir)
case $CACHE in /*) ;; *) CACHE=$REPO/$CACHE ;; esac
CACHE=$CACHE/versionstamp

# median_seconds CMD...: "min median max" wall time of RUNS runs of CMD (output discarded).
median_seconds() {
  python3 - "$RUNS" "$@" <<'PY'
import subprocess, sys, time, statistics
runs, cmd = int(sys.argv[1]), sys.argv[2:]
times = []
for _ in range(runs):
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    times.append(time.perf_counter() - start)
print("%.4f %.4f %.4f" % (min(times), statistics.median(times), max(times)))
PY
}

expected=$(git -C "$REPO" rev-list --count HEAD)
git_s=$(median_seconds git -C "$REPO" rev-list --count HEAD)

rm -rf "$CACHE"
cold_s=$(VERSIONSTAMP_COUNT_CACHE=0 median_seconds "$VS" print --repo "$REPO")
got=$("$VS" print --repo "$REPO")   # writes the cache for HEAD
[ "$got" = "$expected" ] || { echo "MISMATCH: versionstamp $got, git $expected" >&2; exit 1; }
warm_s=$(median_seconds "$VS" print --repo "$REPO")
stamp_s=$(median_seconds "$VS" print --repo "$REPO" --format 'r{count}{dirty}')

# Cache for HEAD~10 only: every run derives HEAD's count from it (and rewrites the file).
rm -rf "$CACHE"
"$VS" print --repo "$REPO" --format '{count}' >/dev/null
base=$(git -C "$REPO" rev-parse HEAD~10)
python3 - "$CACHE/commit-counts" "$base" "$(git -C "$REPO" rev-list --count HEAD~10)" <<'PY'
import sys
path, commit, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
h = 0xcbf29ce484222325
for b in ("%s %d" % (commit, count)).encode():
    h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
open(path, "w").write("versionstamp commit-count cache v1\n%s %d %x\n" % (commit, count, h))
PY
cp "$CACHE/commit-counts" "$CACHE/ahead-template"
ahead_s=$(python3 - "$RUNS" "$VS" "$REPO" "$CACHE" "$expected" <<'PY'
import shutil, subprocess, sys, time, statistics
runs, vs, repo, cache, expected = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
times = []
for _ in range(runs):
    shutil.copy(cache + "/ahead-template", cache + "/commit-counts")
    start = time.perf_counter()
    out = subprocess.run([vs, "print", "--repo", repo], check=True, capture_output=True, text=True).stdout.strip()
    times.append(time.perf_counter() - start)
    if out != expected:
        sys.exit("MISMATCH (ahead): versionstamp %s, git %s" % (out, expected))
print("%.4f %.4f %.4f" % (min(times), statistics.median(times), max(times)))
PY
)
rm -f "$CACHE/ahead-template"

echo "repository: $REPO ($expected commits), $RUNS runs each; seconds as min / median / max"
echo "load: $(uptime | sed 's/.*load average: //')"
# row NAME "MIN MEDIAN MAX" [ratio]
row() {
  set -- "$1" $2
  local median=$3
  if [ "$1" = "git rev-list --count HEAD" ]; then
    printf '%-38s %s / %s / %s\n' "$1" "$2" "$3" "$4"
  else
    printf '%-38s %s / %s / %s   ratio %s\n' "$1" "$2" "$3" "$4" \
      "$(python3 -c "print('%.2f' % ($median / $git_median))")"
  fi
}
git_median=$(echo "$git_s" | cut -d' ' -f2)
row "git rev-list --count HEAD" "$git_s"
row "versionstamp cold (no cache)" "$cold_s"
row "versionstamp warm (cache for HEAD)" "$warm_s"
row "versionstamp ahead (cache for HEAD~10)" "$ahead_s"
row "versionstamp warm r{count}{dirty}" "$stamp_s"
