extension SyncValue {
    /// The value's wire encoding alone: its tag byte and payload (docs/Sync.md's value table).
    /// The server keeps keys and cell values in this form; equal values give equal bytes.
    public var wireEncoding: [UInt8] {
        var writer = WireWriter()
        writer.value(self)
        return writer.bytes
    }

    /// The value whose wire encoding is exactly `bytes` (nothing before or after it).
    public init<Bytes: Collection>(wireEncoding bytes: Bytes) throws where Bytes.Element == UInt8 {
        var reader = WireReader(Array(bytes))
        self = try reader.value("value")
        try reader.end("value")
    }
}
