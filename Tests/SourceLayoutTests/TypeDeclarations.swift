import ShipyardTestSupport

/// The types a Swift file declares and the type names it uses, read from its code with
/// comments and string literals blanked (``SwiftSourceScanner/codeOnly(_:)``): enough to tell
/// which of a library's files depends on which, without a compiler.
struct TypeDeclarations {
    /// Types declared outside any braces (`struct SchemaCatalog`, `typealias DiagnosticHandler`):
    /// the names other files of the library can use unqualified.
    var topLevel: Set<String> = []
    /// Types declared inside another's braces (`SchemaCheck.Result`, `PatchHeader.Version`):
    /// in this file, a name that is one of these means the nested type.
    var nested: Set<String> = []
    /// Every identifier that is not a member (`.name`) nor the name a declaration introduces,
    /// with the offset of its first use.
    var references: [String: Int] = [:]
    /// The top-level types declared `public`, `open` or `package` (visible outside their
    /// module), with the offset of their name.
    var exported: [(name: String, offset: Int)] = []
    /// The types the file extends outside any braces (`extension Feed`).
    var extended: Set<String> = []

    /// The modifiers that make a declaration visible outside its module.
    static let exportingModifiers: Set<String> = ["public", "open", "package"]

    /// The keywords that introduce a type's name.
    static let typeKeywords: Set<String> = ["struct", "class", "enum", "protocol", "actor", "typealias"]
    /// The keywords after which an identifier is a new name, never a use.
    static let declarationKeywords = typeKeywords.union(["func", "let", "var", "case", "associatedtype"])

    /// Reads `file`.
    init(_ file: SwiftSourceScanner.File) {
        let code = file.code
        var depth = 0
        var previousWord: String?
        var previousByte: UInt8 = 32
        // The words since the last punctuation or line end: a declaration's modifiers and
        // attributes' names are on its line (`@frozen public struct`, `public final class`).
        var lineWords: [String] = []
        var i = 0
        while i < code.count {
            let byte = code[i]
            if byte == UInt8(ascii: "{") { depth += 1 }
            if byte == UInt8(ascii: "}") { depth = max(depth - 1, 0) }
            guard Self.startsIdentifier(byte) else {
                if byte != 32 && byte != 10 && byte != 9 { previousByte = byte; previousWord = nil }
                if byte != 32 && byte != 9 { lineWords = [] }
                i += 1
                continue
            }
            var end = i + 1
            while end < code.count, Self.startsIdentifier(code[end]) || (code[end] >= 48 && code[end] <= 57) {
                end += 1
            }
            let word = String(decoding: code[i..<end], as: UTF8.self)
            if previousWord == "extension", depth == 0 { extended.insert(word) }
            if let keyword = previousWord, Self.typeKeywords.contains(keyword) {
                if depth == 0 { topLevel.insert(word) } else { nested.insert(word) }
                if depth == 0, !Self.exportingModifiers.isDisjoint(with: lineWords) { exported.append((word, i)) }
            } else if previousByte != UInt8(ascii: "."),
                !(previousWord.map(Self.declarationKeywords.contains) ?? false),
                references[word] == nil
            {
                references[word] = i
            }
            previousWord = word
            previousByte = 32
            lineWords.append(word)
            i = end
        }
    }

    private static func startsIdentifier(_ byte: UInt8) -> Bool {
        (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 95
    }
}
