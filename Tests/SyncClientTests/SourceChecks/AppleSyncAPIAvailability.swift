import ShipyardTestSupport

/// The Apple APIs SyncClient calls (Foundation's URL Loading System and Swift concurrency), with
/// the first OS release of each: the availability table, as data. Its twin for people is the
/// DocC article `Sources/SyncClient/SyncClient.docc/AppleAPIAvailability.md`;
/// URLLoadingAvailabilityTests keeps both true to the sources. Sources: Apple's documentation of
/// each symbol (developer.apple.com/documentation/foundation/…, "Availability"), and for Swift
/// concurrency the Swift 5.5 back-deployment (Xcode 13.2: iOS 13, macOS 10.15, tvOS 13,
/// watchOS 6). A platform left out has the API from its first release (visionOS 1.0).
enum AppleSyncAPIAvailability {
    /// One API: its name as Apple's documentation writes it, how a use of it reads in Swift
    /// source (a regex over code with comments and strings blanked), and its first releases.
    struct API {
        let name: String
        let pattern: String
        let versions: SwiftSourceScanner.Versions
    }

    static let foundation: SwiftSourceScanner.Versions = [
        "iOS": [2, 0], "macOS": [10, 2], "tvOS": [9, 0], "watchOS": [2, 0],
    ]
    static let urlSession: SwiftSourceScanner.Versions = [
        "iOS": [7, 0], "macOS": [10, 9], "tvOS": [9, 0], "watchOS": [2, 0],
    ]
    static let headerLookup: SwiftSourceScanner.Versions = [
        "iOS": [13, 0], "macOS": [10, 15], "tvOS": [13, 0], "watchOS": [6, 0],
    ]
    /// Swift concurrency, back-deployed with the app (Xcode 13.2 or later).
    static let concurrency: SwiftSourceScanner.Versions = [
        "iOS": [13, 0], "macOS": [10, 15], "tvOS": [13, 0], "watchOS": [6, 0],
    ]

    /// What SyncClient calls: every row is used somewhere in Sources/SyncClient.
    static let apis: [API] = [
        API(name: "URLSession", pattern: #"\bURLSession\b(?!\w)"#, versions: urlSession),
        API(
            name: "URLSession.init(configuration:delegate:delegateQueue:)",
            pattern: #"\bURLSession\(\s*configuration:"#, versions: urlSession),
        API(name: "URLSession.dataTask(with:)", pattern: #"\.dataTask\(\s*with:"#, versions: urlSession),
        API(name: "URLSession.invalidateAndCancel()", pattern: #"\.invalidateAndCancel\("#, versions: urlSession),
        API(name: "URLSession.ResponseDisposition", pattern: #"\bResponseDisposition\b"#, versions: urlSession),
        API(name: "URLSessionConfiguration", pattern: #"\bURLSessionConfiguration\b"#, versions: urlSession),
        API(name: "URLSessionConfiguration.ephemeral", pattern: #"\.ephemeral\b"#, versions: urlSession),
        API(
            name: "URLSessionConfiguration.timeoutIntervalForRequest", pattern: #"\.timeoutIntervalForRequest\b"#,
            versions: urlSession),
        API(
            name: "URLSessionConfiguration.timeoutIntervalForResource", pattern: #"\.timeoutIntervalForResource\b"#,
            versions: urlSession),
        API(
            name: "URLSessionConfiguration.requestCachePolicy", pattern: #"\.requestCachePolicy\b"#,
            versions: urlSession),
        API(name: "URLSessionConfiguration.urlCache", pattern: #"\.urlCache\b"#, versions: urlSession),
        API(name: "URLSessionTask", pattern: #"\bURLSessionTask\b"#, versions: urlSession),
        API(name: "URLSessionDataTask", pattern: #"\bURLSessionDataTask\b"#, versions: urlSession),
        API(name: "URLSessionTask.resume()", pattern: #"\.resume\(\s*\)"#, versions: urlSession),
        API(name: "URLSessionTask.cancel()", pattern: #"\.cancel\(\s*\)"#, versions: urlSession),
        API(name: "URLSessionDataDelegate", pattern: #"\bURLSessionDataDelegate\b"#, versions: urlSession),
        API(
            name: "URLSessionDataDelegate.urlSession(_:dataTask:didReceive:completionHandler:)",
            pattern:
                #"func urlSession\(\s*_ \w+: URLSession,\s*dataTask: URLSessionDataTask,\s*didReceive \w+: URLResponse"#,
            versions: urlSession),
        API(
            name: "URLSessionDataDelegate.urlSession(_:dataTask:didReceive:)",
            pattern:
                #"func urlSession\(\s*_ \w+: URLSession,\s*dataTask: URLSessionDataTask,\s*didReceive \w+: Data\)"#,
            versions: urlSession),
        API(
            name: "URLSessionTaskDelegate.urlSession(_:task:didCompleteWithError:)",
            pattern: #"func urlSession\(\s*_ \w+: URLSession,\s*task: URLSessionTask,\s*didCompleteWithError"#,
            versions: urlSession),
        API(name: "URLRequest", pattern: #"\bURLRequest\b"#, versions: foundation),
        API(
            name: "URLRequest.init(url:cachePolicy:timeoutInterval:)",
            pattern: #"\bURLRequest\(\s*url:[^()]*cachePolicy:"#, versions: foundation),
        API(name: "URLRequest.httpMethod", pattern: #"\.httpMethod\b"#, versions: foundation),
        API(name: "URLRequest.httpBody", pattern: #"\.httpBody\b"#, versions: foundation),
        API(
            name: "URLRequest.setValue(_:forHTTPHeaderField:)", pattern: #"\.setValue\([^()]*forHTTPHeaderField:"#,
            versions: foundation),
        API(name: "URLResponse", pattern: #"\bURLResponse\b"#, versions: foundation),
        API(name: "URLResponse.expectedContentLength", pattern: #"\.expectedContentLength\b"#, versions: foundation),
        API(name: "HTTPURLResponse", pattern: #"\bHTTPURLResponse\b"#, versions: foundation),
        API(name: "HTTPURLResponse.statusCode", pattern: #"\.statusCode\b"#, versions: foundation),
        API(
            name: "HTTPURLResponse.value(forHTTPHeaderField:)", pattern: #"\.value\(\s*forHTTPHeaderField:"#,
            versions: headerLookup),
        API(name: "actor", pattern: #"\bactor\s+\w+"#, versions: concurrency),
        API(name: "Task", pattern: #"\bTask\b(?!\w)"#, versions: concurrency),
        API(
            name: "withCheckedThrowingContinuation(function:_:)", pattern: #"\bwithCheckedThrowingContinuation\b"#,
            versions: concurrency),
        API(name: "CheckedContinuation", pattern: #"\bCheckedContinuation\b"#, versions: concurrency),
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
