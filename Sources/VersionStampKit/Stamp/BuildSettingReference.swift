/// Xcode build-setting references in plist values: `$(CURRENT_PROJECT_VERSION)`,
/// `${MARKETING_VERSION}`, `$(PRODUCT_NAME:rfc1034identifier)`.
enum BuildSettingReference {
    /// The setting's name when `value` is wholly one reference, nil otherwise (text around a
    /// reference, or several, is a value of its own).
    static func settingName(in value: String) -> String? {
        let scalars = Array(value.unicodeScalars)
        guard scalars.count >= 4, scalars[0] == "$" else { return nil }
        let close: Unicode.Scalar
        switch scalars[1] {
        case "(": close = ")"
        case "{": close = "}"
        default: return nil
        }
        guard scalars[scalars.count - 1] == close else { return nil }
        let inner = scalars[2..<(scalars.count - 1)]
        // NAME, optionally followed by `:modifier` operators.
        let nameEnd = inner.firstIndex(of: ":") ?? inner.endIndex
        let name = inner[inner.startIndex..<nameEnd]
        guard let first = name.first, first == "_" || isLetter(first),
              name.allSatisfy({ $0 == "_" || isLetter($0) || ($0 >= "0" && $0 <= "9") }),
              !inner[nameEnd...].contains(where: { $0 == "(" || $0 == ")" || $0 == "{" || $0 == "}" || $0 == "$" })
        else { return nil }
        var text = ""
        text.unicodeScalars.append(contentsOf: name)
        return text
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        (scalar >= "A" && scalar <= "Z") || (scalar >= "a" && scalar <= "z")
    }
}
