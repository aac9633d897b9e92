import ShipyardTestSupport

/// The Apple APIs SyncClient calls itself (Swift concurrency; its HTTP is HTTPTransport's), with
/// the first OS release of each: the availability table, as data. Its twin for people is the
/// DocC article `Sources/SyncClient/SyncClient.docc/AppleAPIAvailability.md`;
/// URLLoadingAvailabilityTests keeps both true to the sources. Sources: Apple's documentation of
/// each symbol (developer.apple.com/documentation/foundation/…, "Availability"), and for Swift
/// concurrency the Swift 5.5 back-deployment (Xcode 13.2: iOS 13, macOS 10.15, tvOS 13,
/// watchOS 6). A platform left out has the API from its first release (visionOS 1.0).
enum AppleSyncAPIAvailability {
    /// One API: its name as Apple's documentation writes it, how a use of it reads in Swift
    /// source, and its first releases.
    typealias API = AppleAPIAvailabilityTable.API

    /// Swift concurrency, back-deployed with the app (Xcode 13.2 or later).
    static let concurrency: SwiftSourceScanner.Versions = [
        "iOS": [13, 0], "macOS": [10, 15], "tvOS": [13, 0], "watchOS": [6, 0],
    ]

    /// What SyncClient calls: every row is used somewhere in Sources/SyncClient. Its HTTP goes
    /// through HTTPTransport, whose URL Loading System calls are FeedClient's table
    /// (FeedClientTests' AppleURLLoadingAvailability): none is called from SyncClient itself.
    static let apis: [API] = [
        API(name: "actor", pattern: #"\bactor\s+\w+"#, versions: concurrency),
        API(name: "Task", pattern: #"\bTask\b(?!\w)"#, versions: concurrency),
        API(
            name: "withTaskCancellationHandler(operation:onCancel:)", pattern: #"\bwithTaskCancellationHandler\b"#,
            versions: concurrency),
    ]

    /// Newer API a change is likely to reach for, recognised by the scan so that a use without a
    /// row in ``apis`` fails (then add the row from Apple's documentation, under `#available`
    /// when it is newer than the package's platforms).
    static let recognised: [(name: String, pattern: String)] = [
        ("URLSession.data(for:delegate:) (iOS 15)", #"\.data\(\s*for:"#),
        ("URLSession.bytes(for:delegate:) (iOS 15)", #"\.bytes\(\s*for:"#),
        ("URLSession.upload(for:from:delegate:) (iOS 15)", #"\.upload\(\s*for:"#),
        ("URLSession.shared", #"\bURLSession\.shared\b"#),
        (
            "URLSession.uploadTask / downloadTask / webSocketTask",
            #"\.(downloadTask|uploadTask|streamTask|webSocketTask)\("#
        ),
        ("URLSessionConfiguration.background(withIdentifier:)", #"\.background\(\s*withIdentifier:"#),
        ("URLSessionConfiguration.waitsForConnectivity (iOS 11)", #"\.waitsForConnectivity\b"#),
        ("URLSessionConfiguration.allowsConstrainedNetworkAccess (iOS 13)", #"\.allowsConstrainedNetworkAccess\b"#),
        ("URLSessionConfiguration.httpAdditionalHeaders", #"\.httpAdditionalHeaders\b"#),
        ("URLRequest.assumesHTTP3Capable (iOS 14.5)", #"\.assumesHTTP3Capable\b"#),
        ("HTTPURLResponse.allHeaderFields", #"\.allHeaderFields\b"#),
        ("Task.sleep(for:) / Clock (iOS 16)", #"\bTask\.sleep\(\s*for:|\bContinuousClock\b|\bSuspendingClock\b"#),
        ("AsyncStream (iOS 13, back-deployed)", #"\bAsyncThrowingStream\b|\bAsyncStream\b"#),
        ("URL Loading System types", #"\b(URLSession\w*|URLRequest\w*|\w*URLResponse)\b"#),
        ("Swift concurrency", #"\b(actor|Task|withCheckedThrowingContinuation|withTaskCancellationHandler)\b"#),
    ]
}
