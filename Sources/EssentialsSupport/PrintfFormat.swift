#if canImport(FoundationEssentials) && os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
#else
import Foundation
#endif

/// printf-style formatting of numbers (`%.15g`, `%.2f`, `%02x`), which FoundationEssentials'
/// `String` cannot do (`String(format:)` is Foundation's).
package enum PrintfFormat {
    /// `format` applied to `arguments` as C's `printf` applies it (the C locale: a `.` before the
    /// decimals): `String(format:)` on Apple platforms, `vsnprintf` elsewhere.
    package static func string(_ format: String, _ arguments: CVarArg...) -> String {
        #if canImport(FoundationEssentials) && os(Linux)
        withVaList(arguments) { list in
            var buffer = [CChar](repeating: 0, count: 128)
            let needed = Int(vsnprintf(&buffer, buffer.count, format, list))
            guard needed >= buffer.count else { return String(cString: buffer) }
            buffer = [CChar](repeating: 0, count: needed + 1)
            return withVaList(arguments) { again in
                _ = vsnprintf(&buffer, buffer.count, format, again)
                return String(cString: buffer)
            }
        }
        #else
        String(format: format, arguments: arguments)
        #endif
    }
}
