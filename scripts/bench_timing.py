"""How the benchmark scripts (bench-dbgen.sh, bench-tpch.sh, bench-diff.sh) time a command.

They import it from their embedded Python (run with this directory on PYTHONPATH): one run's
wall seconds, peak RSS and CPU seconds, the sqlite3 shell's whole job of rebuilding a
database, and the min / median / max they print.
"""
import collections
import os
import statistics
import subprocess
import sys
import time


Timing = collections.namedtuple("Timing", "seconds rss cpu")
Timing.__doc__ = """One run: wall seconds, peak RSS (KiB), CPU seconds (user + system, all threads)."""


def timed(argv, stdin=None, stdout=subprocess.DEVNULL, stderr=None):
    """The Timing of one run of argv; exits naming the command if it fails."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, stdin=stdin, stdout=stdout, stderr=stderr)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    if status != 0:
        sys.exit(f"benchmark: {' '.join(argv)} failed (status {status})")
    return Timing(seconds, usage.ru_maxrss, usage.ru_utime + usage.ru_stime)


def shell_rebuild(database, schema="schema.txt", stderr=None):
    """Seconds of the sqlite3 shell's whole job, deleting its previous database and then running
    `sqlite3 DATABASE < SCHEMA`, and the Timing of the shell's run alone. dbgen's rename over
    its own previous output frees that file inside the rename, so the deletion belongs to the
    shell's figure; the run alone is what the scripts measured before."""
    start = time.perf_counter()
    if os.path.exists(database):
        os.remove(database)
    deleted = time.perf_counter() - start
    with open(schema, "rb") as script:
        run = timed(["sqlite3", database], stdin=script, stderr=stderr)
    return deleted + run.seconds, run


def spread(values, digits=3):
    """min / median / max of seconds, as the scripts print them."""
    return (f"min {min(values):.{digits}f}  median {statistics.median(values):.{digits}f}"
            f"  max {max(values):.{digits}f} s")
