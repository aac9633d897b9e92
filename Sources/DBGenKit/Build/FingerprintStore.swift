import Foundation

/// Where a build keeps its up-to-date record (``BuildFingerprint``): never in the output's
/// directory, which is often a resources folder an app ships (an Xcode folder reference or a
/// SwiftPM `.copy` resource would ship the record too, and `git status` would show it).
///
/// - With `--depfile FILE`: beside the depfile, as `.FILE-NAME.dbgen-fingerprint` (the
///   depfile already lives with the build's bookkeeping).
/// - Otherwise in a cache directory: `$DBGEN_CACHE_DIR`, else `$XDG_CACHE_HOME/dbgen`, else
///   `~/Library/Caches/dbgen` (macOS) or `~/.cache/dbgen`, one file per output path.
///
/// Losing the record is harmless: the next build simply runs.
enum FingerprintStore {
    /// The record's path for the build of `output` (absolute), given its depfile (absolute) if any.
    static func path(forOutput output: String, depfile: String?) -> String {
        if let depfile {
            let directory = (depfile as NSString).deletingLastPathComponent
            return (directory as NSString).appendingPathComponent(".\((depfile as NSString).lastPathComponent).dbgen-fingerprint")
        }
        let name = (output as NSString).lastPathComponent
        return (cacheDirectory() as NSString).appendingPathComponent("\(name)-\(hash(output)).dbgen-fingerprint")
    }

    /// Where dbgen kept the record before: `.NAME.dbgen-fingerprint` beside the output. A
    /// build removes it.
    static func legacyPath(forOutput output: String) -> String {
        let directory = (output as NSString).deletingLastPathComponent
        return (directory as NSString).appendingPathComponent(".\((output as NSString).lastPathComponent).dbgen-fingerprint")
    }

    /// The cache directory (not created here).
    static func cacheDirectory() -> String {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["DBGEN_CACHE_DIR"], !explicit.isEmpty { return explicit }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/dbgen" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        #if os(macOS)
        return home + "/Library/Caches/dbgen"
        #else
        return home + "/.cache/dbgen"
        #endif
    }

    /// FNV-1a (64 bits) of the path, in hex: a stable file name per output path (the record
    /// itself names the output it describes, so a collision only costs a rebuild).
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
        return String(value, radix: 16)
    }
}
