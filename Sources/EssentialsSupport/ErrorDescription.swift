#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
#else
import Foundation
#endif

extension Error {
    /// What went wrong, in words, for a message: Foundation's `localizedDescription` on Apple
    /// platforms. FoundationEssentials has no `localizedDescription`: there a file error of
    /// FileManager reads `PATH: REASON` (the system's text for its `errno`), any other error
    /// its description.
    package var readableDescription: String {
        #if canImport(FoundationEssentials) && os(Linux)
        if let posix = self as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        guard let cocoa = self as? CocoaError else { return "\(self)" }
        let path = cocoa.userInfo["NSFilePath"] as? String
        let reason = (cocoa.userInfo["NSUnderlyingError"] as? POSIXError).map {
            String(cString: strerror($0.code.rawValue))
        }
        switch (path, reason) {
        case let (path?, reason?): return "\(path): \(reason)"
        case let (nil, reason?): return reason
        case let (path?, nil): return "\(path): error \(cocoa.code.rawValue)"
        case (nil, nil): return "\(self)"
        }
        #else
        return localizedDescription
        #endif
    }
}

extension Error {
    /// The `errno` under a FileManager error (its underlying POSIX error), nil when there is none.
    package var underlyingPOSIXCode: Int32? {
        #if canImport(FoundationEssentials) && os(Linux)
        if let posix = self as? POSIXError { return posix.code.rawValue }
        return ((self as? CocoaError)?.userInfo["NSUnderlyingError"] as? POSIXError)?.code.rawValue
        #else
        let underlying = (self as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        return underlying?.domain == NSPOSIXErrorDomain ? underlying.map { Int32($0.code) } : nil
        #endif
    }
}
