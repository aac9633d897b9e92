/// The most a decoder accepts: checked before anything is allocated, so a hostile body costs
/// at most its own size. docs/Sync.md's defaults: 8 MiB on the wire, 32 MiB inflated, 5,000
/// rows per batch.
public struct SyncLimits: Hashable, Sendable {
    /// The most bytes of a message as received (compressed or not).
    public var bodyBytes: Int
    /// The most bytes a compressed message may inflate to.
    public var inflatedBytes: Int
    /// The most rows in a request's batch.
    public var batchRows: Int
    /// The most rows in an answer's pull.
    public var pulledRows: Int

    /// Limits of your own; the defaults are docs/Sync.md's.
    public init(
        bodyBytes: Int = 8 << 20, inflatedBytes: Int = 32 << 20, batchRows: Int = 5_000, pulledRows: Int = 1_000_000
    ) {
        self.bodyBytes = bodyBytes
        self.inflatedBytes = inflatedBytes
        self.batchRows = batchRows
        self.pulledRows = pulledRows
    }

    /// docs/Sync.md's defaults.
    public static let standard = SyncLimits()
}

/// Whether an encoder compresses a message (flag bit 0: the rest is a zlib stream).
public enum SyncCompression: Hashable, Sendable {
    /// Never.
    case never
    /// Only when the compressed message is smaller (the default).
    case whenSmaller
    /// Always (tests, and peers that want to exercise the inflater).
    case always
}

/// Why a message could not be decoded: the field that failed and what is wrong with it.
public struct SyncDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Whether the message is malformed or over a limit (a server answers 400 or 413).
    public enum Kind: Hashable, Sendable {
        /// The bytes do not follow the format.
        case malformed
        /// The message is larger than a ``SyncLimits`` allows.
        case overLimit
    }

    /// Malformed or over a limit.
    public var kind: Kind
    /// The field, as a path from the message: `request.batch.rows[3].cells[0].column`.
    public var field: String
    /// What is wrong with it.
    public var problem: String

    /// The failure of `field`.
    public init(_ kind: Kind, field: String, problem: String) {
        self.kind = kind
        self.field = field
        self.problem = problem
    }

    /// `FIELD: PROBLEM`.
    public var description: String { "\(field): \(problem)" }
}
