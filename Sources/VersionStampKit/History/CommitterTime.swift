/// A commit's committer time as `git log --format=%ct` prints it (git 2.39's
/// `parse_commit_header` and `split_ident_line`): on the header's last `committer` line, which
/// must hold `<` and then `>`, the decimal digits after the line's last `>` and the white space
/// after it. git prints nothing for `%ct` and `%cd` where no digit follows: a date before 1970
/// stored with a sign (`-315619200`, as other tools write it), or no committer at all; the
/// walk's date (`CommitHeader`, git's `parse_commit_date`) is another reading, for ordering only.
enum CommitterTime {
    /// The printed time of the commit whose raw bytes are `bytes`; nil where git prints
    /// nothing, and for more digits than `UInt64` holds (git prints them as they are).
    static func printed(inCommit bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        let newline = UInt8(ascii: "\n")
        let prefix = Array("committer ".utf8)
        var line: Range<Int>?
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: newline) ?? bytes.count
            if end == start { break } // the blank line that ends the header
            if bytes[start..<end].starts(with: prefix) { line = start + prefix.count..<end }
            start = end + 1
        }
        guard let line, let open = bytes[line].firstIndex(of: UInt8(ascii: "<")),
            bytes[open..<line.upperBound].contains(UInt8(ascii: ">")),
            let close = bytes[line].lastIndex(of: UInt8(ascii: ">"))
        else { return nil }
        var p = close + 1
        while p < line.upperBound, [9, 10, 13, 32].contains(bytes[p]) { p += 1 } // git's isspace
        var value: UInt64 = 0
        let first = p
        while p < line.upperBound, bytes[p] >= 48, bytes[p] <= 57 {
            let (times10, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, carried) = times10.addingReportingOverflow(UInt64(bytes[p] - 48))
            if overflowed || carried { return nil }
            value = sum
            p += 1
        }
        return p > first ? value : nil
    }
}
