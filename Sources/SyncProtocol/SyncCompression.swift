/// Whether an encoder compresses a message (flag bit 0: the rest is a zlib stream).
public enum SyncCompression: Hashable, Sendable {
    /// Never.
    case never
    /// Only when the compressed message is smaller (the default).
    case whenSmaller
    /// Always (tests, and peers that want to exercise the inflater).
    case always
}
