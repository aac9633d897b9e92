import ShipyardTestSupport

/// The Apple APIs FeedClient calls to fetch (Foundation's URL Loading System, through HTTPTransport), with the first
/// OS release of each: the availability table, as data. Its twin for people is the DocC article
/// `Sources/FeedClient/FeedClient.docc/AppleAPIAvailability.md`; URLLoadingAvailabilityTests
/// keeps both true to the sources. Source: Apple's documentation of each symbol
/// (developer.apple.com/documentation/foundation/…, "Availability"). A platform left out has the
/// API from its first release (visionOS 1.0 has all of them).
enum AppleURLLoadingAvailability {
    /// One API: its name as Apple's documentation writes it, how a use of it reads in Swift
    /// source, and its first releases.
    typealias API = AppleAPIAvailabilityTable.API

    /// NSURLRequest, NSURLResponse and NSHTTPURLResponse: Foundation from its first releases.
    static let foundation: SwiftSourceScanner.Versions = [
        "iOS": [2, 0], "macOS": [10, 2], "tvOS": [9, 0], "watchOS": [2, 0],
    ]
    /// NSURLSession and its configuration, tasks and delegates.
    static let urlSession: SwiftSourceScanner.Versions = [
        "iOS": [7, 0], "macOS": [10, 9], "tvOS": [9, 0], "watchOS": [2, 0],
    ]
    /// URLSession's async methods (`bytes(for:)`, `data(for:)`, …) and `URLSession.AsyncBytes`.
    static let asyncSession: SwiftSourceScanner.Versions = [
        "iOS": [15, 0], "macOS": [12, 0], "tvOS": [15, 0], "watchOS": [8, 0],
    ]

    /// What FeedClient calls: every row is used somewhere in Sources/FeedClient or Sources/HTTPTransport.
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
            name: "URLSessionConfiguration.requestCachePolicy", pattern: #"\.requestCachePolicy\b"#,
            versions: urlSession),
        API(name: "URLSessionConfiguration.urlCache", pattern: #"\.urlCache\b"#, versions: urlSession),
        API(name: "URLSessionConfiguration.identifier", pattern: #"\.identifier\b"#, versions: urlSession),
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
        API(
            name: "URLSessionTaskDelegate.urlSession(_:task:didSendBodyData:totalBytesSent:totalBytesExpectedToSend:)",
            pattern: #"func urlSession\(\s*_ \w+: URLSession,\s*task: URLSessionTask,\s*didSendBodyData"#,
            versions: urlSession),
        API(
            name: "URLSessionTaskDelegate.urlSession(_:task:willPerformHTTPRedirection:newRequest:completionHandler:)",
            pattern: #"func urlSession\(\s*_ \w+: URLSession,\s*task: URLSessionTask,\s*willPerformHTTPRedirection"#,
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
        API(name: "HTTPURLResponse", pattern: #"\bHTTPURLResponse\b"#, versions: foundation),
        API(name: "HTTPURLResponse.statusCode", pattern: #"\.statusCode\b"#, versions: foundation),
        API(name: "HTTPURLResponse.allHeaderFields", pattern: #"\.allHeaderFields\b"#, versions: foundation),
        API(name: "OperationQueue", pattern: #"\bOperationQueue\b"#, versions: foundation),
    ]

    /// URL-loading API that a change to FeedClient is likely to reach for, recognised by the scan
    /// so that a use without a row in ``apis`` fails (then add the row, from Apple's
    /// documentation, and guard it with `#available` when it is newer than the package's
    /// platforms). Any type named `URLSession…`, `URLRequest…` or `…URLResponse` counts too.
    static let recognised: [(name: String, pattern: String)] = [
        ("URLSession.bytes(for:delegate:) (iOS 15)", #"\.bytes\(\s*for:"#),
        ("URLSession.data(for:delegate:) (iOS 15)", #"\.data\(\s*for:"#),
        ("URLSession.download(for:delegate:) (iOS 15)", #"\.download\(\s*(for|from|resumeFrom):"#),
        ("URLSession.upload(for:from:delegate:) (iOS 15)", #"\.upload\(\s*for:"#),
        ("URLSession.AsyncBytes (iOS 15)", #"\bAsyncBytes\b"#),
        ("URLSession.shared", #"\bURLSession\.shared\b"#),
        (
            "URLSession.downloadTask / uploadTask / streamTask / webSocketTask",
            #"\.(downloadTask|uploadTask|streamTask|webSocketTask)\("#
        ),
        ("URLSession.finishTasksAndInvalidate()", #"\.finishTasksAndInvalidate\("#),
        ("URLSessionConfiguration.background(withIdentifier:)", #"\.background\(\s*withIdentifier:"#),
        ("URLSessionConfiguration.allowsExpensiveNetworkAccess (iOS 13)", #"\.allowsExpensiveNetworkAccess\b"#),
        ("URLSessionConfiguration.allowsConstrainedNetworkAccess (iOS 13)", #"\.allowsConstrainedNetworkAccess\b"#),
        ("URLSessionConfiguration.waitsForConnectivity (iOS 11)", #"\.waitsForConnectivity\b"#),
        ("URLSessionConfiguration.isDiscretionary", #"\.isDiscretionary\b"#),
        ("URLSessionConfiguration.sessionSendsLaunchEvents (macOS 11)", #"\.sessionSendsLaunchEvents\b"#),
        ("URLSessionConfiguration.timeoutIntervalForResource", #"\.timeoutIntervalForResource\b"#),
        ("URLSessionConfiguration.httpAdditionalHeaders", #"\.httpAdditionalHeaders\b"#),
        ("URLSessionConfiguration.allowsCellularAccess", #"\.allowsCellularAccess\b"#),
        ("URLSessionConfiguration.requiresDNSSECValidation (iOS 16)", #"\.requiresDNSSECValidation\b"#),
        ("URLRequest.assumesHTTP3Capable (iOS 14.5)", #"\.assumesHTTP3Capable\b"#),
        ("URLSessionTask.earliestBeginDate (iOS 11)", #"\.earliestBeginDate\b"#),
        ("URLSessionTask.countOfBytesClientExpectsToReceive (iOS 11)", #"\.countOfBytesClient\w+"#),
        ("URLSessionTask.prefersIncrementalDelivery (iOS 14.5)", #"\.prefersIncrementalDelivery\b"#),
        ("URLSessionTaskDelegate.urlSession(_:didCreateTask:) (iOS 16)", #"didCreateTask"#),
        ("HTTPURLResponse.value(forHTTPHeaderField:) (iOS 13)", #"\.value\(\s*forHTTPHeaderField:"#),
        ("URLResponse.expectedContentLength", #"\.expectedContentLength\b"#),
        ("URL Loading System types", #"\b(URLSession\w*|URLRequest\w*|\w*URLResponse)\b"#),
    ]
}
