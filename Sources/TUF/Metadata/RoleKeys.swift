/// The keys that may sign a role, and how many of them must: `{"keyids": [...], "threshold": N}`.
public struct RoleKeys: Equatable, Sendable {
    /// Distinct key ids.
    public let keyIDs: [String]
    /// At least 1.
    public let threshold: Int

    /// Keys and threshold.
    public init(keyIDs: [String], threshold: Int) {
        self.keyIDs = keyIDs
        self.threshold = threshold
    }

    init(_ reader: JSONFieldReader) throws {
        keyIDs = try reader.uniqueStrings("keyids")
        threshold = Int(try reader.integer("threshold", in: 1...Int64(Int32.max)))
    }

    var json: JSONObject {
        JSONObject([("keyids", .array(keyIDs.map { .string($0) })), ("threshold", .integer(Int64(threshold)))])
    }
}
