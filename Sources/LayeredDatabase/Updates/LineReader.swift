import Foundation

/// Reads a file a line at a time (lines keep their `\n`), in 1 MiB pieces. Each byte is looked
/// at once for the newline, however long the line.
struct LineReader {
    let handle: FileHandle
    private var buffer: [UInt8] = []
    private var position = 0
    /// Where the search for the next newline goes on: the bytes before it have none.
    private var searched = 0
    private var lineNumber = 0
    private var finished = false

    init(handle: FileHandle) { self.handle = handle }

    mutating func next() throws -> (String, Int)? {
        while true {
            if let newline = buffer[max(position, searched)...].firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[position...newline], as: UTF8.self)
                position = newline + 1
                searched = position
                lineNumber += 1
                return (line, lineNumber)
            }
            searched = buffer.count
            if finished {
                guard position < buffer.count else { return nil }
                let line = String(decoding: buffer[position...], as: UTF8.self)
                position = buffer.count
                lineNumber += 1
                return (line, lineNumber)
            }
            buffer.removeFirst(position)
            searched -= position
            position = 0
            let chunk = try handle.readChunk(upToCount: 1 << 20)
            if chunk.isEmpty { finished = true } else { buffer.append(contentsOf: chunk) }
        }
    }
}

extension FileHandle {
    /// Up to `count` bytes from the current position, empty at the end of the file:
    /// `read(upToCount:)` where the system has it (macOS 10.15.4, iOS and tvOS 13.4, watchOS
    /// 6.2, per Apple's documentation), else `readData(ofLength:)` (macOS 10.15.0 to 10.15.3,
    /// iOS 13.0 to 13.3), which reports a read error as an Objective-C exception instead.
    func readChunk(upToCount count: Int) throws -> Data {
        if #available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *) {
            return try read(upToCount: count) ?? Data()
        }
        return readData(ofLength: count)
    }
}
