#!/usr/bin/env bash
# Benchmark FileSystemKit's SHA-256 (what dbgen publish, feed verify, dbgen update and the
# over-the-air client hash files with on Linux) against sha256sum and python3's hashlib.
#
# usage: scripts/bench-sha256.sh [MIB] [WORKDIR]
#   MIB      size of the file hashed, in MiB (default 1024)
#   WORKDIR  where the file goes (default: a fresh temporary directory, deleted after)
#   RUNS     (environment) timed runs of each (default 5)
#
# Builds shipyard-bench (release), writes MIB of seeded random bytes, reads the file once
# (page cache), then runs each hasher RUNS times, alternating: shipyard-bench with the CPU's
# SHA instructions (when the CPU has them), with the portable Swift, sha256sum, and hashlib
# (reading the file in 1 MiB pieces, as FileSystemKit does). Every digest must equal
# sha256sum's. Prints each one's median MB/s and its ratio to sha256sum and to hashlib.
set -euo pipefail

MIB="${1:-1024}"
RUNS="${RUNS:-5}"
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
for tool in sha256sum python3; do
    command -v "$tool" >/dev/null || { echo "bench-sha256: $tool is not installed" >&2; exit 2; }
done
WORK="${2:-}"
if [ -z "$WORK" ]; then
    WORK="$(mktemp -d "${TMPDIR:-/tmp}/bench-sha256.XXXXXX")"
    trap 'rm -rf "$WORK"' EXIT
fi
mkdir -p "$WORK"
echo "== building shipyard-bench (release)"
(cd "$REPO" && swift build -c release --product shipyard-bench >/dev/null)
BENCH="$(cd "$REPO" && swift build -c release --show-bin-path)/shipyard-bench"

python3 - "$BENCH" "$WORK/input.bin" "$MIB" "$RUNS" <<'PY'
import hashlib, os, random, statistics, subprocess, sys, time

bench, path, mib, runs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
size = mib << 20
if not os.path.exists(path) or os.path.getsize(path) != size:
    generator = random.Random(256)
    with open(path, "wb") as output:
        for _ in range(mib):
            output.write(generator.randbytes(1 << 20))
with open(path, "rb") as warm:
    while warm.read(1 << 24):
        pass

def hashlib_file():
    digest = hashlib.sha256()
    with open(path, "rb") as source:
        while piece := source.read(1 << 20):
            digest.update(piece)
    return digest.hexdigest()

def run(argv):
    start = time.perf_counter()
    out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout.split()[0]
    return time.perf_counter() - start, out

hashers = {}
cpu = subprocess.run([bench, "sha256", "/dev/null", "cpu"], capture_output=True).returncode == 0
if cpu:
    hashers["FileSystemKit, CPU SHA instructions"] = lambda: run([bench, "sha256", path, "cpu"])
hashers["FileSystemKit, portable Swift"] = lambda: run([bench, "sha256", path, "portable"])
hashers["sha256sum"] = lambda: run(["sha256sum", path])
def hashlib_timed():
    start = time.perf_counter()
    digest = hashlib_file()
    return time.perf_counter() - start, digest
hashers["python3 hashlib (in process)"] = hashlib_timed

expected = run(["sha256sum", path])[1]
seconds = {name: [] for name in hashers}
for _ in range(runs):
    for name, hasher in hashers.items():
        elapsed, digest = hasher()
        if digest != expected:
            sys.exit(f"bench-sha256: {name} gave {digest}, sha256sum {expected}")
        seconds[name].append(elapsed)
rate = {name: size / statistics.median(values) / 1e6 for name, values in seconds.items()}
print(f"SHA-256 of {mib} MiB, median of {runs} runs (process start included for the commands):")
for name in hashers:
    print(f"  {name:40s} {rate[name]:7.0f} MB/s   {rate[name] / rate['sha256sum']:5.2f}x sha256sum"
          f"   {rate[name] / rate['python3 hashlib (in process)']:5.2f}x hashlib")
if not cpu:
    print("  (this CPU reports no SHA instructions: FileSystemKit uses the portable Swift)")
PY
