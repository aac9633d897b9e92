#!/usr/bin/env bash
# scripts/check-app-links.sh [EXECUTABLE...]
#
# What an app that links only LayeredDatabase compiles: the target closure of the
# LayeredDatabase product (from `swift package describe`) must hold no product of another
# package (swift-crypto's Crypto would compile BoringSSL, about 790 C files, on Linux) and no C
# target besides the system's sqlite3 (CSQLite). Package.swift says why.
#
# What the raw HTTP client links (HTTPTransport, below FeedClient, which the user database's sync
# client shares): no product of another package (no Crypto), neither TUF nor FeedClient, and no C
# target but CCurl (curl.h's types and the dlopen of libcurl, on Linux only).
#
# What a consumer that builds the plugins from source compiles: the closure of
# dbgen-plugin-tool (the dbgen the plugins run) must hold no product but swift-argument-parser's
# ArgumentParser (no Crypto), neither TUF nor FeedClient, and no C target but CShellExtensions
# (the 22 files .ci/run-consumer expects), CSHA256 and the system libraries. Each EXECUTABLE given
# (e.g. .build/debug/dbgen-plugin-tool, and what links LayeredDatabase) is also checked for
# BoringSSL symbols with nm, which must find none.
set -euo pipefail
cd "$(dirname "$0")/.."

description=$(mktemp)
trap 'rm -f "$description"' EXIT
swift package describe --type json >"$description"
python3 - "$description" <<'PY'
import json, sys
targets = {t["name"]: t for t in json.load(open(sys.argv[1]))["targets"]}
# root: (what it is for, the products of other packages it may link, the targets it may not
# link, the C targets it may compile)
rules = {
    "LayeredDatabase": ("an app", set(), set(), {"CSHA256"}),
    "dbgen-plugin-tool": ("the plugins built from source", {"ArgumentParser"}, {"TUF", "FeedClient"}, {"CShellExtensions", "CSHA256"}),
    "HTTPTransport": ("the HTTP client", set(), {"TUF", "FeedClient"}, {"CCurl"}),
}
failed = False
for root, (user, products, forbidden, c_targets) in rules.items():
    closure, pending = set(), [root]
    while pending:
        name = pending.pop()
        if name in closure:
            continue
        closure.add(name)
        pending += targets[name].get("target_dependencies", [])
    problems = []
    for name in sorted(closure):
        target = targets[name]
        for product in target.get("product_dependencies", []):
            if product not in products:
                problems.append(f"{name} depends on the product {product} of another package")
        if name in forbidden:
            problems.append(f"it links {name}")
        if target.get("type") != "system-target" and target.get("module_type") == "ClangTarget" and name not in c_targets:
            problems.append(f"{name} is a C target {user} would compile")
    if problems:
        failed = True
        print(f"check-app-links: {root} links more than {user} needs:\n  " + "\n  ".join(problems), file=sys.stderr)
    else:
        allowed = ", ".join(sorted(products | c_targets)) or "nothing else"
        print(f"check-app-links: {root}'s closure: " + ", ".join(sorted(closure)) + f" (of other packages and C: {allowed})")
sys.exit(1 if failed else 0)
PY
for executable in "$@"; do
    count=$(nm "$executable" | grep -c -i boringssl || true)
    if [ "$count" -ne 0 ]; then
        echo "check-app-links: $executable has $count BoringSSL symbols" >&2
        exit 1
    fi
    echo "check-app-links: $executable: no BoringSSL symbol"
done
