#!/usr/bin/env bash
# bench-versionstamp.sh REPO [RUNS] [DIR] [GLOB]
#
# Times `versionstamp print` against the git command giving the same answer, on the same
# repository in the same run, and prints the ratios (versionstamp / git; lower is better):
#   cold  = no cache (VERSIONSTAMP_COUNT_CACHE=0: a full history walk)
#   warm  = cache present for HEAD (the usual repeated build)
#   ahead = cache written for HEAD~10 only (a few new commits since the last build)
#   stamp = the stamp default format r{count}{dirty} with a warm cache (adds the dirty check)
#   clone --shared cold, warm = the same count in a clone whose objects are all in an
#           alternate store (REPO's, through objects/info/alternates)
# and the release-numbering options (DIR default lib/net, GLOB default v*):
#   --path DIR cold, warm, ahead  against git rev-list --count HEAD -- DIR
#   --first-parent cold, warm     against git rev-list --count --first-parent HEAD
#   --tag-pattern GLOB {describe} against git describe --tags --long --always --dirty --match GLOB
#   --tag-pattern GLOB {tag}      against git describe --tags --abbrev=0 --match GLOB
# Every answer is first checked against git's. Each figure is min / median / max of RUNS runs
# (default 5); ratios are of the medians. A versionstamp command and its git command are run
# alternately, so a change in the machine's load affects both alike; the load average is
# printed before and after. Uses the release build (.build/release/versionstamp, built if
# missing), or the binary VERSIONSTAMP names: the one scripts/install.sh and the artifact
# bundles ship links the Swift runtime statically, which saves a warm run about 4 ms of its
# 15 (dynamic loading); build it with
#   swift build -c release --product versionstamp --static-swift-stdlib --scratch-path /tmp/vs-static
# Make a big history first, e.g.
#   scripts/make-history.sh /tmp/history-85k 85000
# The repository's .git/versionstamp cache is deleted and rewritten. Needs the print
# options --path, --first-parent and --tag-pattern of the release-numbering command line.
set -euo pipefail
[ $# -ge 1 ] && [ $# -le 4 ] || { echo "usage: $0 REPO [RUNS] [DIR] [GLOB]" >&2; exit 64; }
REPO=$1 RUNS=${2:-5} DIR=${3:-lib/net} GLOB=${4:-v*}
LOAD_BEFORE=$(uptime | sed 's/.*load average: //')
cd "$(dirname "$0")/.."
if [ -n "${VERSIONSTAMP:-}" ]; then
  VS=$(cd "$(dirname "$VERSIONSTAMP")" && pwd)/$(basename "$VERSIONSTAMP")
else
  [ -x .build/release/versionstamp ] || swift build -c release --product versionstamp >/dev/null
  VS=$PWD/.build/release/versionstamp
fi
CACHE=$(git -C "$REPO" rev-parse --git-common-dir)
case $CACHE in /*) ;; *) CACHE=$REPO/$CACHE ;; esac
CACHE=$CACHE/versionstamp
COLD="env VERSIONSTAMP_COUNT_CACHE=0"

# pair NAME GIT_NAME "VERSIONSTAMP COMMAND" "GIT COMMAND" [PREPARE]: checks that both print the
# same, then runs them alternately RUNS times (PREPARE, a shell command, before each
# versionstamp run) and prints a row for each with the ratio of the medians.
pair() {
  python3 - "$RUNS" "$@" <<'PY'
import subprocess, sys, time, statistics
runs, name, git_name, vs_cmd, git_cmd = int(sys.argv[1]), *sys.argv[2:6]
prepare = sys.argv[6] if len(sys.argv) > 6 else ""
def run(cmd, before=""):
    if before:
        subprocess.run(before, shell=True, check=True)
    start = time.perf_counter()
    out = subprocess.run(cmd, shell=True, check=True, capture_output=True, text=True).stdout.strip()
    return time.perf_counter() - start, out
_, expected = run(git_cmd)
_, got = run(vs_cmd, prepare)
if got != expected:
    sys.exit("MISMATCH (%s): versionstamp %s, git %s" % (name, got, expected))
vs, git = [], []
for _ in range(runs):
    git.append(run(git_cmd)[0])
    elapsed, out = run(vs_cmd, prepare)
    if out != expected:
        sys.exit("MISMATCH (%s): versionstamp %s, git %s" % (name, out, expected))
    vs.append(elapsed)
fmt = lambda xs: "%.4f / %.4f / %.4f" % (min(xs), statistics.median(xs), max(xs))
print("%-50s %s" % (git_name, fmt(git)))
print("%-50s %s   ratio %.2f" % (name, fmt(vs), statistics.median(vs) / statistics.median(git)))
PY
}

# cache_for REVISION KIND: writes a cache holding only REVISION's count (KIND count: the whole
# history; path: --path DIR) to $CACHE/KIND-template, in the format of HistoryCache (a header,
# then `KEY VALUE CHECKSUM` lines, FNV-1a 64 checksums, the count's KEY `OPTIONS-COMMIT`).
cache_for() {
  python3 - "$CACHE" "$2" "$DIR" "$(git -C "$REPO" rev-parse "$1")" \
      "$(git -C "$REPO" rev-list --count "$1")" "$(git -C "$REPO" rev-list --count "$1" -- "$DIR")" <<'PY'
import sys
cache, kind, directory, commit, count, path_count = sys.argv[1:]
def fnv(text):
    h = 0xcbf29ce484222325
    for b in text.encode():
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return "%x" % h
if kind == "count":
    key, value = fnv("count\0all") + "-" + commit, count
else:
    key, value = fnv("count\0all\0" + directory) + "-" + commit, path_count
text = "versionstamp history cache v2\n%s %s %s\n" % (key, value, fnv("%s %s" % (key, value)))
open("%s/%s-template" % (cache, kind), "w").write(text)
PY
}

rm -rf "$CACHE"
"$VS" print --repo "$REPO" >/dev/null   # creates the cache directory
echo "repository: $REPO ($(git -C "$REPO" rev-list --count HEAD) commits), $RUNS runs each; seconds as min / median / max"
pair "versionstamp cold (no cache)" "git rev-list --count HEAD" \
  "$COLD $VS print --repo $REPO" "git -C $REPO rev-list --count HEAD"
pair "versionstamp warm (cache for HEAD)" "git rev-list --count HEAD" \
  "$VS print --repo $REPO" "git -C $REPO rev-list --count HEAD"
cache_for HEAD~10 count
pair "versionstamp ahead (cache for HEAD~10)" "git rev-list --count HEAD" \
  "$VS print --repo $REPO" "git -C $REPO rev-list --count HEAD" \
  "cp $CACHE/count-template $CACHE/history"
"$VS" print --repo "$REPO" >/dev/null
pair "versionstamp warm r{count}{dirty}" "git describe --dirty (the dirty check)" \
  "$VS print --repo $REPO --format 'r{count}{dirty}'" \
  "printf 'r%s%s' \$(git -C $REPO rev-list --count HEAD) \$(git -C $REPO describe --always --dirty=M | sed -n 's/.*-\(M\)\$/\1/p')"

pair "versionstamp --path $DIR cold" "git rev-list --count HEAD -- $DIR" \
  "$COLD $VS print --repo $REPO --path $DIR" "git -C $REPO rev-list --count HEAD -- $DIR"
"$VS" print --repo "$REPO" --path "$DIR" >/dev/null
pair "versionstamp --path $DIR warm" "git rev-list --count HEAD -- $DIR" \
  "$VS print --repo $REPO --path $DIR" "git -C $REPO rev-list --count HEAD -- $DIR"
cache_for HEAD~10 path
pair "versionstamp --path $DIR ahead (HEAD~10 cached)" "git rev-list --count HEAD -- $DIR" \
  "$VS print --repo $REPO --path $DIR" "git -C $REPO rev-list --count HEAD -- $DIR" \
  "cp $CACHE/path-template $CACHE/history"

pair "versionstamp --first-parent cold" "git rev-list --count --first-parent HEAD" \
  "$COLD $VS print --repo $REPO --first-parent" "git -C $REPO rev-list --count --first-parent HEAD"
"$VS" print --repo "$REPO" --first-parent >/dev/null
pair "versionstamp --first-parent warm" "git rev-list --count --first-parent HEAD" \
  "$VS print --repo $REPO --first-parent" "git -C $REPO rev-list --count --first-parent HEAD"

pair "versionstamp --tag-pattern '$GLOB' {describe} warm" "git describe --tags --long --always --dirty --match '$GLOB'" \
  "$VS print --repo $REPO --tag-pattern '$GLOB' --format '{describe}'" \
  "git -C $REPO describe --tags --long --always --dirty --match '$GLOB'"
pair "versionstamp --tag-pattern '$GLOB' {tag} warm" "git describe --tags --abbrev=0 --match '$GLOB'" \
  "$VS print --repo $REPO --tag-pattern '$GLOB' --format '{tag}'" \
  "git -C $REPO describe --tags --abbrev=0 --match '$GLOB'"
rm -f "$CACHE"/*-template

# Objects in an alternate store: a `git clone --shared` of REPO (what `--reference` and CI
# reference repositories give) holds no pack of its own, its history is read from REPO's.
SHARED=$(mktemp -d "${TMPDIR:-/tmp}/bench-versionstamp-shared.XXXXXX")
trap 'rm -rf "$SHARED"' EXIT
git clone -q --shared "$REPO" "$SHARED/clone"
pair "versionstamp cold, clone --shared (alternates)" "git rev-list --count HEAD, clone --shared" \
  "$COLD $VS print --repo $SHARED/clone" "git -C $SHARED/clone rev-list --count HEAD"
"$VS" print --repo "$SHARED/clone" >/dev/null
pair "versionstamp warm, clone --shared (alternates)" "git rev-list --count HEAD, clone --shared" \
  "$VS print --repo $SHARED/clone" "git -C $SHARED/clone rev-list --count HEAD"
echo "load average before: $LOAD_BEFORE; after: $(uptime | sed 's/.*load average: //')"
