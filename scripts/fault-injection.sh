#!/usr/bin/env bash
# Fault injection for dbgen and versionstamp: what a build pipeline can do to them.
#
#   scripts/fault-injection.sh [--kills N]       (default 20 kills; about a minute in all)
#
#  1. kill -9 dbgen at random moments of a large build, N times: the output must be either
#     the old database or the complete new one (sha256 against reference builds), never
#     anything else; the next build removes the killed builds' temporaries.
#     Also N kills during `dbgen update --database` / `--patch` (the previous or the new
#     database in effect, leftovers removed by the next install), and
#     N/2 kills each during the template copy of `dbgen attach` (no user database or the
#     whole template) and during `versionstamp stamp` of a large plist (old or stamped).
#  2. Disk full (a small tmpfs when mount works, else `ulimit -f` with SIGXFSZ ignored):
#     during a build, during the template copy of `dbgen attach`, during a write into an
#     existing user database, and during `versionstamp stamp`: a clear error, exit 1,
#     nothing lost (old files byte-identical, no temporaries left).
#  3. A read-only output directory, an unreadable CSV, schema and plist. Root ignores file
#     modes, so as root the tools run without CAP_DAC_OVERRIDE/CAP_DAC_READ_SEARCH
#     (setpriv or capsh); with neither tool those checks are skipped, saying so.
#
# SHIPYARD_FAULTS_NO_TMPFS=1 forces the `ulimit -f` fallback (as where mount is not allowed).
# Builds the debug products first (or uses $DBGEN / $VERSIONSTAMP). Prints PASS/FAIL/SKIP
# lines and ends with `N passed, N failed`; exits 1 when anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."

kills=20
[ "${1:-}" = "--kills" ] && kills=${2:?--kills needs a number}

if [ -z "${DBGEN:-}" ] || [ -z "${VERSIONSTAMP:-}" ]; then
  swift build --product dbgen >/dev/null && swift build --product versionstamp >/dev/null || {
    echo "fault-injection: swift build failed" >&2; exit 1; }
  bin=$(swift build --show-bin-path)
  DBGEN=${DBGEN:-$bin/dbgen}
  VERSIONSTAMP=${VERSIONSTAMP:-$bin/versionstamp}
fi

passed=0 failed=0
pass() { echo "PASS: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
skip() { echo "SKIP: $*"; }
check() { # check DESCRIPTION CONDITION...
  local what=$1; shift
  if "$@"; then pass "$what"; else fail "$what"; fi
}
sha() { sha256sum "$1" 2>/dev/null | cut -d' ' -f1; }
contains() { grep -qiE -- "$2" "$1"; }
no_temporaries() { # no_temporaries DIR: no dbgen/installer/stamp temporaries (or dbgen's sidecar locks) left in DIR
  [ -z "$(find "$1" -maxdepth 1 \( -name '.*.dbgen-??????' -o -name '.*.dbgen-??????.lock' -o -name '.*.tmp-*' -o -name '.*versionstamp*' \) -print -quit)" ]
}

work=$(mktemp -d "${TMPDIR:-/tmp}/shipyard-faults.XXXXXX")
mounts=()
cleanup() {
  for m in "${mounts[@]}"; do umount "$m" 2>/dev/null; done
  chmod -R u+rwX "$work" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# Runs a command without the capabilities that let root ignore file modes.
unprivileged_method=""
if [ "$(id -u)" -ne 0 ]; then
  unprivileged_method=plain
elif command -v setpriv >/dev/null && setpriv --bounding-set=-dac_override,-dac_read_search -- true 2>/dev/null; then
  unprivileged_method=setpriv
elif command -v capsh >/dev/null && capsh --drop=cap_dac_override,cap_dac_read_search -- -c true 2>/dev/null; then
  unprivileged_method=capsh
fi
unprivileged() {
  case $unprivileged_method in
    plain) "$@" ;;
    setpriv) setpriv --bounding-set=-dac_override,-dac_read_search -- "$@" ;;
    capsh) capsh --drop=cap_dac_override,cap_dac_read_search -- -c '"$@"' capsh "$@" ;;
  esac
}

# A small filesystem of SIZE KiB at DIR: tmpfs when mounting works, else a plain directory
# and `limited` caps file sizes with ulimit -f instead. Sets $full_method.
full_method=""
small_filesystem() { # small_filesystem DIR SIZE_KB
  mkdir -p "$1"
  if [ -z "${SHIPYARD_FAULTS_NO_TMPFS:-}" ] && [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o "size=${2}k" tmpfs "$1" 2>/dev/null; then
    mounts+=("$1"); full_method=tmpfs
  else
    full_method=ulimit
  fi
}
limited() { # limited SIZE_KB COMMAND...: under ulimit -f when there is no tmpfs
  local size=$1; shift
  if [ "$full_method" = ulimit ]; then
    ( trap '' XFSZ; ulimit -f "$size"; exec "$@" )
  else
    "$@"
  fi
}

# ---------------------------------------------------------------------------------------
# Inputs: a large CSV (about a second of build in debug), an old and a new schema.
in=$work/inputs
mkdir -p "$in"
python3 - "$in/big.csv" <<'PY'
import random, sys
random.seed(7)
with open(sys.argv[1], "w") as f:
    for i in range(300000):
        f.write(f'{i}|{random.randint(0, 99)}|name {i} "q"|{"x" * random.randint(0, 60)}\n')
PY
schema() { # schema VERSION
  cat <<EOF
CREATE TABLE big(pk INTEGER PRIMARY KEY, g INTEGER, name TEXT, d TEXT);
.mode csv
.separator |
.import big.csv big
CREATE INDEX big_g ON big(g, name);
CREATE TABLE version(ver INTEGER);
INSERT INTO version VALUES ($1);
EOF
}
schema 1 >"$in/old.txt"
schema 2 >"$in/new.txt"
printf 'CREATE TABLE version(ver INTEGER);\nINSERT INTO version VALUES (0);\n' >"$in/small.txt"
"$DBGEN" build "$in/old.txt" -o "$in/old.sqlite" --quiet || { echo "fault-injection: reference build failed" >&2; exit 1; }
"$DBGEN" build "$in/new.txt" -o "$in/new.sqlite" --quiet || { echo "fault-injection: reference build failed" >&2; exit 1; }
"$DBGEN" build "$in/small.txt" -o "$in/small.sqlite" --quiet || { echo "fault-injection: reference build failed" >&2; exit 1; }
old_sha=$(sha "$in/old.sqlite") new_sha=$(sha "$in/new.sqlite") small_sha=$(sha "$in/small.sqlite")

# ---------------------------------------------------------------------------------------
echo "== kill -9 during a build ($kills times)"
k=$work/kill
mkdir -p "$k"
cp "$in/old.txt" "$in/new.txt" "$in/big.csv" "$k/"
start=$(date +%s%N)
"$DBGEN" build "$k/new.txt" -o "$k/timing.sqlite" --quiet --force
build_ms=$(( ($(date +%s%N) - start) / 1000000 ))
rm -f "$k/timing.sqlite" "$k"/.timing.sqlite*
echo "   (an uninterrupted build takes ${build_ms} ms; kills land between 0 and $((build_ms * 11 / 10)) ms)"
outcomes_old=0 outcomes_new=0 bad_outcomes=0
for ((i = 1; i <= kills; i++)); do
  cp "$in/old.sqlite" "$k/db.sqlite.tmpcopy" && mv "$k/db.sqlite.tmpcopy" "$k/db.sqlite"
  delay_ms=$(( RANDOM % (build_ms * 11 / 10 + 1) ))
  "$DBGEN" build "$k/new.txt" -o "$k/db.sqlite" --quiet --force &
  pid=$!
  sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  got=$(sha "$k/db.sqlite")
  if [ "$got" = "$old_sha" ]; then
    outcomes_old=$((outcomes_old + 1))
  elif [ "$got" = "$new_sha" ]; then
    outcomes_new=$((outcomes_new + 1))
  else
    bad_outcomes=$((bad_outcomes + 1))
    cp "$k/db.sqlite" "$work/bad-outcome-$i.sqlite" 2>/dev/null
    echo "   kill $i at ${delay_ms} ms left a database that is neither old nor new"
  fi
done
check "kill -9 x$kills: every output is the old or the new database (old $outcomes_old, new $outcomes_new, other $bad_outcomes)" \
  test "$bad_outcomes" -eq 0
"$DBGEN" build "$k/new.txt" -o "$k/db.sqlite" --quiet --force
check "after the kills, a build completes with the new database" test "$(sha "$k/db.sqlite")" = "$new_sha"
check "the next build removed the temporaries of the killed builds" no_temporaries "$k"

# Two builds of the same output at once (two build systems, or make -j): both succeed, the
# output is the complete new database, and neither removes the other's temporary file.
cp "$in/old.sqlite" "$k/db.sqlite"
"$DBGEN" build "$k/new.txt" -o "$k/db.sqlite" --quiet --force & first=$!
"$DBGEN" build "$k/new.txt" -o "$k/db.sqlite" --quiet --force & second=$!
wait "$first"; first_status=$?
wait "$second"; second_status=$?
check "two concurrent builds both succeed (exit $first_status and $second_status)" test "$first_status$second_status" = 00
check "two concurrent builds leave the complete new database" test "$(sha "$k/db.sqlite")" = "$new_sha"
check "two concurrent builds leave no temporary file" no_temporaries "$k"

# Random kills of short runs: the template copy of `dbgen attach` and `versionstamp stamp`.
random_kill() { # random_kill MAX_MS COMMAND...: runs COMMAND, kill -9 after 0..MAX_MS ms
  local max=$1; shift
  local delay=$(( RANDOM % (max + 1) ))
  "$@" >/dev/null 2>&1 &
  local pid=$!
  sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
}
ka=$work/kill-attach
mkdir -p "$ka"
start=$(date +%s%N)
"$DBGEN" attach --bundled "$in/small.sqlite" --user "$ka/timing.sqlite" --template "$in/new.sqlite" "SELECT 1" >/dev/null
attach_ms=$(( ($(date +%s%N) - start) / 1000000 + 5 ))
rm -f "$ka/timing.sqlite"
attach_bad=0 attach_absent=0 attach_whole=0
for ((i = 1; i <= kills / 2; i++)); do
  rm -f "$ka/user.sqlite"
  random_kill "$((attach_ms * 3 / 2))" "$DBGEN" attach --bundled "$in/small.sqlite" --user "$ka/user.sqlite" --template "$in/new.sqlite" "SELECT 1"
  if [ ! -e "$ka/user.sqlite" ]; then attach_absent=$((attach_absent + 1))
  elif [ "$(sha "$ka/user.sqlite")" = "$new_sha" ]; then attach_whole=$((attach_whole + 1))
  else attach_bad=$((attach_bad + 1)); fi
done
check "kill -9 x$((kills / 2)) during the template copy: no user database or the whole template (none $attach_absent, whole $attach_whole, other $attach_bad)" \
  test "$attach_bad" -eq 0
check "the template is untouched by the killed copies" test "$(sha "$in/new.sqlite")" = "$new_sha"

ks=$work/kill-stamp
mkdir -p "$ks"
python3 -c 'import plistlib,sys; plistlib.dump({"CFBundleVersion": "1", "Items": [{"n": i, "s": "item %d" % i} for i in range(4000)]}, open(sys.argv[1], "wb"))' "$ks/original.plist"
cp "$ks/original.plist" "$ks/Info.plist"
VERSIONSTAMP_VERSION=42 "$VERSIONSTAMP" stamp "$ks/Info.plist" >/dev/null
stamped_sha=$(sha "$ks/Info.plist") original_plist_sha=$(sha "$ks/original.plist")
start=$(date +%s%N)
cp "$ks/original.plist" "$ks/Info.plist"
VERSIONSTAMP_VERSION=42 "$VERSIONSTAMP" stamp "$ks/Info.plist" >/dev/null
stamp_ms=$(( ($(date +%s%N) - start) / 1000000 ))
stamp_bad=0 stamp_old=0 stamp_new=0
for ((i = 1; i <= kills / 2; i++)); do
  cp "$ks/original.plist" "$ks/Info.plist"
  random_kill "$((stamp_ms * 13 / 10))" env VERSIONSTAMP_VERSION=42 "$VERSIONSTAMP" stamp "$ks/Info.plist"
  case $(sha "$ks/Info.plist") in
    "$original_plist_sha") stamp_old=$((stamp_old + 1)) ;;
    "$stamped_sha") stamp_new=$((stamp_new + 1)) ;;
    *) stamp_bad=$((stamp_bad + 1)) ;;
  esac
done
check "kill -9 x$((kills / 2)) during a stamp (${stamp_ms} ms): the plist is old or stamped (old $stamp_old, stamped $stamp_new, other $stamp_bad)" \
  test "$stamp_bad" -eq 0

# kill -9 during `dbgen update`: the database in effect is always the previous one or the
# new one (never a mix), and the next install removes what the killed ones left.
ku=$work/kill-update
mkdir -p "$ku"
cp "$in/old.sqlite" "$ku/food.sqlite" && sqlite3 "$ku/food.sqlite" 'PRAGMA user_version = 1;'
cp "$in/new.sqlite" "$ku/v2.sqlite" && sqlite3 "$ku/v2.sqlite" 'PRAGMA user_version = 2;'
cp "$ku/v2.sqlite" "$ku/v3.sqlite" && sqlite3 "$ku/v3.sqlite" "UPDATE big SET d = d || 'u' WHERE pk % 3 = 0; PRAGMA user_version = 3;"
"$DBGEN" diff "$ku/v2.sqlite" "$ku/v3.sqlite" >"$ku/2-3.sql"
v2_sha=$(sha "$ku/v2.sqlite") v3_sha=$(sha "$ku/v3.sqlite")
update_state() { # update_state: the v2 update installed, nothing else in the directory
  rm -rf "$ku/updates"
  "$DBGEN" update --bundled "$ku/food.sqlite" --updates "$ku/updates" --database "$ku/v2.sqlite" >/dev/null
}
update_state
start=$(date +%s%N)
"$DBGEN" update --bundled "$ku/food.sqlite" --updates "$ku/updates" --patch "$ku/2-3.sql" >/dev/null
patch_ms=$(( ($(date +%s%N) - start) / 1000000 ))
patched_sha=$(sha "$ku/updates/food.sqlite")
update_state
start=$(date +%s%N)
"$DBGEN" update --bundled "$ku/food.sqlite" --updates "$ku/updates" --database "$ku/v3.sqlite" >/dev/null
install_ms=$(( ($(date +%s%N) - start) / 1000000 + 5 ))
update_bad=0 update_old=0 update_new=0 leftovers=0
for ((i = 1; i <= kills; i++)); do
  update_state
  if ((i % 2)); then
    random_kill "$((install_ms * 12 / 10))" "$DBGEN" update --bundled "$ku/food.sqlite" --updates "$ku/updates" --database "$ku/v3.sqlite"
    new_update_sha=$v3_sha
  else
    random_kill "$((patch_ms * 12 / 10))" "$DBGEN" update --bundled "$ku/food.sqlite" --updates "$ku/updates" --patch "$ku/2-3.sql"
    new_update_sha=$patched_sha
  fi
  case $(sha "$ku/updates/food.sqlite") in
    "$v2_sha") update_old=$((update_old + 1)) ;;
    "$new_update_sha") update_new=$((update_new + 1)) ;;
    *) update_bad=$((update_bad + 1)) ;;
  esac
  in_effect=$("$DBGEN" attach --bundled "$ku/food.sqlite" --updates "$ku/updates" --user "$ku/user.sqlite" 'PRAGMA bundle.user_version' 2>&1)
  case $in_effect in 2|3) ;; *) update_bad=$((update_bad + 1)); echo "   attach after kill $i: $in_effect" ;; esac
  [ -n "$(find "$ku/updates" -name '.food.sqlite.update-*' -print -quit)" ] && leftovers=$((leftovers + 1))
done
check "kill -9 x$kills during update --database (${install_ms} ms) / --patch (${patch_ms} ms): the previous or the new database is in effect (previous $update_old, new $update_new, other $update_bad)" \
  test "$update_bad" -eq 0
"$DBGEN" update --bundled "$ku/food.sqlite" --updates "$ku/updates" --database "$ku/v3.sqlite" >/dev/null 2>&1
"$DBGEN" update --bundled "$ku/food.sqlite" --updates "$ku/updates" --database "$ku/v2.sqlite" >/dev/null 2>&1 # not newer: refused
check "the next install removed what the $leftovers interrupted ones left (only the installed database and its content record remain)" \
  test "$(LC_ALL=C ls -A "$ku/updates" | tr '\n' ' ')" = ".food.sqlite.content food.sqlite "
check "the bundled database is untouched by the killed updates" test "$(sqlite3 "$ku/food.sqlite" 'PRAGMA user_version')" = 1

# ---------------------------------------------------------------------------------------
echo "== disk full"
fs=$work/full-build
small_filesystem "$fs" 4096
echo "   (method: $full_method)"
cp "$in/small.sqlite" "$fs/db.sqlite"
limited 4096 "$DBGEN" build "$in/new.txt" -o "$fs/db.sqlite" --force >"$work/out" 2>"$work/err"
status=$?
check "build on a full disk exits 1 (got $status)" test "$status" -eq 1
# Under ulimit -f SQLite sees EFBIG, which it reports as "disk I/O error".
check "build on a full disk says why: $(head -c 200 "$work/err" | tr '\n' ' ')" \
  contains "$work/err" "full|space|too large|write$([ "$full_method" = ulimit ] && echo '|I/O error')"
check "build on a full disk leaves the old database as it was" test "$(sha "$fs/db.sqlite")" = "$small_sha"
check "build on a full disk leaves no temporary file" no_temporaries "$fs"

# Template copy: the template is larger than the free space.
tfs=$work/full-template
small_filesystem "$tfs" 4096
template_sha=$(sha "$in/new.sqlite")
limited 4096 "$DBGEN" attach --bundled "$in/small.sqlite" --user "$tfs/user.sqlite" --template "$in/new.sqlite" \
  "SELECT count(*) FROM big" >"$work/out" 2>"$work/err"
status=$?
check "template copy on a full disk exits 1 (got $status)" test "$status" -eq 1
check "template copy on a full disk says why, naming the user database: $(head -c 200 "$work/err" | tr '\n' ' ')" \
  contains "$work/err" 'user\.sqlite: .*(space|too large)'
check "template copy on a full disk creates no user database" test ! -e "$tfs/user.sqlite"
check "template copy on a full disk leaves no temporary file" no_temporaries "$tfs"
check "template copy on a full disk leaves the template as it was" test "$(sha "$in/new.sqlite")" = "$template_sha"

# A write into an existing user database that fills the disk: SQL error, rows kept.
"$DBGEN" attach --bundled "$in/small.sqlite" --user "$tfs/user.sqlite" \
  "CREATE TABLE notes(n TEXT)" "INSERT INTO notes VALUES ('keep me')" >/dev/null 2>&1
limited 4096 "$DBGEN" attach --bundled "$in/small.sqlite" --user "$tfs/user.sqlite" \
  "INSERT INTO notes SELECT hex(randomblob(1000)) FROM generate_series(1, 20000)" >"$work/out" 2>"$work/err"
status=$?
if [ "$status" -ne 0 ] && ! contains "$work/err" 'no such table: generate_series'; then
  check "user-database write on a full disk exits 1 (got $status)" test "$status" -eq 1
  check "user-database write on a full disk says why: $(head -c 200 "$work/err" | tr '\n' ' ')" contains "$work/err" 'full|space|too large|I/O'
else
  # generate_series is not compiled into every sqlite3: use a recursive CTE instead.
  limited 4096 "$DBGEN" attach --bundled "$in/small.sqlite" --user "$tfs/user.sqlite" \
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) INSERT INTO notes SELECT hex(randomblob(1000)) FROM n" \
    >"$work/out" 2>"$work/err"
  status=$?
  check "user-database write on a full disk exits 1 (got $status)" test "$status" -eq 1
  check "user-database write on a full disk says why: $(head -c 200 "$work/err" | tr '\n' ' ')" contains "$work/err" 'full|space|too large|I/O'
fi
check "user-database write on a full disk keeps the old rows and an intact database" \
  test "$(sqlite3 "$tfs/user.sqlite" "PRAGMA integrity_check; SELECT group_concat(n) FROM notes;" 2>&1 | tr '\n' ' ')" = "ok keep me "

# versionstamp on a full disk: fill the filesystem, then stamp.
pfs=$work/full-plist
small_filesystem "$pfs" 256
python3 -c 'import plistlib,sys; plistlib.dump({"CFBundleVersion": "1", "Padding": "p" * 20000}, open(sys.argv[1], "wb"))' "$pfs/Info.plist"
plist_sha=$(sha "$pfs/Info.plist")
if [ "$full_method" = tmpfs ]; then
  dd if=/dev/zero of="$pfs/filler" bs=4k 2>/dev/null
  stamp_limit=256
else
  stamp_limit=8 # smaller than the plist: the rewrite cannot complete
fi
VERSIONSTAMP_VERSION=42 limited "$stamp_limit" "$VERSIONSTAMP" stamp "$pfs/Info.plist" >"$work/out" 2>"$work/err"
status=$?
check "stamp on a full disk exits 1 (got $status)" test "$status" -eq 1
check "stamp on a full disk says why: $(head -c 200 "$work/err" | tr '\n' ' ')" contains "$work/err" 'full|space|too large|write'
check "stamp on a full disk leaves the plist as it was" test "$(sha "$pfs/Info.plist")" = "$plist_sha"
check "stamp on a full disk leaves no temporary file" no_temporaries "$pfs"

# ---------------------------------------------------------------------------------------
echo "== permissions"
if [ -z "$unprivileged_method" ]; then
  skip "read-only directory and unreadable files: running as root with neither setpriv nor capsh to drop CAP_DAC_OVERRIDE"
else
  echo "   (method: $unprivileged_method)"
  ro=$work/read-only
  mkdir -p "$ro/out"
  cp "$in/small.txt" "$ro/"
  cp "$in/small.sqlite" "$ro/out/db.sqlite"
  chmod 555 "$ro/out"
  unprivileged "$DBGEN" build "$ro/small.txt" -o "$ro/out/db.sqlite" --force >"$work/out" 2>"$work/err"
  status=$?
  check "build into a read-only directory exits 1 (got $status)" test "$status" -eq 1
  check "build into a read-only directory says why: $(head -c 200 "$work/err" | tr '\n' ' ')" contains "$work/err" 'permission denied|read-only'
  check "build into a read-only directory leaves the old database" test "$(sha "$ro/out/db.sqlite")" = "$small_sha"
  chmod 755 "$ro/out"

  un=$work/unreadable
  mkdir -p "$un"
  cp "$in/old.txt" "$in/big.csv" "$un/"
  cp "$in/small.sqlite" "$un/db.sqlite"
  chmod 000 "$un/big.csv"
  unprivileged "$DBGEN" build "$un/old.txt" -o "$un/db.sqlite" --force >"$work/out" 2>"$work/err"
  status=$?
  check "build with an unreadable CSV exits 1 (got $status)" test "$status" -eq 1
  check "build with an unreadable CSV names it: $(head -c 200 "$work/err" | tr '\n' ' ')" contains "$work/err" 'big\.csv'
  check "build with an unreadable CSV leaves the old database" test "$(sha "$un/db.sqlite")" = "$small_sha"
  check "build with an unreadable CSV leaves no temporary file" no_temporaries "$un"
  chmod 644 "$un/big.csv"

  chmod 000 "$un/old.txt"
  unprivileged "$DBGEN" build "$un/old.txt" -o "$un/db.sqlite" --force >"$work/out" 2>"$work/err"
  status=$?
  check "build with an unreadable schema exits 1 (got $status)" test "$status" -eq 1
  check "build with an unreadable schema names it: $(head -c 200 "$work/err" | tr '\n' ' ')" contains "$work/err" 'old\.txt'
  check "build with an unreadable schema leaves the old database" test "$(sha "$un/db.sqlite")" = "$small_sha"
  chmod 644 "$un/old.txt"

  pl=$work/plists
  mkdir -p "$pl/ro"
  python3 -c 'import plistlib,sys; plistlib.dump({"CFBundleVersion": "1"}, open(sys.argv[1], "wb"))' "$pl/ro/Info.plist"
  cp "$pl/ro/Info.plist" "$pl/Unreadable.plist"
  plist_sha=$(sha "$pl/ro/Info.plist")
  chmod 555 "$pl/ro"
  VERSIONSTAMP_VERSION=42 unprivileged "$VERSIONSTAMP" stamp "$pl/ro/Info.plist" >"$work/out" 2>"$work/err"
  status=$?
  check "stamp in a read-only directory exits 1 (got $status)" test "$status" -eq 1
  check "stamp in a read-only directory says why: $(head -c 200 "$work/err" | tr '\n' ' ')" contains "$work/err" 'permission denied|read-only'
  check "stamp in a read-only directory leaves the plist" test "$(sha "$pl/ro/Info.plist")" = "$plist_sha"
  chmod 755 "$pl/ro"
  chmod 000 "$pl/Unreadable.plist"
  VERSIONSTAMP_VERSION=42 unprivileged "$VERSIONSTAMP" stamp "$pl/Unreadable.plist" >"$work/out" 2>"$work/err"
  status=$?
  check "stamp of an unreadable plist exits 1 (got $status)" test "$status" -eq 1
  check "stamp of an unreadable plist names it: $(head -c 200 "$work/err" | tr '\n' ' ')" contains "$work/err" 'Unreadable\.plist'
  chmod 644 "$pl/Unreadable.plist"
  check "stamp of an unreadable plist leaves it as it was" test "$(sha "$pl/Unreadable.plist")" = "$plist_sha"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
