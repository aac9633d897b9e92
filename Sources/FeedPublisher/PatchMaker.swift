import DBGenKit
import FeedClient
#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LayeredDatabase
import EssentialsSupport

/// A patch from an earlier release to the new one: `dbgen diff`'s SQL (``DatabaseDiff``, with
/// its ``PatchHeader``), packed and compressed, then proven: the blob is decoded again and
/// installed on a copy of its base by ``UpdateInstaller`` (what the device runs), and the
/// result must hold the release's exact content (the diff engine finds no difference: schema,
/// rows with their types and values, `user_version`).
struct PatchMaker {
    /// The earlier release's database file.
    let basePath: String
    /// The new release's database file.
    let releasePath: String
    /// A directory of its own for the patch's files.
    let work: String
    /// How the patch is packed and compressed.
    let encoding: TargetEncoding

    /// Writes and encodes the patch; returns it encoded.
    func make() throws -> TargetBlob.Encoded {
        let sql = work + "/patch.sql"
        try FeedPublisherError.about(releasePath) {
            let descriptor = open(sql, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else { throw FeedPublisherError(sql, String(cString: strerror(errno))) }
            defer { close(descriptor) }
            try DatabaseDiff(oldPath: basePath, newPath: releasePath).writePatch(
                toFileDescriptor: descriptor, path: sql)
        }
        return try TargetBlob.encode(sql, to: work + "/patch." + encoding.patchExtension, encoding: encoding)
    }

    /// Decodes `patch` and installs it on a copy of the base with ``UpdateInstaller``; throws
    /// unless the result holds the release's exact content.
    ///
    /// - Throws: ``FeedPublisherError`` naming `target` and what differs or failed.
    func prove(_ patch: TargetBlob.Encoded, target: String) throws {
        let decoded = work + "/decoded.sql"
        let updates = work + "/applied"
        try FeedPublisherError.about(target) {
            let (length, sha256) = try patch.encoding.decode(
                fileAt: patch.path, limit: patch.uncompressedLength, into: decoded, mode: 0o644)
            guard length == patch.uncompressedLength, sha256 == patch.uncompressedSHA256 else {
                throw FeedPublisherError(target, "the encoded patch does not decode to the patch")
            }
            try UpdateInstaller(bundledPath: basePath, updatesDirectory: updates).installPatch(at: decoded)
        }
        let result = updates + "/" + PathText.lastComponent(basePath)
        struct Differs: Error {}
        do {
            try DatabaseDiff(oldPath: result, newPath: releasePath).writePatch { _ in throw Differs() }
        } catch is Differs {
            throw FeedPublisherError(
                target, "the patch applied to its base does not give the release's content (refused)")
        } catch {
            throw FeedPublisherError(target, "cannot compare the patched copy with the release: \(error)")
        }
    }
}
