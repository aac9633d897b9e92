// A stub of Apple's BackgroundAssets framework (iOS 16.1, macOS 13), so that the documentation's
// Apple-only Swift (`<!-- swift: apple -->`) is type-checked on Linux, where CI runs. Compiled
// into a module named BackgroundAssets by DocumentationTests' SwiftTypeChecker; never built by
// SwiftPM (Package.swift excludes this folder).
//
// Each declaration repeats the signature Apple's SDK gives (the iPhoneOS 17.4 SDK's
// BackgroundAssets.swiftinterface and headers: BADownloaderExtension.h, BATypes.h,
// BAAppExtensionInfo.h, BADownload.h), with no body that does anything. Add what a new snippet
// uses the same way, from the SDK, never from memory: a stub that accepts what the SDK does not
// would let a wrong snippet pass.
import Foundation

/// ExtensionFoundation's `AppExtension`, to which the SDK's `BADownloaderExtension` refines: an
/// app extension's entry point (`@main` finds `main()` in its extension).
public protocol AppExtension {
    init()
}

extension AppExtension {
    /// Where the system starts the extension.
    public static func main() throws {}
}

/// BATypes.h: `typedef NS_ENUM(NSInteger, BAContentRequest)`.
public enum BAContentRequest: Int, @unchecked Sendable {
    case install = 1
    case update
    case periodic
}

/// BAAppExtensionInfo.h: `@interface BAAppExtensionInfo : NSObject <NSSecureCoding>`.
open class BAAppExtensionInfo: NSObject {
    /// The SDK's Swift overlay: `public var restrictedDownloadSizeRemaining: Swift.Int? { get }`.
    public var restrictedDownloadSizeRemaining: Int? { nil }
}

/// BADownload.h: `@interface BADownload : NSObject <NSSecureCoding, NSCopying>`.
open class BADownload: NSObject {}

/// The SDK's Swift overlay: `public protocol BADownloaderExtension : ExtensionFoundation.AppExtension`.
public protocol BADownloaderExtension: AppExtension {
    func downloads(for request: BAContentRequest, manifestURL: URL, extensionInfo: BAAppExtensionInfo)
        -> Set<BADownload>
    func backgroundDownload(_ failedDownload: BADownload, failedWithError error: any Error)
    func backgroundDownload(_ finishedDownload: BADownload, finishedWithFileURL fileURL: URL)
}

extension BADownloaderExtension {
    public func downloads(for request: BAContentRequest, manifestURL: URL, extensionInfo: BAAppExtensionInfo)
        -> Set<BADownload>
    { [] }
    public func backgroundDownload(_ failedDownload: BADownload, failedWithError error: any Error) {}
    public func backgroundDownload(_ finishedDownload: BADownload, finishedWithFileURL fileURL: URL) {}
}

// Foundation API that Apple platforms have and Linux's Foundation lacks, which the Apple-only
// snippets call.

extension FileManager {
    /// Foundation (NSFileManager.h): `- (nullable NSURL *)containerURLForSecurityApplicationGroupIdentifier:(NSString *)groupIdentifier`.
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? { nil }
}
