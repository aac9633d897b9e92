#!/usr/bin/env bash
# Builds the DocC documentation of every library Shipyard ships and fails on any warning.
#
#   scripts/check-docs.sh [TARGET...]
#
# By default: every target of a library product, and every other target that has a catalog
# (SQLiteCore is not a product, but LayeredDatabase re-exports part of it to apps).
#
# Each target is built with swift-docc-plugin (a dependency of the package):
#   swift package generate-documentation --target TARGET --warnings-as-errors
# so a broken symbol link or <doc:> link in a catalog's articles, or in a `///` comment of the
# sources, fails the check; DocC prints the file and line of each. A library product whose
# target has no catalog (Sources/TARGET/TARGET.docc) fails too.
#
# SHIPYARD_DOCS_SCRATCH=DIR builds in DIR (swift package --scratch-path) instead of .build.
# Prints one line per target and ends with `N documented, N failed`; exits 1 when any failed.
set -uo pipefail
cd "$(dirname "$0")/.."

scratch=()
[ -n "${SHIPYARD_DOCS_SCRATCH:-}" ] && scratch=(--scratch-path "$SHIPYARD_DOCS_SCRATCH")

if [ $# -gt 0 ]; then
  targets=("$@")
else
  dump=$(swift package "${scratch[@]}" dump-package) || { echo "check-docs: swift package dump-package failed" >&2; exit 1; }
  mapfile -t targets < <(printf '%s' "$dump" | python3 -c '
import json, os, sys
package = json.load(sys.stdin)
names = []
for product in package["products"]:
    if "library" in product["type"]:
        names += [t for t in product["targets"] if t not in names]
for target in package["targets"]:
    name = target["name"]
    if name not in names and os.path.isdir(f"Sources/{name}/{name}.docc"):
        names.append(name)
print("\n".join(names))')
fi
[ ${#targets[@]} -gt 0 ] || { echo "check-docs: no library targets found" >&2; exit 1; }

log_dir=$(mktemp -d)
trap 'rm -rf "$log_dir"' EXIT
passed=0 failed=0
for target in "${targets[@]}"; do
  if [ ! -d "Sources/$target/$target.docc" ]; then
    echo "check-docs: FAIL $target: no catalog Sources/$target/$target.docc" >&2
    failed=$((failed + 1))
    continue
  fi
  log="$log_dir/$target.log"
  start=$(date +%s)
  if swift package "${scratch[@]}" generate-documentation --target "$target" --warnings-as-errors >"$log" 2>&1 &&
     ! grep -q '^warning: ' "$log"; then
    echo "check-docs: ok   $target ($(( $(date +%s) - start )) s)" >&2
    passed=$((passed + 1))
  else
    echo "check-docs: FAIL $target:" >&2
    # DocC's diagnostics (`error: …` with a `--> FILE:LINE` line and the source around it);
    # the build's progress lines and the plugin's own follow-up errors are left out.
    grep -v -e '^\[[0-9]*/[0-9]*\]' -e "^error: 'docc convert' invocation failed" -e '^error: Error Domain=' "$log" |
      grep -A6 -E '^(warning|error): ' >&2 || cat "$log" >&2
    failed=$((failed + 1))
  fi
done
echo "check-docs: $passed documented, $failed failed" >&2
[ "$failed" -eq 0 ]
