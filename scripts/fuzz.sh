#!/usr/bin/env bash
# Builds and runs one libFuzzer target against this package's library sources.
#
#   scripts/fuzz.sh TARGET SECONDS          fuzz for SECONDS (wall clock)
#   scripts/fuzz.sh TARGET --runs N         fuzz for N executions
#   scripts/fuzz.sh TARGET --regress        run every checked-in seed and regression input once
#   scripts/fuzz.sh --list                  the targets
#
# TARGET is csv-reader, script-reader or plist-editor. Each is built with
# `swiftc -sanitize=fuzzer,address` into the library's own module (DBGenKit or
# VersionStampKit), so it drives internal entry points (the plist editor, the CSV importer,
# the statement splitter) exactly as the tools do, with no file system in the loop except the
# CSV reader's one scratch file. SHIPYARD_FUZZ_SANITIZER=undefined builds with -sanitize=undefined
# instead of address (fuzzer is always on).
#
# Seeds: Fuzz/Corpus/TARGET (checked in, never written by a run). Inputs libFuzzer finds
# go to .build-fuzz/corpus/TARGET; crashes, hangs (-timeout=10) and leaks go to
# .build-fuzz/artifacts/TARGET/. Copy every failing input to Fuzz/Regressions/TARGET/ and
# fix the bug: `--regress` replays them (CI does).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

targets=(csv-reader script-reader plist-editor)
if [ "${1:-}" = "--list" ]; then printf '%s\n' "${targets[@]}"; exit 0; fi
[ $# -ge 2 ] || { echo "usage: scripts/fuzz.sh TARGET SECONDS|--runs N|--regress" >&2; exit 64; }
target=$1; shift

# Each target: the module its harness is compiled into, the library modules that module
# imports (built first, with the same sanitizers, in dependency order), and the C targets it
# links. FileSystemKit needs no package (its SHA-256 is its own off Apple platforms). Every module is compiled with one -package-name, as SwiftPM does, so `package` API
# (SQLiteCore's tool-only part) is visible across them.
case "$target" in
  csv-reader)    module=DBGenKit; harness=FuzzCSVReader.swift
                 swift_deps=(ShipyardVersion EssentialsSupport FileSystemKit ToolConfiguration SQLiteCore SQLiteSession SyncProtocol LayeredDatabase); c_deps=(CShellExtensions)
                 flags=(-I Sources/CSQLite -I Sources/CZlib); libs=(-lsqlite3 -lz) ;;
  script-reader) module=DBGenKit; harness=FuzzScriptReader.swift
                 swift_deps=(ShipyardVersion EssentialsSupport FileSystemKit ToolConfiguration SQLiteCore SQLiteSession SyncProtocol LayeredDatabase); c_deps=(CShellExtensions)
                 flags=(-I Sources/CSQLite -I Sources/CZlib); libs=(-lsqlite3 -lz) ;;
  plist-editor)  module=VersionStampKit; harness=FuzzPlistEditor.swift
                 swift_deps=(ShipyardVersion EssentialsSupport FileSystemKit ToolConfiguration); c_deps=(CGit2Loader)
                 flags=(-I Sources/CGit2 -I Sources/CLibXML2 $(pkg-config --cflags-only-I libxml-2.0 | sed 's/-I/-Xcc -I/g'))
                 libs=(-lxml2 -ldl) ;;
  *) echo "fuzz.sh: unknown target '$target' (one of: ${targets[*]})" >&2; exit 64 ;;
esac

sanitizer=${SHIPYARD_FUZZ_SANITIZER:-address}
build=$root/.build-fuzz
binary=$build/bin/$target-$sanitizer
mkdir -p "$build/bin" "$build/corpus/$target" "$build/artifacts/$target"

# Rebuild when any source or the harness is newer than the binary.
swift_files() { find "Sources/$1" -name '*.swift' | LC_ALL=C sort; }
mapfile -t sources < <(swift_files "$module"; echo "Fuzz/Targets/$harness")
inputs=("${sources[@]}")
for dep in "${swift_deps[@]}" "${c_deps[@]}"; do
  [ -d "Sources/$dep" ] || continue
  mapfile -t -O "${#inputs[@]}" inputs < <(find "Sources/$dep" -name '*.swift' -o -name '*.c' -o -name '*.h')
done
stale=0
[ -x "$binary" ] || stale=1
for f in "${inputs[@]}"; do [ "$f" -nt "$binary" ] && stale=1; done
if [ $stale = 1 ]; then
  echo "fuzz.sh: building $target ($module + $harness, -sanitize=fuzzer,$sanitizer)" >&2
  work="$build/obj/$target-$sanitizer"
  rm -rf "$work"; mkdir -p "$work"
  objects=()
  for dep in "${c_deps[@]}"; do
    [ -d "Sources/$dep" ] || continue
    # SwiftPM makes a module of a C target's include/ directory; do the same for swiftc.
    mkdir -p "$work/modules/$dep"
    printf 'module %s {\n' "$dep" > "$work/modules/$dep/module.modulemap"
    for h in "$root/Sources/$dep"/include/*.h; do printf '    header "%s"\n' "$h" >> "$work/modules/$dep/module.modulemap"; done
    printf '    export *\n}\n' >> "$work/modules/$dep/module.modulemap"
    flags+=(-I "$work/modules/$dep" -Xcc -I -Xcc "Sources/$dep/include")
    for c in $(find "Sources/$dep" -name '*.c' | LC_ALL=C sort); do
      clang -O1 -g -fsanitize=fuzzer-no-link,"$sanitizer" -I "Sources/$dep/include" -c "$c" \
        -o "$work/$(basename "$c" .c).o"
      objects+=("$work/$(basename "$c" .c).o")
    done
  done
  for dep in "${swift_deps[@]}"; do
    [ -d "Sources/$dep" ] || continue
    mapfile -t dep_sources < <(swift_files "$dep")
    swiftc -O -g -parse-as-library -module-name "$dep" -package-name Shipyard -I "$work" -emit-module -emit-module-path "$work/$dep.swiftmodule" \
      -emit-object -wmo -sanitize=fuzzer,"$sanitizer" -parse-as-library "${flags[@]}" "${dep_sources[@]}" \
      -o "$work/$dep.o"
    objects+=("$work/$dep.o")
  done
  swiftc -O -g -parse-as-library -module-name "$module" -package-name Shipyard \
    -sanitize=fuzzer,"$sanitizer" -I "$work" \
    "${flags[@]}" "${sources[@]}" "${objects[@]}" "${libs[@]}" -o "$binary.tmp"
  mv "$binary.tmp" "$binary"
fi

seeds=$root/Fuzz/Corpus/$target
regressions=$root/Fuzz/Regressions/$target
# Known leaks outside Shipyard's code (see the file); everything else is a finding.
# A smaller quarantine keeps throughput up as the process grows (the CSV target halves its
# speed with ASan's default 256 MB); use-after-free within the last 32 MB is still caught.
export ASAN_OPTIONS="${ASAN_OPTIONS:-quarantine_size_mb=32:malloc_context_size=8}"
export LSAN_OPTIONS="suppressions=$root/Fuzz/lsan-suppressions.txt:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
common=(-timeout=10 -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1
        -artifact_prefix="$build/artifacts/$target/")

case "$1" in
  --regress)
    files=()
    for dir in "$seeds" "$regressions"; do
      [ -d "$dir" ] && while IFS= read -r -d '' f; do files+=("$f"); done < <(find "$dir" -type f -print0)
    done
    echo "fuzz.sh: replaying ${#files[@]} inputs for $target" >&2
    exec "$binary" "${common[@]}" -runs=1 "${files[@]}"
    ;;
  --runs)
    [ $# -ge 2 ] || { echo "usage: scripts/fuzz.sh TARGET --runs N" >&2; exit 64; }
    exec "$binary" "${common[@]}" -runs="$2" "$build/corpus/$target" "$seeds"
    ;;
  *)
    [[ "$1" =~ ^[0-9]+$ ]] || { echo "fuzz.sh: SECONDS must be a number, got '$1'" >&2; exit 64; }
    exec "$binary" "${common[@]}" -max_total_time="$1" "$build/corpus/$target" "$seeds"
    ;;
esac
