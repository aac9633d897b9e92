import FileSystemKit
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

/// Where a target's path (a string a key holder signs) is a file: the name it is kept under in a target
/// directory, and the path it is served at. Both are made of FileSystemKit's checked names, so no target
/// path or hash reads or writes a file outside the directory it is joined to; a path that cannot be one
/// is refused naming the document that lists it.
enum TargetLocation {
    /// The file a target is kept in, in `directory`: its path percent-encoded (``Updater/localName(of:)``).
    static func localFile(of target: TargetFile, in directory: URL) throws -> URL {
        do {
            return directory.appendingPathComponent(try PathComponent(Updater.localName(of: target)).name)
        } catch let error as CheckedNameError {
            throw refusal(target, field: "signed.targets", CheckedNameError(target.path, error.reason))
        }
    }

    /// The target's path under the target base URL, its last name prefixed with `hashPrefix`'s digest
    /// (consistent snapshots), every name checked.
    static func served(_ target: TargetFile, hashPrefix: FileHash?) throws -> RelativePath {
        do {
            var names = try RelativePath(target.path).components
            if let hashPrefix {
                guard !hashPrefix.hex.isEmpty, Hex.decode(hashPrefix.hex) != nil else {
                    throw refusal(
                        target, field: "signed.targets[\(target.path.debugDescription)].hashes.\(hashPrefix.algorithm)",
                        CheckedNameError(hashPrefix.hex, "is not hexadecimal"))
                }
                names[names.count - 1] = try PathComponent("\(hashPrefix.hex).\(names[names.count - 1].name)")
            }
            return try RelativePath(names)
        } catch let error as CheckedNameError {
            throw refusal(target, field: "signed.targets", error)
        }
    }

    private static func refusal(_ target: TargetFile, field: String, _ error: CheckedNameError) -> TUFError {
        .malformed(document: target.document, reason: "\(field): \(error)")
    }
}
