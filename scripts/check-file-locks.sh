#!/usr/bin/env bash
# What Linux can check of dbgen's locking and durability on Apple platforms, from a system-call
# trace (strace) of every dbgen command that opens a SQLite database: `build`, `check`, `diff`
# (a patch, `--summary`, `--changeset`, `--table`), `update`, `attach --updates`, `publish` (with
# patches from earlier releases: restored, diffed, each proven by installing it with the
# updater), `feed verify` and `fetch` (a patch and a whole file, from the feed served over HTTP
# on 127.0.0.1 by nginx):
#
#  1. No file is both flock()ed and fcntl()-locked. On Darwin the two kinds of lock share one
#     list per file (xnu bsd/kern/kern_lockf.c), so a process that flock()s a file SQLite then
#     opens sees SQLite's own F_SETLK fail ("database is locked"). Linux keeps them apart, which
#     is why only a trace shows the mistake here. dbgen's locks are flocks on sidecar files.
#  2. Every file put in place is synced before it is renamed (or linked) there, and its
#     directory is synced after: the output of a build, its depfile and fingerprint, an
#     installed update, a new user database.
#  3. No descriptor of a file SQLite has locked is closed while SQLite holds the lock: closing
#     any descriptor of a file drops every fcntl() lock the process has on it (POSIX), SQLite's
#     included. The temporary a build or an update writes stays open for its writeback until
#     SQLite is done with it; a database read beside SQLite (a diff's header hash, its pages, a
#     publish compressing the release its diffs read, an updater copying the database in
#     effect) is read through SQLite's own VFS (SQLiteCore's DatabaseFileReader), which keeps a
#     descriptor open until the process holds no lock on the file. Where a command must lock a
#     database for the check to mean anything, the trace shows SQLite's locks on it.
#  4. A build whose output grows by megabytes starts the kernel's writeback of the temporary
#     (sync_file_range, Linux only) before the fsync that commits it.
#  5. A build writes its database in gathered runs (CoalescedWriteFile), not a page per call:
#     the writes to the temporary average at least 32 KiB.
#
#   scripts/check-file-locks.sh          (builds the debug dbgen, or uses $DBGEN)
#
# Prints PASS/FAIL lines and ends with `N passed, N failed`; exits 1 when anything failed,
# 2 when strace, sqlite3 or nginx is missing (scripts/setup.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/.."

command -v strace >/dev/null || { echo "check-file-locks: strace is not installed (run scripts/setup.sh)" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "check-file-locks: sqlite3 is not installed (run scripts/setup.sh)" >&2; exit 2; }
[ -x /usr/sbin/nginx ] || { echo "check-file-locks: nginx is not installed (run scripts/setup.sh)" >&2; exit 2; }
if [ -z "${DBGEN:-}" ]; then
  swift build --product dbgen >/dev/null || { echo "check-file-locks: swift build failed" >&2; exit 1; }
  DBGEN=$(swift build --show-bin-path)/dbgen
fi

# strace -y shows a descriptor's path with symbolic links resolved: work in a resolved path.
work=$(cd "$(mktemp -d "${TMPDIR:-/tmp}/shipyard-locks.XXXXXX")" && pwd -P)
trap 'rm -rf "$work"' EXIT
traces=()
traced() { # traced NAME [--commit FILE | --link FILE | --writeback FILE | --gathered FILE | --locked FILE]... -- COMMAND...: COMMAND under strace
  local name=$1; shift
  local expectations=()
  while [ "$1" != "--" ]; do expectations+=("$1"); shift; done
  shift
  strace -f -y -qq -o "$work/$name.trace" \
    -e trace=flock,fcntl,fsync,fdatasync,rename,renameat,renameat2,link,linkat,close,sync_file_range,pwrite64 "$@" >/dev/null
  traces+=("$work/$name.trace" "${expectations[@]}" ";")
}

# A build (with a CSV import), with what a build killed by kill -9 leaves beside the output.
b=$work/build
mkdir -p "$b"
# 300,000 rows: an output of about 8 MiB, enough for the build to start writeback.
python3 -c 'import sys; sys.stdout.writelines(f"{i}|name {i}|{i * 7 % 100}\n" for i in range(300000))' >"$b/food.csv"
cat >"$b/schema.txt" <<'EOF'
CREATE TABLE food (pk INTEGER PRIMARY KEY, name TEXT, kcal INTEGER);
.mode csv
.separator |
.import food.csv food
CREATE INDEX food_kcal ON food (kcal);
PRAGMA user_version = 1;
EOF
printf 'half' >"$b/.food.sqlite.dbgen-Kill9x"
: >"$b/.food.sqlite.dbgen-Kill9x.lock"
traced build --commit "$b/food.sqlite" --writeback "$b/food.sqlite" --gathered "$b/food.sqlite" --commit "$b/food.d" --commit "$b/.food.d.dbgen-fingerprint" -- "$DBGEN" build "$b/schema.txt" -o "$b/food.sqlite" --depfile "$b/food.d" --quiet
traced build-up-to-date -- "$DBGEN" build "$b/schema.txt" -o "$b/food.sqlite" --depfile "$b/food.d" --quiet

# Updates: a whole database, then a patch of it; then a layered open that attaches the update
# and creates the user database from its template.
u=$work/updates
mkdir -p "$u"
cp "$b/food.sqlite" "$u/v2.sqlite" && sqlite3 "$u/v2.sqlite" 'UPDATE food SET kcal = kcal + 1 WHERE pk % 5 = 0; PRAGMA user_version = 2;'
cp "$u/v2.sqlite" "$u/v3.sqlite" && sqlite3 "$u/v3.sqlite" "DELETE FROM food WHERE pk % 7 = 0; PRAGMA user_version = 3;"
"$DBGEN" diff "$u/v2.sqlite" "$u/v3.sqlite" >"$u/2-3.sql"
sqlite3 "$u/template.sqlite" 'CREATE TABLE notes (pk INTEGER PRIMARY KEY, text TEXT);'
traced update-database --commit "$u/installed/food.sqlite" -- \
  "$DBGEN" update --bundled "$b/food.sqlite" --updates "$u/installed" --database "$u/v2.sqlite"
traced update-patch --commit "$u/installed/food.sqlite" -- \
  "$DBGEN" update --bundled "$b/food.sqlite" --updates "$u/installed" --patch "$u/2-3.sql"
traced attach --link "$u/user.sqlite" -- \
  "$DBGEN" attach --bundled "$b/food.sqlite" --updates "$u/installed" --user "$u/user.sqlite" --template "$u/template.sqlite" \
  "INSERT INTO notes (text) VALUES ('x')" "SELECT count(*) FROM bundle.food"

# Diffs: a patch (its header hashes both files on a thread of its own while SQLite reads
# them), the summary, a changeset, one table; both files must be locked by SQLite.
d=$work/diff
mkdir -p "$d"
traced diff --locked "$u/v2.sqlite" -- \
  "$DBGEN" diff "$u/v2.sqlite" "$u/v3.sqlite"
traced diff-summary --locked "$u/v2.sqlite" -- \
  "$DBGEN" diff --summary "$u/v2.sqlite" "$u/v3.sqlite"
traced diff-changeset --locked "$u/v2.sqlite" -- \
  "$DBGEN" diff --changeset "$d/2-3.changeset" "$u/v2.sqlite" "$u/v3.sqlite"
traced diff-table --locked "$u/v2.sqlite" -- \
  "$DBGEN" diff --table food "$u/v2.sqlite" "$u/v3.sqlite"

# dbgen check: builds the script into a scratch file and compares it with the output.
traced check --locked "$b/food.sqlite" -- \
  "$DBGEN" check "$b/schema.txt" -o "$b/food.sqlite" --quiet

# The feed: three releases published with patches from the earlier ones (each restored from
# its whole-database target, diffed, and proven by the updater), then verified.
f=$work/feed
mkdir -p "$f"
"$DBGEN" keys generate --out "$f/feed.key" >/dev/null
"$DBGEN" feed init "$f/feed" --key "$f/feed.key" >/dev/null
cp "$b/food.sqlite" "$f/v1.sqlite"
traced publish-first -- "$DBGEN" publish "$f/feed" "$f/v1.sqlite" --key "$f/feed.key"
traced publish --locked "$u/v2.sqlite" -- \
  "$DBGEN" publish "$f/feed" "$u/v2.sqlite" --key "$f/feed.key" --patches-from 2
traced publish-patches --locked "$u/v3.sqlite" -- \
  "$DBGEN" publish "$f/feed" "$u/v3.sqlite" --key "$f/feed.key" --patches-from 2
# A base an app shipped before the feed began: copied, then diffed to the newest releases.
cp "$b/food.sqlite" "$f/shipped.sqlite" && sqlite3 "$f/shipped.sqlite" "UPDATE food SET name = 'shipped' WHERE pk = 1;"
traced publish-base --locked "*/base.sqlite" -- \
  "$DBGEN" publish "$f/feed" "$f/shipped.sqlite" --key "$f/feed.key" --base-only --patches-from 2
traced feed-verify -- "$DBGEN" feed verify "$f/feed" --root "$f/feed/root.json"
traced feed-verify-bundled -- \
  "$DBGEN" feed verify "$f/feed" --root "$f/feed/root.json" --bundled "$f/v1.sqlite"

# dbgen fetch from the feed served over HTTP on 127.0.0.1 by Debian's nginx (a generated
# configuration, in the foreground of a background job, stopped by its pid): a device bundling
# v2 installs the patch to v3; one bundling an unrelated database installs the whole file.
n=$work/nginx
mkdir -p "$n"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$n/nginx.conf" <<CONF
daemon off;
master_process off;
worker_processes 1;
pid $n/nginx.run.pid;
error_log $n/error.log warn;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path $n/client_body;
    proxy_temp_path $n/proxy;
    fastcgi_temp_path $n/fastcgi;
    uwsgi_temp_path $n/uwsgi;
    scgi_temp_path $n/scgi;
    default_type application/octet-stream;
    server {
        listen 127.0.0.1:$port;
        root $f/feed;
    }
}
CONF
/usr/sbin/nginx -p "$n" -c "$n/nginx.conf" -e "$n/error.log" </dev/null >/dev/null 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 250); do
  python3 -c "import socket, sys; sys.exit(socket.socket().connect_ex(('127.0.0.1', $port)))" && break
  kill -0 "$server" 2>/dev/null || { echo "check-file-locks: nginx did not start: $(cat "$n/error.log")" >&2; exit 1; }
  sleep 0.04
done
url="http://127.0.0.1:$port/"
traced fetch-patch --locked "$f/patch-device/.v2.sqlite.update-*" --commit "$f/patch-device/v2.sqlite" -- \
  "$DBGEN" fetch "$url" --root "$f/feed/root.json" --bundled "$u/v2.sqlite" --updates "$f/patch-device"
sqlite3 "$f/other.sqlite" 'CREATE TABLE food (pk INTEGER PRIMARY KEY, name TEXT, kcal INTEGER); PRAGMA user_version = 1;'
traced fetch-whole --locked "$f/whole-device/.other.sqlite.update-*" --commit "$f/whole-device/other.sqlite" -- \
  "$DBGEN" fetch "$url" --root "$f/feed/root.json" --bundled "$f/other.sqlite" --updates "$f/whole-device"
kill "$server" 2>/dev/null

python3 - "${traces[@]}" <<'PY'
import fnmatch, os, re, sys

LOCK_COMMANDS = {"F_SETLK", "F_SETLKW", "F_SETLK64", "F_SETLKW64", "F_OFD_SETLK", "F_OFD_SETLKW"}
CALL = re.compile(r"^(\d+)\s+(?:<\.\.\. )?(\w+)(?: resumed>|\()(.*)$")
DESCRIPTOR = re.compile(r"^-?\d+<([^>]*)>")
QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')
RANGE = re.compile(r"l_type=(F_\w+), l_whence=SEEK_SET, l_start=(\d+), l_len=(\d+)")
passed = failed = 0

def check(ok, what):
    global passed, failed
    print(("PASS: " if ok else "FAIL: ") + what)
    if ok:
        passed += 1
    else:
        failed += 1

def events(path):
    """(syscall, first-argument path or None, quoted strings, result) in trace order."""
    pending = {}
    result = []
    for line in open(path, encoding="utf-8", errors="replace"):
        match = CALL.match(line.rstrip("\n"))
        if not match:
            continue
        pid, name, rest = match.groups()
        if "<unfinished ...>" in rest:
            pending[pid] = len(result)
            result.append([name, rest, None])
            continue
        if line.split(maxsplit=1)[1].startswith("<..."):
            if pid in pending:
                index = pending.pop(pid)
                result[index][1] += rest
                result[index][2] = rest.rsplit("= ", 1)[-1].split()[0] if "= " in rest else None
            continue
        result.append([name, rest, rest.rsplit("= ", 1)[-1].split()[0] if "= " in rest else None])
    out = []
    for name, args, returned in result:
        descriptor = DESCRIPTOR.match(args)
        out.append((name, descriptor.group(1) if descriptor else None, QUOTED.findall(args), args, returned))
    return out

arguments = sys.argv[1:]
while arguments:
    trace = arguments.pop(0)
    expectations = []
    while arguments[0] != ";":
        expectations.append((arguments.pop(0), arguments.pop(0)))
    arguments.pop(0)
    label = os.path.basename(trace)[: -len(".trace")]
    calls = events(trace)
    flocked = {path for name, path, _, args, _ in calls
               if name == "flock" and path and ("LOCK_EX" in args or "LOCK_SH" in args)}
    fcntl_locked = {path for name, path, _, args, _ in calls
                    if name == "fcntl" and path and args.split(",")[1].strip() in LOCK_COMMANDS}
    both = sorted(flocked & fcntl_locked)
    check(not both, f"{label}: no file is both flock()ed and fcntl()-locked"
          + (f" (both: {', '.join(both)})" if both else
             f" ({len(flocked)} flock()ed: {', '.join(sorted(os.path.basename(p) for p in flocked)) or 'none'};"
             f" {len(fcntl_locked)} locked by SQLite: {', '.join(sorted(os.path.basename(p) for p in fcntl_locked)) or 'none'})"))
    if expectations:
        check(bool(fcntl_locked), f"{label}: SQLite's locks are in the trace (it is not empty)")
    early = []
    held = {}  # path -> the bytes SQLite holds locked there
    for name, path, _, args, returned in calls:
        if name == "fcntl" and path in fcntl_locked and returned == "0" and args.split(",")[1].strip() in LOCK_COMMANDS:
            lock = RANGE.search(args)
            start, length = int(lock.group(2)), int(lock.group(3))
            if lock.group(1) == "F_UNLCK":
                held[path] = set() if length == 0 else held.get(path, set()) - set(range(start, start + length))
            else:
                held.setdefault(path, set()).update(range(start, start + max(length, 1)))
        elif name == "close" and held.get(path):
            early.append(os.path.basename(path))
    check(not early, f"{label}: no descriptor of a file SQLite has locked is closed while it holds the lock"
          + (f" (closed: {', '.join(sorted(set(early)))})" if early else ""))

    def put_in_place(names, destination):
        """(index, source) of each successful call among names that put a file at destination."""
        return [(index, strings[0]) for index, (name, _, strings, _, returned) in enumerate(calls)
                if name in names and returned == "0" and len(strings) >= 2 and strings[1] == destination]

    renames = ("rename", "renameat", "renameat2")

    def temporary_of(destination):
        """The file last renamed to destination (its temporary), or None."""
        committed = put_in_place(renames, destination)
        return committed[-1][1] if committed else None

    for kind, destination in expectations:
        if kind == "--locked":
            check(any(fnmatch.fnmatchcase(path, destination) for path in fcntl_locked),
                  f"{label}: SQLite locks {os.path.basename(destination)} during the command")
            continue
        if kind == "--gathered":
            temporary = temporary_of(destination)
            sizes = [int(returned) for name, path, _, _, returned in calls
                     if name == "pwrite64" and path == temporary and returned and returned.isdigit()]
            average = sum(sizes) / len(sizes) if sizes else 0
            check(len(sizes) > 0 and average >= 32768,
                  f"{label}: the temporary of {os.path.basename(destination)} is written in gathered runs"
                  + f" ({len(sizes)} pwrite calls, {average / 1024:.1f} KiB on average)")
            continue
        if kind == "--writeback":
            temporary = temporary_of(destination)
            fsyncs = [index for index, (name, path, _, _, _) in enumerate(calls)
                      if name in ("fsync", "fdatasync") and path == temporary]
            started = [index for index, (name, path, _, args, returned) in enumerate(calls)
                       if name == "sync_file_range" and path == temporary and "SYNC_FILE_RANGE_WRITE" in args
                       and returned == "0"]
            check(bool(started) and bool(fsyncs) and started[0] < fsyncs[-1],
                  f"{label}: writeback of the temporary of {os.path.basename(destination)} starts before its fsync"
                  + f" ({len(started)} sync_file_range call(s))")
            continue
        names = renames if kind == "--commit" else ("link", "linkat")
        placed = put_in_place(names, destination)
        check(bool(placed), f"{label}: {os.path.basename(destination)} is put in place by {names[0]}()")
        if not placed:
            continue
        index, source = placed[-1]
        synced = any(name in ("fsync", "fdatasync") and path == source and returned == "0"
                     for name, path, _, _, returned in calls[:index])
        check(synced, f"{label}: the temporary {os.path.basename(source)} is synced before the {names[0]}")
        directory = os.path.dirname(destination)
        directory_synced = any(name in ("fsync", "fdatasync") and path == directory and returned == "0"
                               for name, path, _, _, returned in calls[index + 1:])
        check(directory_synced, f"{label}: the directory {directory} is synced after the {names[0]}")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
