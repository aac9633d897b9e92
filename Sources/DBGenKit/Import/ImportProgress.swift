/// How far an `.import` has read its file, reported through ``BuildOptions/progressHandler``.
public struct ImportProgress: Hashable, Sendable {
    /// The file being imported, as shown to the user.
    public var file: String
    /// Bytes read so far.
    public var bytesRead: Int64
    /// The file's size.
    public var totalBytes: Int64

    /// A progress report.
    public init(file: String, bytesRead: Int64, totalBytes: Int64) {
        self.file = file
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
    }
}
