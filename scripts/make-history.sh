#!/usr/bin/env bash
# make-history.sh DIR COMMITS [SEED]
#
# Builds a git repository in DIR (which must not exist) with about COMMITS commits, for the
# versionstamp benchmark: a main line with topic branches merged back (--no-ff merges, some of
# which bring changes under a directory and some of which do not), changes spread over several
# directories (app/, lib/core/, lib/net/, docs/, tools/, tests/), and tags of several families:
# annotated v1.2.3 releases, lightweight release-2.1-rc1 candidates and docs-N markers.
#
# The history is written with git fast-import (seconds for 100k commits), then repacked into
# one pack without a commit-graph, refs packed: what a fresh CI clone holds. Same arguments,
# same history.
set -euo pipefail
[ $# -ge 2 ] && [ $# -le 3 ] || { echo "usage: $0 DIR COMMITS [SEED]" >&2; exit 64; }
DIR=$1 COMMITS=$2 SEED=${3:-1}
[ -e "$DIR" ] && { echo "$0: $DIR already exists" >&2; exit 1; }
git init -q -b main "$DIR"

python3 - "$COMMITS" "$SEED" <<'PY' | git -C "$DIR" fast-import --quiet
import random, sys

total, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
dirs = ["app", "lib/core", "lib/net", "docs", "tools", "tests"]
weights = [30, 25, 15, 12, 8, 10]
out = sys.stdout
mark = 0
time = 1_500_000_000
release = [1, 0, 0]

def blob_line(path, text):
    out.write("M 100644 inline %s\ndata %d\n%s\n" % (path, len(text.encode()), text))

def commit(branch, message, changes, parent=None, merge=None):
    """Writes one commit; changes maps path -> content. Returns its mark."""
    global mark, time
    mark += 1
    time += rng.randint(30, 900)
    out.write("commit refs/heads/%s\nmark :%d\n" % (branch, mark))
    out.write("committer Bench <bench@example.com> %d +0000\n" % time)
    msg = message + "\n"
    out.write("data %d\n%s" % (len(msg.encode()), msg))
    if parent is not None:
        out.write("from :%d\n" % parent)
    if merge is not None:
        out.write("merge :%d\n" % merge)
    for path, text in sorted(changes.items()):
        blob_line(path, text)
    out.write("\n")
    return mark

def change(label):
    d = rng.choices(dirs, weights)[0]
    path = "%s/file%d.txt" % (d, rng.randint(0, 40))
    return d, {path: "%s %d\n" % (label, rng.randint(0, 1 << 30))}

def tag(name, target, annotated):
    global time
    if annotated:
        out.write("tag %s\nfrom :%d\ntagger Bench <bench@example.com> %d +0000\n" % (name, target, time))
        msg = "release %s\n" % name
        out.write("data %d\n%s\n" % (len(msg), msg))
    else:
        out.write("reset refs/tags/%s\nfrom :%d\n\n" % (name, target))

head = commit("main", "root", {"README": "bench history\n"})
count, topic_no = 1, 0
while count < total:
    if rng.random() < 0.06 and total - count > 12:
        # A topic branch: a few commits beside a few on main, merged back with --no-ff.
        topic_no += 1
        base = head
        side = base
        topic_dir = rng.choice(dirs)
        topic_changes = {}
        for i in range(rng.randint(1, 6)):
            _, ch = change("topic%d" % topic_no) if rng.random() < 0.3 else (None, {
                "%s/topic%d.txt" % (topic_dir, topic_no): "topic %d step %d\n" % (topic_no, i)})
            side = commit("topic", "topic %d step %d" % (topic_no, i), ch, parent=side)
            topic_changes.update(ch)
            count += 1
        for i in range(rng.randint(0, 4)):
            d, ch = change("main")
            head = commit("main", "main work %d in %s" % (count, d), ch, parent=head)
            count += 1
        head = commit("main", "Merge topic %d" % topic_no, topic_changes, parent=head, merge=side)
        count += 1
    else:
        d, ch = change("c%d" % count)
        head = commit("main", "work %d in %s" % (count, d), ch, parent=head)
        count += 1
        if d == "docs" and rng.random() < 0.05:
            tag("docs-%d" % count, head, False)
    if rng.random() < 0.004:
        release[2] += 1
        if rng.random() < 0.2:
            release[1] += 1; release[2] = 0
        tag("release-%d.%d-rc%d" % (release[0], release[1], rng.randint(1, 3)), head, False)
        tag("v%d.%d.%d" % tuple(release), head, True)
PY
git -C "$DIR" branch -D topic >/dev/null 2>&1 || true
git -C "$DIR" repack -adq
git -C "$DIR" pack-refs --all   # a clone's refs come packed
rm -f "$DIR/.git/objects/info/commit-graph"
rm -rf "$DIR/.git/objects/info/commit-graphs"
git -C "$DIR" checkout -q -f main
echo "$DIR: $(git -C "$DIR" rev-list --count HEAD) commits, $(git -C "$DIR" tag | wc -l) tags"
