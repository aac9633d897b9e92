#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer, UndefinedBehaviorSanitizer and ThreadSanitizer
# (the CSV importer parses on a second thread).
#
#   scripts/test-sanitizers.sh [address|undefined|thread] [-- SWIFT TEST ARGUMENTS...]
#
# Each sanitizer builds in its own scratch path (.build-asan, .build-ubsan, .build-tsan) so the normal
# .build stays as it is. Extra arguments go to `swift test` (e.g. `-- --filter DBGenKitTests`).
# Known leaks outside Shipyard's code are suppressed (Fuzz/lsan-suppressions.txt for
# Foundation, scripts/lsan-xctest-suppressions.txt for the XCTest harness); any other report
# fails the run (ASan halts on the first error; UBSan reports are fatal).
#
# Swift 6.3's swiftc has no -sanitize=undefined ("unsupported option ... for target
# x86_64-unknown-linux-gnu"), and SwiftPM passes the option to every target, so
# `swift test --sanitize=undefined` cannot build (its C target, CShellExtensions, included:
# it is exercised under AddressSanitizer by the `address` pass). Swift code already
# traps on the errors UBSan looks for (overflow, out-of-bounds, bad unwrap) in every build
# mode but -Ounchecked. When the toolchain refuses the option, the `undefined` pass runs the
# suite optimized instead (-c release with -enable-testing and checked exclusivity), where
# such traps and lifetime bugs of unsafe pointers show up that a debug build can hide; it says
# so when it does.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

sanitizers=(address undefined thread)
case "${1:-}" in
  address|undefined|thread) sanitizers=("$1"); shift ;;
esac
[ "${1:-}" = "--" ] && shift

mkdir -p .build-asan
suppressions=$root/.build-asan/lsan-suppressions.txt
cat Fuzz/lsan-suppressions.txt scripts/lsan-xctest-suppressions.txt >"$suppressions"
export LSAN_OPTIONS="suppressions=$suppressions:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export ASAN_OPTIONS="halt_on_error=1:detect_stack_use_after_return=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export TSAN_OPTIONS="halt_on_error=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

swiftc_supports() { # swiftc_supports SANITIZER
  echo 'let x = 1' | swiftc -sanitize="$1" -parse-as-library -typecheck - >/dev/null 2>&1
}

for sanitizer in "${sanitizers[@]}"; do
  case $sanitizer in
    address)
      echo "test-sanitizers: swift test --sanitize=address --scratch-path .build-asan $*" >&2
      swift test --sanitize=address --scratch-path .build-asan "$@"
      ;;
    undefined)
      if swiftc_supports undefined; then
        echo "test-sanitizers: swift test --sanitize=undefined --scratch-path .build-ubsan $*" >&2
        swift test --sanitize=undefined --scratch-path .build-ubsan "$@"
      else
        echo "test-sanitizers: this swiftc has no -sanitize=undefined; running the suite optimized with Swift's own checks instead" >&2
        swift test -c release --scratch-path .build-ubsan \
          -Xswiftc -enable-testing -Xswiftc -enforce-exclusivity=checked "$@"
      fi
      ;;
    thread)
      echo "test-sanitizers: swift test --sanitize=thread --scratch-path .build-tsan $*" >&2
      swift test --sanitize=thread --scratch-path .build-tsan "$@"
      ;;
  esac
done
