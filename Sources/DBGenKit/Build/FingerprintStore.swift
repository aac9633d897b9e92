import FileSystemKit
import Foundation

/// Where a build keeps its up-to-date record (``BuildFingerprint``): never in the output's
/// directory, which is often a resources folder an app ships (an Xcode folder reference or a
/// SwiftPM `.copy` resource would ship the record too, and `git status` would show it).
///
/// - With a depfile: beside it, as `.DEPFILE-NAME.dbgen-fingerprint` (the depfile already
///   lives with the build's bookkeeping).
/// - Otherwise in ``BuildOptions/cacheDirectory``, one file per output path; with neither,
///   no record is kept and every build runs.
///
/// Losing the record is harmless: the next build simply runs.
enum FingerprintStore {
    /// The record's path for the build of `output` (absolute), or nil when there is nowhere
    /// to keep it.
    static func path(forOutput output: String, depfile: String?, cacheDirectory: String?) -> String? {
        if let depfile {
            let directory = (depfile as NSString).deletingLastPathComponent
            return (directory as NSString).appendingPathComponent(".\((depfile as NSString).lastPathComponent).dbgen-fingerprint")
        }
        guard let cacheDirectory else { return nil }
        let name = (output as NSString).lastPathComponent
        return (cacheDirectory as NSString).appendingPathComponent("\(name)-\(hash(output)).dbgen-fingerprint")
    }

    /// Where dbgen kept the record before: `.NAME.dbgen-fingerprint` beside the output. A
    /// build removes it.
    static func legacyPath(forOutput output: String) -> String {
        let directory = (output as NSString).deletingLastPathComponent
        return (directory as NSString).appendingPathComponent(".\((output as NSString).lastPathComponent).dbgen-fingerprint")
    }

    /// FNV-1a (64 bits) of the path, in hex: a stable file name per output path (the record
    /// itself names the output it describes, so a collision only costs a rebuild).
    static func hash(_ text: String) -> String {
        String(ContentHash.fnv1a(text), radix: 16)
    }
}
