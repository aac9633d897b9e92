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
import TUF

/// What a feed's target says about the data it carries: the `shipyard` member of the target's
/// TUF `custom` object, written by `dbgen publish` and read by the client before anything is
/// downloaded.
///
/// ```json
/// "custom": {"shipyard": {
///   "kind": "patch", "compression": "bzip2", "packing": "sqlpack1", "uncompressed_length": 41233,
///   "uncompressed_sha256": "…",
///   "base": {"user_version": 7, "sha256": "…"}, "result": {"user_version": 8, "sha256": "…"},
///   "data_format": {"min": 1, "max": 3}, "channel": "beta", "rollout": "0.25", "critical": false,
///   "data_epoch": 1}}
/// ```
///
/// A release is named by the SHA-256 of the database file `dbgen` built (its content hash): a
/// whole-database target carries it as `result`, a patch carries the release it applies to as
/// `base`. `data_format` (optional, `max` optional) is the range of app data formats the
/// release suits; `channel` (optional) limits it to clients that follow that channel; `rollout`
/// (0 < r ≤ 1, default 1) is the fraction of devices offered it, written as a string holding the
/// decimal (TUF's canonical JSON, which signatures are over, has no form for a fraction; an
/// integer or a JSON number is read too); `critical` skips the rollout. `base_only` (optional, a
/// whole database's, `dbgen publish --base-only`) marks a release an app bundles that the feed
/// keeps only so that patches start from it: it is never offered. `packing` (optional, a
/// patch's) names how the SQL was packed before compression (``PatchPacking``); the
/// `uncompressed_` length and SHA-256 are always those of the patch or database as installed.
///
/// `data_epoch` (optional, default 0) is the feed's data epoch the release was published under
/// (``DataEpoch``): a device installs only releases of its trusted root's epoch.
///
/// A client skips a target whose compression or packing it does not know (a feed may carry
/// targets for newer clients beside the ones older clients read); `dbgen feed verify` refuses it.
public struct ReleaseFacts: Equatable, Sendable {
    /// Whether a target is a whole database or a patch.
    public enum Kind: String, Sendable {
        /// A whole database file.
        case database
        /// A `dbgen diff` patch (SQL with its header) from ``ReleaseFacts/base`` to the result.
        case patch
    }

    /// The range of app data formats a release suits (`max` nil: no upper bound); its
    /// description is `publish --data-format`'s `MIN-MAX`, `MIN` when MAX is MIN, and `MIN and later`.
    public struct DataFormatRange: Equatable, Sendable, CustomStringConvertible {
        /// The oldest data format the release suits.
        public var minimum: Int64
        /// The newest, or nil for every newer one.
        public var maximum: Int64?

        /// A range.
        public init(minimum: Int64, maximum: Int64? = nil) {
            self.minimum = minimum
            self.maximum = maximum
        }

        /// Whether an app of this data format can read the release.
        public func contains(_ format: Int64) -> Bool {
            format >= minimum && (maximum.map { format <= $0 } ?? true)
        }

        public var description: String {
            maximum.map { $0 == minimum ? "\(minimum)" : "\(minimum)-\($0)" } ?? "\(minimum) and later"
        }
    }

    /// The custom member's name.
    public static let member = "shipyard"
    public var kind: Kind
    /// How the target's bytes are compressed (`"bzip2"` or `"zlib"`).
    public var compression: TargetCompression
    /// How a patch's SQL is packed before compression (nil: not packed).
    public var packing: PatchPacking?
    /// The length of the data once decoded: decompressed, and unpacked for a packed patch (the
    /// cap the client decodes under; `uncompressed_length` in the JSON).
    public var uncompressedLength: Int64
    /// The SHA-256 (lowercase hex) of the data once decoded.
    public var uncompressedSHA256: String
    /// The release a patch applies to (nil for a whole database).
    public var base: DatabaseVersion?
    /// The release the target produces.
    public var result: DatabaseVersion
    /// The app data formats the release suits (nil: every one).
    public var dataFormat: DataFormatRange?
    /// The channel (nil: every client).
    public var channel: String?
    /// The fraction of devices offered the release, in (0, 1].
    public var rollout: Double
    /// Whether the release skips the rollout.
    public var critical: Bool
    /// Whether the whole database is only a base for patches (a release an app bundles, added
    /// after the fact): never offered, so no device installs it from the feed.
    public var baseOnly: Bool
    /// The feed's data epoch the release was published under (``DataEpoch``).
    public var dataEpoch: Int64

    /// Facts.
    public init(
        kind: Kind, compression: TargetCompression = .zlib, packing: PatchPacking? = nil, uncompressedLength: Int64,
        uncompressedSHA256: String,
        base: DatabaseVersion?, result: DatabaseVersion, dataFormat: DataFormatRange? = nil,
        channel: String? = nil, rollout: Double = 1, critical: Bool = false, baseOnly: Bool = false,
        dataEpoch: Int64 = 0
    ) {
        self.kind = kind
        self.compression = compression
        self.packing = packing
        self.uncompressedLength = uncompressedLength
        self.uncompressedSHA256 = uncompressedSHA256
        self.base = base
        self.result = result
        self.dataFormat = dataFormat
        self.channel = channel
        self.rollout = rollout
        self.critical = critical
        self.baseOnly = baseOnly
        self.dataEpoch = dataEpoch
    }

    /// How the target's bytes decode to the data.
    public var encoding: TargetEncoding { TargetEncoding(compression: compression, packing: packing) }
}

/// A target whose facts could not be read: the target and what is wrong.
public struct ReleaseFactsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The target path.
    public let target: String
    /// What is wrong, naming the member.
    public let reason: String
    /// Whether the facts are well formed but name a compression or packing this version does not
    /// read (a client skips such a target).
    public var isUnknownEncoding = false

    public var description: String { "\(target): custom.shipyard: \(reason)" }
}

extension ReleaseFacts {
    /// The facts of `target`, or nil when its `custom` has no `shipyard` member (not a Shipyard
    /// target: the client ignores it).
    ///
    /// - Throws: ``ReleaseFactsError`` for a member of the wrong type or out of range.
    public init?(of target: TargetFile) throws {
        guard let value = target.custom?.objectValue?[Self.member] else { return nil }
        try self.init(json: value, target: target.path)
    }

    /// Reads facts from the `shipyard` member's value (with TUF's JSON field reader, each
    /// error naming the member).
    public init(json value: JSONValue, target: String) throws {
        guard let object = value.objectValue else {
            throw ReleaseFactsError(target: target, reason: "expected an object, found \(value.typeName)")
        }
        do {
            try self.init(JSONFieldReader(object, document: target, path: ""))
        } catch TUFError.malformed(_, let reason) {
            throw ReleaseFactsError(target: target, reason: reason)
        }
    }

    private init(_ fields: JSONFieldReader) throws {
        guard let kind = Kind(rawValue: try fields.string("kind")) else {
            throw fields.fail("kind", "expected \"database\" or \"patch\"")
        }
        let name = try fields.string("compression")
        guard let compression = TargetCompression(rawValue: name) else {
            let known = TargetCompression.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
            throw fields.unknownEncoding("compression", "\"\(name)\" is not \(known)")
        }
        let packing = try fields.optional("packing").map { _ in
            let name = try fields.string("packing")
            guard let packing = PatchPacking(rawValue: name) else {
                let known = PatchPacking.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
                throw fields.unknownEncoding("packing", "\"\(name)\" is not \(known)")
            }
            return packing
        }
        let base = try fields.optional("base").map { _ in try DatabaseVersion(try fields.object("base")) }
        if (kind == .patch) != (base != nil) {
            throw fields.fail("base", kind == .patch ? "missing for a patch" : "present for a whole database")
        }
        var range: DataFormatRange?
        if fields.optional("data_format") != nil {
            let format = try fields.object("data_format")
            let minimum = try format.count("min")
            let maximum = try format.optional("max").map { _ in try format.count("max") }
            if let maximum, maximum < minimum { throw format.fail("max", "\(maximum) is below min \(minimum)") }
            range = DataFormatRange(minimum: minimum, maximum: maximum)
        }
        if packing != nil, kind != .patch { throw fields.fail("packing", "present for a whole database") }
        let baseOnly = try fields.optional("base_only").map { _ in try fields.bool("base_only") } ?? false
        if baseOnly, kind != .database { throw fields.fail("base_only", "true for a patch") }
        let rollout = try fields.optional("rollout").map { _ in try fields.fraction("rollout") } ?? 1
        self.init(
            kind: kind, compression: compression, packing: packing,
            uncompressedLength: try fields.count("uncompressed_length"),
            uncompressedSHA256: try fields.sha256("uncompressed_sha256"), base: base,
            result: try DatabaseVersion(try fields.object("result")), dataFormat: range,
            channel: try fields.optional("channel").map { _ in try fields.string("channel") }, rollout: rollout,
            critical: try fields.optional("critical").map { _ in try fields.bool("critical") } ?? false,
            baseOnly: baseOnly,
            dataEpoch: try fields.optional("data_epoch").map { _ in try fields.count("data_epoch") } ?? 0)
    }

    /// The `shipyard` member's value, members in a fixed order (what `dbgen publish` writes).
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("kind", .string(kind.rawValue)), ("compression", .string(compression.rawValue)),
        ]
        if let packing { members.append(("packing", .string(packing.rawValue))) }
        members += [
            ("uncompressed_length", .integer(uncompressedLength)),
            ("uncompressed_sha256", .string(uncompressedSHA256)),
        ]
        if let base { members.append(("base", base.json)) }
        members.append(("result", result.json))
        if let dataFormat {
            var range: [(String, JSONValue)] = [("min", .integer(dataFormat.minimum))]
            if let maximum = dataFormat.maximum { range.append(("max", .integer(maximum))) }
            members.append(("data_format", .object(JSONObject(range))))
        }
        if let channel { members.append(("channel", .string(channel))) }
        if rollout != 1 { members.append(("rollout", .string(Self.text(of: rollout)))) }
        if critical { members.append(("critical", .bool(true))) }
        if baseOnly { members.append(("base_only", .bool(true))) }
        if dataEpoch != 0 { members.append(("data_epoch", .integer(dataEpoch))) }
        return .object(JSONObject(members))
    }

    /// The `custom` object of a target carrying these facts.
    public var custom: JSONValue { .object(JSONObject([(Self.member, json)])) }

    /// A fraction as JSON text: the shortest decimal that reads back as the same Double.
    private static func text(of fraction: Double) -> String { "\(fraction)" }
}

extension DatabaseVersion {
    fileprivate init(_ fields: JSONFieldReader) throws {
        self.init(userVersion: try fields.count("user_version"), sha256: try fields.sha256("sha256"))
    }

    fileprivate var json: JSONValue {
        .object(JSONObject([("user_version", .integer(userVersion)), ("sha256", .string(sha256))]))
    }
}

/// What the facts' members hold beyond JSON's own types, read with TUF's field reader.
extension JSONFieldReader {
    /// A non-negative integer that fits in 64 bits.
    fileprivate func count(_ key: String) throws -> Int64 {
        try integer(key, in: 0...Int64.max)
    }

    /// A number in (0, 1]: a string holding a decimal (what canonical JSON can sign), or a number.
    fileprivate func fraction(_ key: String) throws -> Double {
        let number: Double?
        switch try value(key) {
        case .integer(let integer): number = Double(integer)
        case .number(let text), .string(let text): number = Double(text)
        default: number = nil
        }
        guard let number, number > 0, number <= 1 else { throw fail(key, "expected a number above 0, at most 1") }
        return number
    }

    /// 64 lowercase hexadecimal digits.
    fileprivate func sha256(_ key: String) throws -> String {
        let text = try string(key)
        guard text.utf8.count == 64, text.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw fail(key, "expected 64 lowercase hexadecimal digits")
        }
        return text
    }

    /// A known member naming a compression or packing this version does not read (a client
    /// skips the target).
    fileprivate func unknownEncoding(_ key: String, _ reason: String) -> ReleaseFactsError {
        ReleaseFactsError(target: document, reason: "\(member(key)): \(reason)", isUnknownEncoding: true)
    }
}
