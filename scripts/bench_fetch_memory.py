"""Peak memory of `dbgen fetch` against endless answers (scripts/bench-fetch-memory.sh runs this;
see that script's header).

usage: python3 scripts/bench_fetch_memory.py DBGEN WORKDIR

A small feed (two releases, a patch between them) is served on 127.0.0.1 by this script's own
server, which answers one kind of request with an endless body: `timestamp.json` (the metadata
fetch) or the patch under `targets/` (the download), in three ways: a declared
`Content-Length: 10^12` with the body streamed, no length (the body ends when the connection
closes) and `Transfer-Encoding: chunked`. Each answer streams zeros in 64 KiB pieces until the
client goes away, at most LIMIT bytes and SECONDS seconds. `dbgen fetch` must refuse each (exit 1)
and its peak RSS (`/usr/bin/time -v`, "Maximum resident set size") must stay at or below 64 MiB.
"""
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LIMIT = 8 << 30  # bytes one endless answer sends at most
SECONDS = 60  # and for at most this long
PIECE = bytes(65536)
TARGET_MIB = 64


def run(argv, **options):
    result = subprocess.run(argv, capture_output=True, text=True, **options)
    if result.returncode != 0:
        sys.exit(f"bench-fetch-memory: {' '.join(argv)} failed ({result.returncode}):\n{result.stderr}")
    return result


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, root):
        super().__init__(("127.0.0.1", 0), Handler)
        self.root, self.attack, self.mode, self.sent = root, None, None, 0
        self.lock = threading.Lock()

    def count(self, n):
        with self.lock:
            self.sent += n


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *arguments):
        pass

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        attack = self.server.attack
        if attack and (path == attack or (attack.endswith("/") and path.startswith(attack))):
            return self.endless(self.server.mode)
        file = os.path.realpath(os.path.join(self.server.root, path.lstrip("/")))
        if not file.startswith(os.path.realpath(self.server.root) + os.sep) or not os.path.isfile(file):
            body = b"not found\n"
            self.send_response(404)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)
            return
        data = open(file, "rb").read()
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)

    def endless(self, mode):
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Connection", "close")
        if mode == "huge-length":
            self.send_header("Content-Length", str(10**12))
        elif mode == "chunked":
            self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        sent, start = 0, time.monotonic()
        try:
            while sent < LIMIT and time.monotonic() - start < SECONDS:
                if mode == "chunked":
                    self.wfile.write(b"%x\r\n" % len(PIECE) + PIECE + b"\r\n")
                else:
                    self.wfile.write(PIECE)
                sent += len(PIECE)
                self.server.count(len(PIECE))
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass
        self.close_connection = True


def make_feed(dbgen, work):
    """Keys, releases 1 and 2 of a small database, and a feed with both and the patch 1 -> 2."""
    feed = os.path.join(work, "feed")
    if os.path.exists(os.path.join(feed, "timestamp.json")):
        return feed, os.path.join(work, "r1.sqlite")
    shutil.rmtree(feed, ignore_errors=True)
    key = os.path.join(work, "feed.key")
    if not os.path.exists(key):
        run([dbgen, "keys", "generate", "--out", key])
    for version in (1, 2):
        data = os.path.join(work, f"r{version}")
        os.makedirs(data, exist_ok=True)
        rows = ",".join(f"({i}, 'food {i} v{version if i % 7 == 0 else 1}')" for i in range(1, 2001))
        with open(os.path.join(data, "schema.txt"), "w", encoding="utf-8") as out:
            out.write("CREATE TABLE food (id INTEGER PRIMARY KEY, name TEXT NOT NULL);\n"
                      f"INSERT INTO food VALUES {rows};\nPRAGMA user_version = {version};\n")
        run([dbgen, "schema.txt", "-o", os.path.join(work, f"r{version}.sqlite"), "--quiet", "--force"], cwd=data)
    run([dbgen, "feed", "init", feed, "--key", key])
    for version in (1, 2):
        run([dbgen, "publish", feed, os.path.join(work, f"r{version}.sqlite"), "--key", key, "--patches-from", "1"])
    return feed, os.path.join(work, "r1.sqlite")


def fetch(dbgen, url, feed, bundled, updates):
    """Runs `dbgen fetch` under /usr/bin/time -v: exit status, peak RSS (KiB), seconds, last line."""
    shutil.rmtree(updates, ignore_errors=True)
    argv = ["/usr/bin/time", "-v", dbgen, "fetch", url, "--root", os.path.join(feed, "root.json"),
            "--bundled", bundled, "--updates", updates]
    start = time.monotonic()
    result = subprocess.run(argv, capture_output=True, text=True, timeout=SECONDS * 3)
    seconds = time.monotonic() - start
    rss, status, said = None, None, ""
    for line in result.stderr.splitlines():
        if "Maximum resident set size" in line:
            rss = int(line.rsplit(":", 1)[1])
        elif "Exit status:" in line:
            status = int(line.rsplit(":", 1)[1])
        elif line.strip() and not line.startswith("\t") and not line.startswith("Command"):
            said = line.strip()
    return status, rss, seconds, said if len(said) <= 110 else said[:50] + " ... " + said[-55:]


def main():
    dbgen, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    os.makedirs(work, exist_ok=True)
    os.environ["DBGEN_CACHE_DIR"] = os.path.join(work, "dbgen-cache")
    feed, bundled = make_feed(dbgen, work)
    server = Server(feed)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"

    status, rss, seconds, said = fetch(dbgen, url, feed, bundled, os.path.join(work, "device-ok"))
    print(f"   served as published: exit {status}, peak RSS {rss / 1024:.1f} MiB, {seconds:.1f} s: {said}")
    if status != 0:
        sys.exit("bench-fetch-memory: the feed as published did not install")

    worst, failed = {}, False
    for mode in ("huge-length", "no-length", "chunked"):
        for label, attack in (("timestamp.json", "/timestamp.json"), ("a target", "/targets/")):
            server.attack, server.mode, server.sent = attack, mode, 0
            status, rss, seconds, said = fetch(dbgen, url, feed, bundled, os.path.join(work, "device"))
            server.attack = None
            refused = status == 1
            within = rss is not None and rss <= TARGET_MIB * 1024
            failed |= not (refused and within)
            worst[mode] = max(worst.get(mode, 0), rss or 0)
            print(f"   {mode:12} {label:15} exit {status}, peak RSS {rss / 1024:6.1f} MiB, {seconds:5.1f} s, "
                  f"server sent {server.sent / 1e6:9.1f} MB: {said}")
    server.shutdown()
    print("== peak RSS, the larger of the two answers: " + ", ".join(
        f"{mode} {kib / 1024:.1f} MiB" for mode, kib in worst.items()) + f" (target: <= {TARGET_MIB} MiB)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
