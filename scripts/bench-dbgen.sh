#!/usr/bin/env bash
# Benchmark dbgen against the sqlite3 shell on generated food data.
#
# usage: scripts/bench-dbgen.sh [ROWS] [WORKDIR]
#   ROWS     rows to generate (default 1000000)
#   WORKDIR  where data and databases go (default: a fresh temporary directory)
#
# Prints the best of 3 wall-clock times of `dbgen --force` and of `sqlite3 out.db < schema.txt`,
# their ratio, dbgen's peak RSS and the time of a no-op (up-to-date) rebuild.
set -euo pipefail

ROWS="${1:-1000000}"
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
GEN="$HERE/../../shared/bench/gen_food.py"
if [ ! -f "$GEN" ]; then
    echo "bench-dbgen: the data generator is missing: $GEN" >&2
    echo "bench-dbgen: it is expected at ../shared/bench/gen_food.py relative to the repository (usage: gen_food.py ROWS OUTDIR)" >&2
    exit 2
fi
command -v sqlite3 >/dev/null || { echo "bench-dbgen: sqlite3 is not installed" >&2; exit 2; }
command -v python3 >/dev/null || { echo "bench-dbgen: python3 is not installed" >&2; exit 2; }

WORK="${2:-$(mktemp -d "${TMPDIR:-/tmp}/bench-dbgen.XXXXXX")}"
mkdir -p "$WORK"
echo "== generating $ROWS rows in $WORK"
python3 "$GEN" "$ROWS" "$WORK/data"

echo "== building dbgen (release)"
(cd "$REPO" && swift build -c release --product dbgen >/dev/null)
DBGEN="$(cd "$REPO" && swift build -c release --show-bin-path)/dbgen"

now() { echo "$EPOCHREALTIME"; }   # bash 5: no process start in the measurement
elapsed() { python3 -c "print(f'{$2 - $1:.3f}')"; }
best() { printf '%s\n' "$@" | sort -g | head -1; }

cd "$WORK/data"
dbgen_times=(); sqlite_times=()
for run in 1 2 3; do
    t0=$(now); "$DBGEN" schema.txt -o "$WORK/dbgen.sqlite" --force --quiet; t1=$(now)
    dbgen_times+=("$(elapsed "$t0" "$t1")")
    rm -f "$WORK/sqlite3.sqlite"
    t0=$(now); sqlite3 "$WORK/sqlite3.sqlite" < schema.txt; t1=$(now)
    sqlite_times+=("$(elapsed "$t0" "$t1")")
    echo "   run $run: dbgen ${dbgen_times[-1]} s, sqlite3 ${sqlite_times[-1]} s"
done
DBGEN_BEST=$(best "${dbgen_times[@]}")
SQLITE_BEST=$(best "${sqlite_times[@]}")

# Peak resident set size of one forced build.
if [ -x /usr/bin/time ]; then
    RSS_KB=$(/usr/bin/time -f %M "$DBGEN" schema.txt -o "$WORK/dbgen.sqlite" --force --quiet 2>&1 >/dev/null | tail -1)
else
    RSS_KB=$(python3 - "$DBGEN" "$WORK/dbgen.sqlite" <<'PY'
import resource, subprocess, sys
subprocess.run([sys.argv[1], "schema.txt", "-o", sys.argv[2], "--force", "--quiet"], check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
)
fi

# No-op rebuild: inputs unchanged since the last build.
t0=$(now); "$DBGEN" schema.txt -o "$WORK/dbgen.sqlite" --quiet; t1=$(now)
NOOP=$(elapsed "$t0" "$t1")

# Both databases must hold the same rows.
A=$(sqlite3 "$WORK/dbgen.sqlite" "SELECT count(*), total(kcal) FROM food")
B=$(sqlite3 "$WORK/sqlite3.sqlite" "SELECT count(*), total(kcal) FROM food")
[ "$A" = "$B" ] || echo "bench-dbgen: WARNING: databases differ: dbgen $A, sqlite3 $B" >&2

echo "== results ($ROWS rows, best of 3)"
echo "dbgen:          $DBGEN_BEST s"
echo "sqlite3 shell:  $SQLITE_BEST s"
echo "ratio:          $(python3 -c "print(f'{$DBGEN_BEST / $SQLITE_BEST:.2f}')") (dbgen / sqlite3)"
echo "dbgen peak RSS: $((RSS_KB / 1024)) MB"
echo "no-op rebuild:  $NOOP s"
if [ -z "${2:-}" ]; then rm -rf "$WORK"; fi
