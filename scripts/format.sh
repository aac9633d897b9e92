#!/usr/bin/env bash
# Formats Shipyard's Swift code with the toolchain's swift-format and the repository's
# .swift-format (4-space indent, 120 columns; only rules that change layout or spelling,
# never behaviour), or checks that it is formatted.
#
#   scripts/format.sh          formats every file in place
#   scripts/format.sh --lint   changes nothing: prints FILE:LINE:COL: warning: … for each line
#                              formatting would change, and exits 1 when there is any
#
# The files: every Swift file git tracks under Sources, Tests, Plugins, Examples, Fuzz, Server
# and scripts, and the package manifests (so never a .build or a checkout of a dependency).
# `--lint` runs `swift format lint --strict`: without --strict swift-format reports findings
# as warnings and exits 0, which would let CI pass with the tree unformatted.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=format
case "${1:-}" in
  "") ;;
  --lint) mode=lint ;;
  *) echo "usage: scripts/format.sh [--lint]" >&2; exit 64 ;;
esac

mapfile -t files < <(git ls-files --cached --others --exclude-standard -- Package.swift 'Sources/*.swift' 'Tests/*.swift' 'Plugins/*.swift' \
  'Examples/*.swift' 'Fuzz/*.swift' 'Server/*.swift' 'scripts/*.swift')
[ ${#files[@]} -gt 0 ] || { echo "format.sh: no Swift files found (run it in a git clone)" >&2; exit 1; }

if [ "$mode" = lint ]; then
  swift format lint --strict --parallel --configuration .swift-format "${files[@]}"
  echo "format.sh: ${#files[@]} files formatted as .swift-format says" >&2
else
  swift format format --in-place --parallel --configuration .swift-format "${files[@]}"
fi
