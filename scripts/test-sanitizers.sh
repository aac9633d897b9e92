#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer and UndefinedBehaviorSanitizer.
#
#   scripts/test-sanitizers.sh [address|undefined] [-- SWIFT TEST ARGUMENTS...]
#
# Each sanitizer builds in its own scratch path (.build-asan, .build-ubsan) so the normal
# .build stays as it is. Extra arguments go to `swift test` (e.g. `-- --filter DBGenKitTests`).
# Known leaks in swift-corelibs-foundation are suppressed (Fuzz/lsan-suppressions.txt);
# any other report fails the run (halt_on_error, and UBSan reports are made fatal).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

sanitizers=(address undefined)
case "${1:-}" in
  address|undefined) sanitizers=("$1"); shift ;;
esac
[ "${1:-}" = "--" ] && shift

export LSAN_OPTIONS="suppressions=$root/Fuzz/lsan-suppressions.txt:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export ASAN_OPTIONS="halt_on_error=1:detect_stack_use_after_return=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

for sanitizer in "${sanitizers[@]}"; do
  case $sanitizer in
    address) scratch=.build-asan ;;
    undefined) scratch=.build-ubsan ;;
  esac
  echo "test-sanitizers: swift test --sanitize=$sanitizer --scratch-path $scratch $*" >&2
  swift test --sanitize="$sanitizer" --scratch-path "$scratch" "$@"
done
