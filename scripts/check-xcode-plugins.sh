#!/usr/bin/env bash
# Type-checks every plugin's sources with `canImport(XcodeProjectPlugin)` true, against the
# interface stub in scripts/xcode-plugin-stub (written from Apple's documentation), and the
# toolchain's PackagePlugin module. On Linux the Xcode code paths are otherwise never
# compiled. Run from anywhere; CI runs it. Exit 0 when every plugin type-checks.
set -euo pipefail
cd "$(dirname "$0")/.."

swiftc=$(command -v swiftc)
toolchain=$(dirname "$(dirname "$(readlink -f "$swiftc")")")
plugin_api="$toolchain/lib/swift/pm/PluginAPI"
[ -d "$plugin_api" ] || { echo "check-xcode-plugins: no PackagePlugin module at $plugin_api" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$swiftc" -emit-module -module-name XcodeProjectPlugin -parse-as-library \
  -I "$plugin_api" -o "$work/XcodeProjectPlugin.swiftmodule" scripts/xcode-plugin-stub/XcodeProjectPlugin.swift

status=0
for plugin in Plugins/*/; do
  name=$(basename "$plugin")
  [ "$name" = PluginLogicHarness ] && continue
  grep -lq 'canImport(XcodeProjectPlugin)' "$plugin"*.swift || continue
  if "$swiftc" -typecheck -parse-as-library -I "$plugin_api" -I "$work" "$plugin"*.swift; then
    echo "check-xcode-plugins: $name: ok"
  else
    echo "check-xcode-plugins: $name: FAILED" >&2
    status=1
  fi
done
exit "$status"
