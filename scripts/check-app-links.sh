#!/usr/bin/env bash
# scripts/check-app-links.sh [EXECUTABLE...]
#
# What an app that links only LayeredDatabase compiles: the target closure of the
# LayeredDatabase product (from `swift package describe`) must hold no product of another
# package (swift-crypto's Crypto would compile BoringSSL, about 790 C files, on Linux) and no C
# target besides the system's sqlite3 (CSQLite). Package.swift says why. Each EXECUTABLE given
# (e.g. .build/debug/dbgen, which links LayeredDatabase) is also checked for BoringSSL symbols
# with nm, which must find none.
set -euo pipefail
cd "$(dirname "$0")/.."

description=$(mktemp)
trap 'rm -f "$description"' EXIT
swift package describe --type json >"$description"
python3 - "$description" <<'PY'
import json, sys
targets = {t["name"]: t for t in json.load(open(sys.argv[1]))["targets"]}
closure, pending = set(), ["LayeredDatabase"]
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
        problems.append(f"{name} depends on the product {product} of another package")
    if target.get("type") != "system-target" and target.get("module_type") == "ClangTarget":
        problems.append(f"{name} is a C target an app would compile")
if problems:
    sys.exit("check-app-links: LayeredDatabase links more than an app needs:\n  " + "\n  ".join(problems))
print("check-app-links: LayeredDatabase's closure: " + ", ".join(sorted(closure)) + " (no other package, no C)")
PY
for executable in "$@"; do
    count=$(nm "$executable" | grep -c -i boringssl || true)
    if [ "$count" -ne 0 ]; then
        echo "check-app-links: $executable has $count BoringSSL symbols" >&2
        exit 1
    fi
    echo "check-app-links: $executable: no BoringSSL symbol"
done
