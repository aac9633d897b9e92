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
import TUF

/// The words for a device given another feed's root: its documents then carry no signature
/// from a key of the root the device trusts, and the feed's own root of that version names
/// none of that root's keys. Said in words, with each key as `dbgen keys generate` printed
/// it, rather than as a count of signatures alone. The refusal stands either way.
package enum ForeignRoot {
    /// The reason for `error` when the trusted root looks like another feed's (the original
    /// detail kept in parentheses), or nil: `error` must be a signature refusal of a root or
    /// the timestamp with no valid signature, and the feed's root of `trusted`'s version (or,
    /// missing that, its `root.json`) must name none of `trusted`'s keys.
    ///
    /// - Parameters:
    ///   - trusted: The root whose keys found no signature.
    ///   - feedURL: Where the feed's documents are.
    ///   - fetcher: How to fetch the feed's root (at most 512,000 bytes, as the client's cap).
    ///   - rootName: How to name the trusted root to the reader (`App/root.json`, "the bundled
    ///     root.json").
    package static func reason(
        for error: TUFError, trusted: Root, feedURL: URL, fetcher: Fetcher, rootName: String
    ) async -> String? {
        guard case .belowThreshold(let document, let role, 0, _, _) = error,
            role == Root.type || role == Timestamp.type
        else { return nil }
        let detail = error.detail
        let base = feedURL.absoluteString.hasSuffix("/") ? feedURL.absoluteString : feedURL.absoluteString + "/"
        for name in ["\(trusted.header.version).root.json", "root.json"] {
            guard let url = URL(string: base + name), let data = try? await fetcher.fetch(url, maximumLength: 512_000),
                let feedRoot = try? Root(Metadata(data: data, document: name))
            else { continue }
            guard Set(feedRoot.keys.keys).isDisjoint(with: trusted.keys.keys) else { return nil }
            return "\(document) at \(base + document) is not signed by the keys of \(rootName) "
                + "(root version \(trusted.header.version), \(keys(of: role, in: trusted))), and this feed's \(name) "
                + "names \(keys(of: role, in: feedRoot)) instead: is \(rootName) this feed's root? (\(detail))"
        }
        return nil
    }

    /// `key HEX` or `keys HEX, HEX`: the public keys `root` names for `role`.
    private static func keys(of role: String, in root: Root) -> String {
        let values = (root.roles[role]?.keyIDs ?? []).map { root.keys[$0]?.publicValue ?? "id \($0)" }
        return (values.count == 1 ? "key " : "keys ") + values.joined(separator: ", ")
    }
}
