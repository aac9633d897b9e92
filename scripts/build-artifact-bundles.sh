#!/usr/bin/env bash
# Builds `dbgen` and `versionstamp` as SwiftPM artifact bundles (SE-0305: info.json schema 1.0,
# one variant per platform, the Swift runtime linked statically) and a plugin package,
# ShipyardPlugins, whose plugins run those binaries instead of compiling the tools from source,
# the way SwiftLint's SwiftLintPlugins package does.
#
#   scripts/build-artifact-bundles.sh [--output DIR] [--release-url URL] [--configuration debug|release]
#
# DIR (default .build-artifacts) receives:
#   dbgen.artifactbundle/, versionstamp.artifactbundle/     the bundles
#   dbgen.artifactbundle.zip, versionstamp.artifactbundle.zip, checksums.txt
#   ShipyardPlugins/   a plugin package: Package.swift, the plugins' sources (copied from
#                      Plugins/), the app-facing libraries as source (app_libraries below and
#                      the targets they depend on, copied from Sources/ with their resources:
#                      LayeredDatabase, SQLiteCore, FileSystemKit, CSHA256, CSQLite), and with no
#                      --release-url the bundles themselves, referenced by `path:` (for trying
#                      it out and for CI); with --release-url URL the manifest references
#                      URL/NAME.artifactbundle.zip by `url:` + `checksum:`, ready to be
#                      published (RELEASING.md says how). An app that depends on it compiles
#                      those libraries and none of the tools (no DBGenKit, VersionStampKit,
#                      CShellExtensions, argument parser).
#
# Variants: on Linux, the host's architecture; the other one (x86_64 <-> aarch64) only when a
# Swift SDK for it is installed (`swift sdk list`), else it says it skipped it. On macOS, one
# universal binary (arm64 + x86_64). The binaries still link the system's C libraries:
# libsqlite3 and zlib (dbgen), libgit2 and libxml2 (versionstamp); the script prints what each
# links (readelf -d / otool -L).
#
# --configuration (default release) is the build configuration. CI passes `debug` to reuse its
# test build: nothing is compiled again, but the binaries then load the Swift runtime of the
# toolchain (Swift 6.3.1 cannot link a debug build with the runtime static: Foundation's ICU
# symbols are left undefined), so such bundles are for CI only; a release uses the default.
# CI builds for the host's architecture only (no Swift SDK for the other one is installed).
set -euo pipefail
cd "$(dirname "$0")/.."

output=.build-artifacts
release_url=
configuration=release
while [ $# -gt 0 ]; do
  case "$1" in
    --output) output=$2; shift 2 ;;
    --release-url) release_url=${2%/}; shift 2 ;;
    --configuration|-c) configuration=$2; shift 2 ;;
    -h|--help) sed -n '2,32p' "$0"; exit 0 ;;
    *) echo "build-artifact-bundles: unknown argument $1" >&2; exit 64 ;;
  esac
done
tools=(dbgen versionstamp)
# The libraries an app links, offered as source by ShipyardPlugins (each a library product;
# the targets they depend on come along, read from Package.swift).
app_libraries=(LayeredDatabase)
version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/ShipyardVersion/ShipyardVersion.swift)
[ -n "$version" ] || { echo "build-artifact-bundles: cannot read ShipyardVersion.current" >&2; exit 1; }
say() { printf 'build-artifact-bundles: %s\n' "$*" >&2; }

rm -rf "$output"
mkdir -p "$output"
output=$(cd "$output" && pwd)
declare -A variants   # tool -> JSON variants, comma-separated

# add_variant TOOL BINARY DIRECTORY TRIPLE...: copies the binary into the bundle.
add_variant() {
  local tool=$1 binary=$2 directory=$3; shift 3
  mkdir -p "$output/$tool.artifactbundle/$directory/bin"
  cp "$binary" "$output/$tool.artifactbundle/$directory/bin/$tool"
  local triples
  triples=$(printf '"%s", ' "$@"); triples=${triples%, }
  variants[$tool]+="${variants[$tool]:+,}
        { \"path\": \"$directory/bin/$tool\", \"supportedTriples\": [$triples] }"
}

case "$(uname -s)" in
  Darwin)
    for tool in "${tools[@]}"; do
      swift build -c "$configuration" --arch arm64 --arch x86_64 --product "$tool" >&2
      binary=$(swift build -c "$configuration" --arch arm64 --arch x86_64 --show-bin-path)/$tool
      add_variant "$tool" "$binary" "$tool-$version-macos" arm64-apple-macosx x86_64-apple-macosx
      say "$tool: macOS universal (arm64, x86_64, $configuration); it links: $(otool -L "$binary" | tail -n +2 | awk '{print $1}' | grep -v '^/usr/lib/swift/' | tr '\n' ' ')"
    done
    ;;
  Linux)
    host=$(uname -m)
    runtime=(--static-swift-stdlib) runtime_note="Swift runtime static"
    if [ "$configuration" != release ]; then runtime=() runtime_note="Swift runtime of the toolchain: for CI only"; fi
    case "$host" in x86_64) other=aarch64 ;; aarch64|arm64) host=aarch64; other=x86_64 ;; *) other= ;; esac
    for tool in "${tools[@]}"; do
      swift build -c "$configuration" "${runtime[@]}" --product "$tool" >&2
      binary=$(swift build -c "$configuration" "${runtime[@]}" --show-bin-path)/$tool
      add_variant "$tool" "$binary" "$tool-$version-linux-$host" "$host-unknown-linux-gnu"
      say "$tool: Linux $host ($configuration), $runtime_note; it links: $(readelf -d "$binary" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')"
    done
    sdk=
    if [ -n "$other" ]; then sdk=$(swift sdk list 2>/dev/null | grep -i "$other" | grep -i linux | head -n 1 || true); fi
    if [ -n "$sdk" ]; then
      for tool in "${tools[@]}"; do
        swift build -c "$configuration" "${runtime[@]}" --swift-sdk "$sdk" --product "$tool" >&2
        add_variant "$tool" "$(swift build -c "$configuration" --swift-sdk "$sdk" --show-bin-path)/$tool" "$tool-$version-linux-$other" "$other-unknown-linux-gnu"
      done
      say "$other: cross-built with the Swift SDK $sdk"
    else
      say "${other:-the other architecture}: skipped: no Swift SDK for $other-unknown-linux-gnu is installed (swift sdk list); build it on a $other machine and merge the variant into info.json"
    fi
    ;;
  *) say "unsupported system $(uname -s)"; exit 1 ;;
esac

for tool in "${tools[@]}"; do
  cp LICENSE "$output/$tool.artifactbundle/"
  cat > "$output/$tool.artifactbundle/info.json" <<JSON
{
  "schemaVersion": "1.0",
  "artifacts": {
    "$tool": {
      "version": "$version",
      "type": "executable",
      "variants": [${variants[$tool]}
      ]
    }
  }
}
JSON
  ( cd "$output" && rm -f "$tool.artifactbundle.zip" && zip -qry "$tool.artifactbundle.zip" "$tool.artifactbundle" )
  printf '%s  %s\n' "$(swift package compute-checksum "$output/$tool.artifactbundle.zip")" "$tool.artifactbundle.zip" >> "$output/checksums.txt"
done

# The plugin package: the same plugins as Package.swift's, depending on the binaries. (From
# source the dbgen plugins run dbgen-plugin-tool, dbgen without the over-the-air commands, so
# that a consumer compiles no swift-crypto; here the whole dbgen is prebuilt, and their
# DBGenTool.swift, finding no dbgen-plugin-tool, runs it.)
plugins="$output/ShipyardPlugins"
mkdir -p "$plugins/Plugins"
for plugin in DBGenBuildToolPlugin VersionConstantsBuildToolPlugin DBGenCommandPlugin DBGenWriteCommandPlugin \
              VersionStampCommandPlugin VersionStampWriteCommandPlugin; do
  cp -RL "Plugins/$plugin" "$plugins/Plugins/$plugin"
done
cp LICENSE "$plugins/"
# The app-facing libraries: their targets and what they depend on, as Package.swift declares
# them, the sources copied (DocC catalogs left out) so that the package stands alone.
swift package dump-package > "$output/Shipyard.package.json"
library_manifest=$(python3 - "$output/Shipyard.package.json" "${app_libraries[@]}" <<'PY'
import json, sys
package = json.load(open(sys.argv[1]))
targets = {t["name"]: t for t in package["targets"]}
wanted, closure = list(sys.argv[2:]), []
while wanted:
    name = wanted.pop(0)
    if name in closure:
        continue
    target = targets[name]
    # The privacy manifest is the one file a target may leave out: Package.swift excludes it on a
    # Linux host and makes it a resource elsewhere (privacyManifest), and so does the copy.
    if target["type"] not in ("regular", "system") or target["settings"] or \
            [e for e in target["exclude"] if e != "PrivacyInfo.xcprivacy"]:
        sys.exit(f"build-artifact-bundles: {name}: only plain targets and system libraries can be copied")
    for dependency in target["dependencies"]:
        kind, value = next(iter(dependency.items()))
        if kind not in ("byName", "target"):
            sys.exit(f"build-artifact-bundles: {name} depends on a product of another package: {dependency}")
        wanted.append(value[0])
    closure.append(name)
def strings(values):
    return ", ".join(f'"{v}"' for v in values)
platforms = {"ios": "iOS", "macos": "macOS", "tvos": "tvOS", "watchos": "watchOS", "visionos": "visionOS"}
lines = ["PLATFORMS    platforms: ["]
for p in package["platforms"]:
    lines.append(f'PLATFORMS        .{platforms[p["platformName"]]}("{p["version"]}"),')
lines.append("PLATFORMS    ],")
for name in sys.argv[2:]:
    lines.append(f'PRODUCTS        .library(name: "{name}", targets: ["{name}"]),')
for name in reversed(closure):
    target = targets[name]
    lines.append(f"SOURCES {name}")
    dependencies = [next(iter(d.values()))[0] for d in target["dependencies"]]
    # A dependency with a platform condition (FileSystemKit's CSHA256, Linux only) keeps it.
    dependency_lines = []
    for dependency in target["dependencies"]:
        value = next(iter(dependency.values()))
        condition = value[1] if len(value) > 1 and value[1] else None
        if condition and condition.get("platformNames"):
            names = ", ".join("." + name for name in condition["platformNames"])
            dependency_lines.append(f'.target(name: "{value[0]}", condition: .when(platforms: [{names}]))')
        else:
            dependency_lines.append(f'"{value[0]}"')
    if target["type"] == "system":
        providers = []
        for provider in target.get("providers") or []:
            kind, value = next(iter(provider.items()))
            providers.append(f".{kind}([{strings(value[0])}])")
        arguments = [f'name: "{name}"']
        if target.get("pkgConfig"):
            arguments.append(f'pkgConfig: "{target["pkgConfig"]}"')
        if providers:
            arguments.append(f"providers: [{', '.join(providers)}]")
        lines.append(f"TARGETS        .systemLibrary({', '.join(arguments)}),")
    else:
        arguments = [f'name: "{name}"']
        if dependencies:
            arguments.append(f"dependencies: [{', '.join(dependency_lines)}]")
        manifest = "PrivacyInfo.xcprivacy"
        resources = [f'.{next(iter(r["rule"]))}("{r["path"]}")' for r in target["resources"]
                     if r["path"].rsplit("/", 1)[-1] != manifest]
        if manifest in target["exclude"] or any(r["path"].endswith("/" + manifest) for r in target["resources"]):
            if resources:
                sys.exit(f"build-artifact-bundles: {name}: resources besides the privacy manifest cannot be copied")
            arguments.append("exclude: privacyManifest.exclude, resources: privacyManifest.resources")
        elif resources:
            arguments.append(f"resources: [{', '.join(resources)}]")
        lines.append(f"TARGETS        .target({', '.join(arguments)}),")
print("\n".join(lines))
PY
)
rm "$output/Shipyard.package.json"
mkdir -p "$plugins/Sources"
for target in $(sed -n 's/^SOURCES //p' <<<"$library_manifest"); do
  cp -RL "Sources/$target" "$plugins/Sources/$target"
  find "$plugins/Sources/$target" -depth -name '*.docc' -exec rm -rf {} +
done
manifest_lines() { sed -n "s/^$1//p" <<<"$library_manifest"; } # KIND: the generated lines of that kind
binary_target() { # TOOL
  if [ -n "$release_url" ]; then
    printf '.binaryTarget(\n            name: "%s",\n            url: "%s/%s.artifactbundle.zip",\n            checksum: "%s"\n        )' \
      "$1" "$release_url" "$1" "$(awk -v f="$1.artifactbundle.zip" '$2 == f {print $1}' "$output/checksums.txt")"
  else
    mkdir -p "$plugins/Binaries"
    cp -R "$output/$1.artifactbundle" "$plugins/Binaries/"
    printf '.binaryTarget(name: "%s", path: "Binaries/%s.artifactbundle")' "$1" "$1"
  fi
}
cat > "$plugins/Package.swift" <<SWIFT
// swift-tools-version:5.9
// Generated by Shipyard's scripts/build-artifact-bundles.sh for Shipyard $version: Shipyard's
// plugins, running prebuilt dbgen and versionstamp binaries (artifact bundles) instead of
// compiling the tools, and the libraries an app links (${app_libraries[*]}), as source with the
// targets they need: an app that uses this package compiles none of the tools.
import PackageDescription

// The libraries' privacy manifests: resources on Apple platforms (Xcode merges them into the app's
// privacy report), left out on a Linux host, as in Shipyard's own Package.swift.
#if os(Linux)
let privacyManifest = (exclude: ["PrivacyInfo.xcprivacy"], resources: [Resource]())
#else
let privacyManifest = (exclude: [String](), resources: [Resource.copy("PrivacyInfo.xcprivacy")])
#endif

let package = Package(
    name: "ShipyardPlugins",
$(manifest_lines PLATFORMS)
    products: [
$(manifest_lines PRODUCTS)
        .plugin(name: "DBGenBuildToolPlugin", targets: ["DBGenBuildToolPlugin"]),
        .plugin(name: "VersionConstantsBuildToolPlugin", targets: ["VersionConstantsBuildToolPlugin"]),
        .plugin(name: "DBGenCommandPlugin", targets: ["DBGenCommandPlugin"]),
        .plugin(name: "DBGenWriteCommandPlugin", targets: ["DBGenWriteCommandPlugin"]),
        .plugin(name: "VersionStampCommandPlugin", targets: ["VersionStampCommandPlugin"]),
        .plugin(name: "VersionStampWriteCommandPlugin", targets: ["VersionStampWriteCommandPlugin"]),
    ],
    targets: [
$(manifest_lines TARGETS)
        .plugin(name: "DBGenBuildToolPlugin", capability: .buildTool(), dependencies: ["dbgen"]),
        .plugin(name: "VersionConstantsBuildToolPlugin", capability: .buildTool(), dependencies: ["versionstamp"]),
        .plugin(
            name: "DBGenCommandPlugin",
            capability: .command(intent: .custom(
                verb: "dbgen",
                description: "Run dbgen (check and diff need no permission; a command that writes into the package needs --allow-writing-to-package-directory, or use dbgen-write)"
            )),
            dependencies: ["dbgen"]
        ),
        .plugin(
            name: "DBGenWriteCommandPlugin",
            capability: .command(
                intent: .custom(verb: "dbgen-write", description: "Run dbgen with permission to write into the package (build, update, attach)"),
                permissions: [.writeToPackageDirectory(reason: "dbgen writes the database it builds or updates into the package")]
            ),
            dependencies: ["dbgen"]
        ),
        .plugin(
            name: "VersionStampCommandPlugin",
            capability: .command(intent: .custom(
                verb: "versionstamp",
                description: "Print the git-derived build version (stamp needs --allow-writing-to-package-directory, or use versionstamp-write)"
            )),
            dependencies: ["versionstamp"]
        ),
        .plugin(
            name: "VersionStampWriteCommandPlugin",
            capability: .command(
                intent: .custom(verb: "versionstamp-write", description: "Run versionstamp with permission to write into the package (stamp plists)"),
                permissions: [.writeToPackageDirectory(reason: "versionstamp stamp writes the build version into the plists you name")]
            ),
            dependencies: ["versionstamp"]
        ),
        $(binary_target dbgen),
        $(binary_target versionstamp),
    ]
)
SWIFT

say "Shipyard $version: bundles, zips and checksums in $output; plugin package in $plugins"
sed 's/^/build-artifact-bundles:   /' "$output/checksums.txt" >&2
