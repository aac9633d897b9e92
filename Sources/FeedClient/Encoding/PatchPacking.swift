/// How a patch's SQL is packed before it is compressed (the `packing` of its ``ReleaseFacts``).
public enum PatchPacking: String, CaseIterable, Sendable {
    /// SQLPack: keys as differences, frequent words as two-byte codes; `.sqlpack` in the path.
    case sqlPack = "sqlpack1"
}
