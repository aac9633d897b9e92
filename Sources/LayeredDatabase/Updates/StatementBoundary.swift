/// Where a patch's statements end, found as its bytes are read: `sqlite3_complete`'s state
/// machine (SQLite's complete.c: tokens `;`, whitespace, other, and the keywords that make a
/// `CREATE TRIGGER` body run to its `END;`) kept from one byte to the next, so each byte is
/// looked at once however long the statement. Asking `sqlite3_complete` again at every line of
/// a statement instead costs the square of its length (a text value of 40 000 lines: minutes).
///
/// ``isComplete`` is what `sqlite3_complete` answers for all the bytes fed since the last
/// ``reset()`` (the tests compare the two on generated SQL). A NUL byte, where
/// `sqlite3_complete` stops, is for the caller to refuse.
struct StatementBoundary {
    private enum Token: Int {
        case semicolon = 0
        case whitespace, other, explain, create, temp, trigger, end
    }

    /// The lexical place: between tokens, or inside a token that has not ended yet.
    private enum Mode {
        case between
        /// After `/` or `-`: a comment if the next byte doubles it, else an operator.
        case slash, dash
        case blockComment(afterStar: Bool)
        case lineComment
        /// Inside `'…'`, `"…"`, `` `…` `` or `[…]`, ending at `closing`.
        case quoted(closing: UInt8)
        /// Inside a word: its length, and its first nine bytes in lowercase ASCII (enough to tell
        /// the keywords: `temporary` is the longest), packed one per byte of `prefix`.
        case word(prefix: Word, length: Int)
    }

    // sqlite3_complete's transition table: state × token → state. 1 is START (complete).
    private static let transitions: [[UInt8]] = [
        [1, 0, 2, 3, 4, 2, 2, 2], // 0 INVALID
        [1, 1, 2, 3, 4, 2, 2, 2], // 1 START
        [1, 2, 2, 2, 2, 2, 2, 2], // 2 NORMAL
        [1, 3, 3, 2, 4, 2, 2, 2], // 3 EXPLAIN
        [1, 4, 2, 2, 2, 4, 5, 2], // 4 CREATE
        [6, 5, 5, 5, 5, 5, 5, 5], // 5 TRIGGER
        [6, 6, 5, 5, 5, 5, 5, 7], // 6 SEMI
        [1, 7, 5, 5, 5, 5, 5, 5], // 7 END
    ]

    private var state: UInt8 = 0
    private var mode = Mode.between

    /// Whether the bytes fed so far end with a complete statement.
    var isComplete: Bool {
        switch mode {
        case .between, .lineComment: return state == 1
        default: return false
        }
    }

    /// Starts over, for the next statement.
    mutating func reset() {
        state = 0
        mode = .between
    }

    /// Feeds the next byte.
    mutating func feed(_ byte: UInt8) {
        switch mode {
        case .between:
            start(byte)
        case .slash:
            if byte == UInt8(ascii: "*") {
                mode = .blockComment(afterStar: false)
            } else {
                finish(.other)
                start(byte)
            }
        case .dash:
            if byte == UInt8(ascii: "-") {
                mode = .lineComment
            } else {
                finish(.other)
                start(byte)
            }
        case .blockComment(let afterStar):
            if afterStar && byte == UInt8(ascii: "/") {
                finish(.whitespace)
            } else {
                mode = .blockComment(afterStar: byte == UInt8(ascii: "*"))
            }
        case .lineComment:
            if byte == UInt8(ascii: "\n") { finish(.whitespace) }
        case .quoted(let closing):
            if byte == closing { finish(.other) }
        case .word(let prefix, let length):
            guard Self.isIdentifierByte(byte) else {
                finish(Self.keyword(prefix, length: length))
                start(byte)
                return
            }
            mode = .word(prefix: prefix.appending(byte, at: length), length: length + 1)
        }
    }

    /// A byte between tokens: a one-byte token, or the start of a longer one.
    private mutating func start(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: ";"): finish(.semicolon)
        case 0x20, 0x0D, 0x09, 0x0A, 0x0C: finish(.whitespace)
        case UInt8(ascii: "/"): mode = .slash
        case UInt8(ascii: "-"): mode = .dash
        case UInt8(ascii: "["): mode = .quoted(closing: UInt8(ascii: "]"))
        case UInt8(ascii: "`"), UInt8(ascii: "\""), UInt8(ascii: "'"): mode = .quoted(closing: byte)
        default:
            if Self.isIdentifierByte(byte) {
                mode = .word(prefix: Word().appending(byte, at: 0), length: 1)
            } else {
                finish(.other)
            }
        }
    }

    private mutating func finish(_ token: Token) {
        state = Self.transitions[Int(state)][token.rawValue]
        mode = .between
    }

    /// SQLite's `IdChar`: letters, digits, `_`, `$`, and every byte of a multi-byte character.
    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), 0x80...0xFF:
            return true
        default:
            return false
        }
    }

    private static let keywords: [(Word, Int, Token)] = [
        ("create", Token.create), ("temp", .temp), ("temporary", .temp), ("trigger", .trigger), ("end", .end),
        ("explain", .explain),
    ].map { name, token in
        var word = Word()
        for (index, byte) in name.utf8.enumerated() { word = word.appending(byte, at: index) }
        return (word, name.utf8.count, token)
    }

    /// The keyword token of a word (SQLite compares them ASCII case-insensitively), else other.
    private static func keyword(_ prefix: Word, length: Int) -> Token {
        keywords.first { $0.0 == prefix && $0.1 == length }?.2 ?? .other
    }

    /// The first nine bytes of a word, lowercase ASCII, without an allocation per byte.
    struct Word: Equatable {
        private var first8: UInt64 = 0
        private var ninth: UInt8 = 0

        /// The word with `byte` at `index` (ignored past the ninth).
        func appending(_ byte: UInt8, at index: Int) -> Word {
            let folded = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
            var word = self
            if index < 8 {
                word.first8 |= UInt64(folded) << (8 * UInt64(index))
            } else if index == 8 {
                word.ninth = folded
            }
            return word
        }
    }
}
