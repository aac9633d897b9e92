"""The over-the-air feed's figures (scripts/bench-ota.sh runs this; see that script's header).

usage: python3 scripts/bench_ota.py DBGEN WORKDIR [--quick]

Every figure is measured in this run: bytes on the wire are what nginx's access log says it
sent ($bytes_sent: status line, headers and body of every response, metadata included) while
`dbgen fetch` updated a device, against bsdiff, xdelta3 and zstd's patch of the same two
files; memory is `/usr/bin/time -v`'s maximum resident set size of `dbgen fetch`; times are
min / median / max of alternating runs.
"""
import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

from bench_timing import spread, timed

HERE = os.path.dirname(os.path.abspath(__file__))
LOG_FORMAT = "$status|$bytes_sent|$request_length|$request_uri"


class Nginx:
    """Debian's nginx on a free port of 127.0.0.1, serving ROOT with a generated configuration
    (as Tests/ShipyardTestSupport/NginxServer.swift does): static files, byte ranges, ETags."""

    def __init__(self, root, directory):
        os.makedirs(directory, exist_ok=True)
        self.directory, self.log = directory, os.path.join(directory, "access.log")
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        conf = os.path.join(directory, "nginx.conf")
        with open(conf, "w", encoding="utf-8") as out:
            out.write(f"""daemon off;
master_process off;
worker_processes 1;
pid {directory}/nginx.pid;
error_log {directory}/error.log warn;
events {{ worker_connections 64; }}
http {{
    log_format ota escape=none '{LOG_FORMAT}';
    access_log {self.log} ota;
    client_body_temp_path {directory}/client_body;
    proxy_temp_path {directory}/proxy;
    fastcgi_temp_path {directory}/fastcgi;
    uwsgi_temp_path {directory}/uwsgi;
    scgi_temp_path {directory}/scgi;
    default_type application/octet-stream;
    server {{
        listen 127.0.0.1:{self.port};
        root {root};
    }}
}}
""")
        self.process = subprocess.Popen(
            ["/usr/sbin/nginx", "-p", directory, "-c", conf, "-e", os.path.join(directory, "error.log")])
        for _ in range(500):
            with socket.socket() as client:
                if client.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            if self.process.poll() is not None:
                break
            time.sleep(0.02)
        sys.exit(f"bench-ota: nginx did not start: {open(os.path.join(directory, 'error.log')).read()}")

    def url(self, path):
        return f"http://127.0.0.1:{self.port}/{path}"

    def requests(self):
        if not os.path.exists(self.log):
            return []
        with open(self.log, encoding="utf-8") as handle:
            return [line.split("|", 3) for line in handle.read().splitlines()]

    def stop(self):
        self.process.send_signal(signal.SIGKILL)  # no master process: nothing to shut down cleanly
        self.process.wait()


def run(argv, **options):
    """Runs argv; exits naming it and its stderr if it fails."""
    result = subprocess.run(argv, capture_output=True, text=True, **options)
    if result.returncode != 0:
        sys.exit(f"bench-ota: {' '.join(argv)} failed ({result.returncode}):\n{result.stderr}")
    return result


def size(path):
    return os.path.getsize(path)


def human(count):
    return f"{count:,} B" if count < 10_000 else f"{count / 1000:,.1f} KB" if count < 10_000_000 \
        else f"{count / 1e6:,.1f} MB"


def content(path):
    """What a database holds (the sqlite3 shell's .sha3sum) and its user_version."""
    digest = run(["sqlite3", path, ".sha3sum"]).stdout.strip()
    return digest, run(["sqlite3", path, "PRAGMA user_version"]).stdout.strip()


class Bench:
    def __init__(self, dbgen, work, quick):
        self.dbgen, self.work, self.quick = dbgen, work, quick
        self.outcomes = []
        self.key = os.path.join(work, "feed.key")
        if not os.path.exists(self.key):
            public = run([dbgen, "keys", "generate", "--out", self.key]).stdout.strip()
            print(f"   key: {self.key} (public {public})")
        self.nginx = Nginx(os.path.join(work, "served"), os.path.join(work, "nginx"))

    def check(self, what, ok, detail):
        self.outcomes.append((what, ok))
        print(f"   {'met' if ok else 'MISSED'}: {what}: {detail}")

    # --- releases -------------------------------------------------------------------------
    def releases(self, kind, size_argument, count, name, options=()):
        """Data and database of releases 1...count, each built by dbgen from its own files
        (`options`: gen-release.py's, such as --values)."""
        base = os.path.join(self.work, name)
        generator = "gen-food.py" if kind == "food" else "gen-tpch.py"
        paths = []
        for version in range(1, count + 1):
            data, database = os.path.join(base, f"r{version}"), os.path.join(base, f"r{version}.sqlite")
            paths.append(database)
            if os.path.exists(database):
                continue
            if version == 1:
                raw = os.path.join(base, "raw")
                if not os.path.exists(os.path.join(raw, "schema.txt")):
                    run(["python3", os.path.join(HERE, generator), str(size_argument), raw])
                print("   " + run(["python3", os.path.join(HERE, "gen-release.py"), kind, raw, data, "1",
                                   "--same"]).stdout.strip())
            else:
                print("   " + run(["python3", os.path.join(HERE, "gen-release.py"), kind,
                                   os.path.join(base, f"r{version - 1}"), data, str(version), *options]
                                  ).stdout.strip())
            run([self.dbgen, "schema.txt", "-o", database, "--quiet", "--force"], cwd=data)
        return paths

    def feed(self, name, releases, patches_from, snapshots=()):
        """A feed of `releases`, published in order; a copy of it as it was after each release
        whose index is in `snapshots` is served at served/NAME-rN/."""
        feed = os.path.join(self.work, "feeds", name)
        shutil.rmtree(feed, ignore_errors=True)
        os.makedirs(os.path.dirname(feed), exist_ok=True)
        run([self.dbgen, "feed", "init", feed, "--key", self.key])
        served = {}
        for index, release in enumerate(releases, 1):
            run([self.dbgen, "publish", feed, release, "--key", self.key, "--patches-from", str(patches_from)])
            if index in snapshots:
                copy = os.path.join(self.work, "served", f"{name}-r{index}")
                shutil.rmtree(copy, ignore_errors=True)
                shutil.copytree(feed, copy)
                served[index] = copy
        run([self.dbgen, "feed", "verify", feed, "--root", os.path.join(feed, "root.json")])
        return feed, served

    def whole_target_length(self, feed, release):
        """The length of the feed's whole-database target of `release` (bzip2 by default, or zlib)."""
        digest = hashlib.sha256(open(release, "rb").read()).hexdigest()
        snapshot = json.load(open(os.path.join(feed, "timestamp.json")))["signed"]["meta"]["snapshot.json"]
        snapshot_doc = json.load(open(os.path.join(feed, f"{snapshot['version']}.snapshot.json")))
        targets_version = snapshot_doc["signed"]["meta"]["targets.json"]["version"]
        targets = json.load(open(os.path.join(feed, f"{targets_version}.targets.json")))["signed"]["targets"]
        for extension in ("bz2", "zlib"):
            if f"releases/{digest}.sqlite.{extension}" in targets:
                return targets[f"releases/{digest}.sqlite.{extension}"]["length"]
        sys.exit(f"bench-ota: no whole-database target of {release} in {feed}")

    # --- fetch over nginx -----------------------------------------------------------------
    def fetch(self, served_name, bundled, updates, measure_memory=False):
        """Runs `dbgen fetch` against served/SERVED_NAME/; returns the requests nginx logged
        during it (status, bytes sent, request length, URI), its stderr and its peak RSS (KiB)."""
        before = len(self.nginx.requests())
        argv = [self.dbgen, "fetch", self.nginx.url(served_name + "/"),
                "--root", os.path.join(self.work, "served", served_name, "root.json"),
                "--bundled", bundled, "--updates", updates]
        rss = None
        if measure_memory:
            result = run(["/usr/bin/time", "-v"] + argv)
            for line in result.stderr.splitlines():
                if "Maximum resident set size" in line:
                    rss = int(line.rsplit(":", 1)[1])
        else:
            result = run(argv)
        time.sleep(0.3)  # nginx logs a request once it has finished sending it
        return self.nginx.requests()[before:], result.stderr, rss

    @staticmethod
    def wire(requests):
        sent = sum(int(r[1]) for r in requests)
        metadata = sum(int(r[1]) for r in requests if "/targets/" not in r[3])
        received = sum(int(r[2]) for r in requests)
        return sent, metadata, received

    def installed(self, bundled, updates):
        return os.path.join(updates, os.path.basename(bundled))

    # --- the figures ----------------------------------------------------------------------
    def bytes_on_the_wire(self, label, kind, size_argument, name, options=()):
        print(f"== {label}")
        r1, r2, r3 = self.releases(kind, size_argument, 3, name, options)
        feed, served = self.feed(name, [r1, r2, r3], patches_from=2, snapshots=(2, 3))
        print(f"   releases: {human(size(r1))}, {human(size(r2))}, {human(size(r3))}; feed published with "
              f"--patches-from 2 and verified (dbgen feed verify)")
        for behind, new in ((1, r2), (2, r3)):
            updates = os.path.join(self.work, "devices", f"{name}-{behind}")
            shutil.rmtree(updates, ignore_errors=True)
            requests, _, _ = self.fetch(f"{name}-r{behind + 1}", r1, updates)
            if content(self.installed(r1, updates)) != content(new):
                sys.exit(f"bench-ota: the installed database is not release {behind + 1} ({updates})")
            sent, metadata, received = self.wire(requests)
            tools = self.tools(r1, new, os.path.join(self.work, "patches", f"{name}-1-{behind + 1}"))
            smallest = min(tools, key=tools.get)
            gzip = len(subprocess.run(["gzip", "-9", "-c", new], capture_output=True, check=True).stdout)
            whole = self.whole_target_length(served[behind + 1], new)
            print(f"   release 1 -> {behind + 1} ({'one' if behind == 1 else 'two'} behind): {sent:,} bytes sent in "
                  f"{len(requests)} requests ({metadata:,} of metadata), {received:,} bytes of requests; "
                  f"installed content = release {behind + 1}'s (.sha3sum)")
            print("      " + ", ".join(f"{tool} {value:,}" for tool, value in tools.items()) +
                  f"; whole file {size(new):,}, gzip -9 {gzip:,}, the feed's whole-file target {whole:,}")
            self.check(f"{name}, {behind} behind: wire / smallest of bsdiff, xdelta3, zstd ({smallest}) <= 0.10",
                       sent / tools[smallest] <= 0.10,
                       f"{sent / tools[smallest]:.3f}x; to gzip -9 of the whole file {sent / gzip:.4f}x")
        # Nothing new: the device that is up to date asks again.
        requests, stderr, _ = self.fetch(f"{name}-r3", r1, os.path.join(self.work, "devices", f"{name}-2"))
        sent, _, received = self.wire(requests)
        self.check(f"{name}, nothing new: <= 2 requests and <= 2 KB", len(requests) <= 2 and sent + received <= 2048,
                   f"{len(requests)} requests, {sent:,} bytes sent + {received:,} bytes of requests "
                   f"({', '.join(r[0] + ' ' + r[3] for r in requests)}); stderr: {stderr.strip()}")

    def tools(self, old, new, directory):
        """The size of each tool's patch from OLD to NEW."""
        os.makedirs(directory, exist_ok=True)
        argv = {
            "bsdiff": lambda out: ["bsdiff", old, new, out],
            "xdelta3 -9": lambda out: ["xdelta3", "-9", "-e", "-f", "-s", old, new, out],
            "zstd --patch-from -19": lambda out: ["zstd", "-q", "-f", "--ultra", "-19", f"--patch-from={old}", new,
                                                  "-o", out],
        }
        sizes = {}
        for tool, command in argv.items():
            out = os.path.join(directory, tool.split()[0] + ".patch")
            if not os.path.exists(out):
                run(command(out + ".part"))
                os.replace(out + ".part", out)
            sizes[tool] = size(out)
        return sizes

    def memory(self, rows):
        print(f"== client peak memory, {rows:,}-row food database")
        r1, r2 = self.releases("food", rows, 2, f"food{rows}")
        feed, _ = self.feed(f"food{rows}", [r1, r2], patches_from=1, snapshots=(2,))
        # A device on release 1 gets the patch; one whose bundled data the feed does not know
        # (user_version 0) gets the whole file.
        other = os.path.join(self.work, f"food{rows}", "other.sqlite")
        if not os.path.exists(other):
            run(["sqlite3", other, "CREATE TABLE food (pk INTEGER PRIMARY KEY); PRAGMA user_version = 0"])
        for what, bundled in (("a patch", r1), ("the whole file", other)):
            updates = os.path.join(self.work, "devices", f"memory-{what.split()[-1]}")
            shutil.rmtree(updates, ignore_errors=True)
            requests, _, rss = self.fetch(f"food{rows}-r2", bundled, updates, measure_memory=True)
            if content(self.installed(bundled, updates)) != content(r2):
                sys.exit(f"bench-ota: the installed database is not release 2 ({updates})")
            sent, _, _ = self.wire(requests)
            self.check(f"dbgen fetch installing {what} ({human(sent)} on the wire, a {human(size(r2))} database): "
                       "peak RSS <= 64 MiB", rss <= 64 * 1024, f"{rss / 1024:.1f} MiB")

    def publish_time(self, rows, runs):
        print(f"== publish, {rows:,}-row food database, patches from 5 earlier releases")
        releases = self.releases("food", rows, 6, f"food{rows}")
        before, _ = self.feed(f"publish{rows}", releases[:5], patches_from=5)
        copy = os.path.join(self.work, "feeds", f"publish{rows}-run")
        publish_times, diff_times, rss = [], [], []
        for index in range(runs):
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(before, copy)
            one = timed([self.dbgen, "publish", copy, releases[5], "--key", self.key, "--patches-from", "5"])
            diffs = [timed([self.dbgen, "diff", old, releases[5]]) for old in releases[:5]]
            publish_times.append(one.seconds)
            diff_times.append(sum(d.seconds for d in diffs))
            rss.append(one.rss)
            print(f"   run {index + 1}: publish {one.seconds:.2f} s, 5 x dbgen diff {diff_times[-1]:.2f} s, "
                  f"ratio {one.seconds / diff_times[-1]:.2f}", flush=True)
        targets = len(os.listdir(os.path.join(copy, "targets", "patches")))
        print(f"   publish:        {spread(publish_times, 2)}, peak RSS {max(rss) / 1024:.1f} MiB "
              f"({targets} patches in the feed)")
        print(f"   5 x dbgen diff: {spread(diff_times, 2)}")
        ratios = sorted(p / d for p, d in zip(publish_times, diff_times))
        print(f"   ratio:          {sorted(publish_times)[runs // 2] / sorted(diff_times)[runs // 2]:.2f} "
              f"(median publish / median of the 5 diffs; paired runs {ratios[0]:.2f}-{ratios[-1]:.2f})")


def main():
    dbgen, work = sys.argv[1], sys.argv[2]
    quick = "--quick" in sys.argv[3:]
    food_rows, tpch_scale, big_rows = (30_000, 0.01, 100_000) if quick else (300_000, 0.1, 1_000_000)
    runs = int(os.environ.get("RUNS", "1" if quick else "3"))
    # dbgen's build fingerprints go to the work directory, not the user's cache.
    os.environ["DBGEN_CACHE_DIR"] = os.path.join(os.path.abspath(work), "dbgen-cache")
    parts = os.environ.get("PARTS", "wire,memory,publish").split(",")
    bench = Bench(dbgen, work, quick)
    try:
        if "wire" in parts:
            bench.bytes_on_the_wire(f"food, {food_rows:,} rows (scripts/gen-food.py; each release: 1% of the rows "
                                    "with a value changed, 0.1% of rows deleted, 0.1% inserted)", "food", food_rows, "food")
            bench.bytes_on_the_wire(f"food, {food_rows:,} rows, 1% of all values changed (about 4% of the rows), 0.1% "
                                    "of rows deleted, 0.1% inserted", "food", food_rows, "food-values", ["--values"])
            bench.bytes_on_the_wire(f"TPC-H shape, scale {tpch_scale} (scripts/gen-tpch.py: TPC-H's own dbgen is not "
                                    "on this machine; each release: 1% of lineitem's rows changed)", "tpch", tpch_scale,
                                    "tpch")
        if "memory" in parts:
            bench.memory(big_rows)
        if "publish" in parts:
            bench.publish_time(big_rows, runs)
    finally:
        bench.nginx.stop()
    missed = [what for what, ok in bench.outcomes if not ok]
    print(f"== {len(bench.outcomes) - len(missed)} of {len(bench.outcomes)} targets met"
          + ("" if not missed else "; missed: " + "; ".join(missed)))


if __name__ == "__main__":
    main()
