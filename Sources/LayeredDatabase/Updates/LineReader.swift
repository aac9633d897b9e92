import FileSystemKit

/// Reads a file a line at a time (lines keep their `\n`), in 1 MiB pieces. Each byte is looked
/// at once for the newline, however long the line.
struct LineReader {
    let file: ReadableFile
    private var buffer: [UInt8] = []
    private var position = 0
    /// Where the search for the next newline goes on: the bytes before it have none.
    private var searched = 0
    private var lineNumber = 0
    private var finished = false

    init(file: ReadableFile) { self.file = file }

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
            let chunk = try file.read(atMost: 1 << 20)
            if chunk.isEmpty { finished = true } else { buffer.append(contentsOf: chunk) }
        }
    }
}
