#!/usr/bin/env bash
# scripts/check-no-home-writes.sh COMMAND [ARGUMENT...]
#
# Runs COMMAND and fails when it left a new file in the user's home directory: in dbgen's cache
# directory (~/.cache/dbgen, or $XDG_CACHE_HOME/dbgen, or ~/Library/Caches/dbgen on a Mac) or
# anywhere else under $HOME. A test suite writes only into its temporary directories; this is
# how .ci/run holds `swift test` to it:
#
#     scripts/check-no-home-writes.sh swift test
#
# The new files are listed (at most 50). Files that existed before and were changed are not
# counted, and neither are the caches of the toolchain that builds and runs the tests (SwiftPM's
# ~/.swiftpm, its org.swift.swiftpm caches, ~/.local/share/bin and the URLCache its downloads
# leave, clang's module cache, Xcode's DerivedData) or the directories holding them; add more with SHIPYARD_HOME_WRITES_ALLOWED="relative/path
# another/path" (paths relative to $HOME).
# The exit status is COMMAND's when it fails, else 1 when the home gained a file, else 0.
set -uo pipefail

[ $# -ge 1 ] || { echo "usage: scripts/check-no-home-writes.sh COMMAND [ARGUMENT...]" >&2; exit 64; }
home=${HOME:?HOME is not set}
allowed=(.swiftpm .cache/org.swift.swiftpm .cache/clang .cache/org.swift.foundation.URLCache .local/share/bin
         Library/Caches/org.swift.swiftpm Library/org.swift.swiftpm Library/Developer
         Library/Caches/com.apple.dt.xcodebuild)
# shellcheck disable=SC2206 # a space-separated list, split on purpose
allowed+=(${SHIPYARD_HOME_WRITES_ALLOWED:-})

# Every path under $HOME (not crossing into other file systems), sorted: the allowed caches
# and the directories above them (~/.cache, ~/Library) left out.
snapshot() {
    local prune=() holders=() path
    for path in "${allowed[@]}"; do
        prune+=(-path "$home/$path" -prune -o)
        while [ "${path%/*}" != "$path" ]; do path=${path%/*}; holders+=(! -path "$home/$path"); done
    done
    find "$home" -xdev "${prune[@]}" "${holders[@]}" -print 2>/dev/null | LC_ALL=C sort
}

before=$(mktemp) after=$(mktemp)
trap 'rm -f "$before" "$after"' EXIT
snapshot >"$before"
"$@"
status=$?
snapshot >"$after"

gained=$(LC_ALL=C comm -13 "$before" "$after")
dbgen_caches=("$home/.cache/dbgen" "${XDG_CACHE_HOME:-$home/.cache}/dbgen" "$home/Library/Caches/dbgen")
if [ -n "$gained" ]; then
    count=$(printf '%s\n' "$gained" | wc -l | tr -d ' ')
    patterns=$(printf '%s/\n' "${dbgen_caches[@]}" | sort -u)
    in_cache=$(printf '%s\n' "$gained" | grep -c -F "$patterns" || true)
    echo "check-no-home-writes: '$*' left $count new path(s) under $home ($in_cache in dbgen's cache directory):" >&2
    printf '%s\n' "$gained" | head -50 | sed 's/^/  /' >&2
    [ "$count" -gt 50 ] && echo "  … and $((count - 50)) more" >&2
fi
[ "$status" -ne 0 ] && exit "$status"
[ -n "$gained" ] && exit 1
exit 0
