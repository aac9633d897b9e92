import PackagePlugin

/// Which executable the dbgen plugins run (this file is linked into each of their directories).
///
/// From source (this package's Package.swift) they depend on `dbgen-plugin-tool`: `dbgen`
/// without the over-the-air commands, which would link swift-crypto and so compile BoringSSL
/// (about 790 C files) in a consumer's build each time SwiftPM plans it. The prebuilt
/// ShipyardPlugins package (scripts/build-artifact-bundles.sh) ships the whole `dbgen` as a
/// binary, compiled once by the release: there the plugins find `dbgen`.
enum DBGenTool {
    /// The executables a dbgen plugin may depend on, the first found wins.
    static let candidates = ["dbgen-plugin-tool", "dbgen"]

    /// The first of ``candidates`` that `lookup` (a plugin context's `tool(named:)`) finds;
    /// the last one's error when none is found.
    static func locate(_ lookup: (String) throws -> PluginContext.Tool) throws -> PluginContext.Tool {
        for name in candidates.dropLast() {
            if let tool = try? lookup(name) { return tool }
        }
        return try lookup(candidates[candidates.count - 1])
    }
}
