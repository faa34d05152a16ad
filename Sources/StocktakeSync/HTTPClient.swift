import CCurl
import Foundation
import StocktakeCore

/// The one HTTP client of the job: libcurl underneath, blocking calls, redirects followed by hand so a bearer token
/// never leaves its origin, TLS verification always on, and retries by `RetryPolicy` within the deadline of
/// `TransferLimits.deadlineSeconds`.
public struct HTTPClient: Sendable {
    public var limits: TransferLimits
    public var retry: RetryPolicy
    /// Waits between tries; tests replace it to run instantly and record the waits.
    public var sleep: @Sendable (Double) -> Void

    public init(
        limits: TransferLimits = TransferLimits(), retry: RetryPolicy = RetryPolicy(),
        sleep: @escaping @Sendable (Double) -> Void = { Thread.sleep(forTimeInterval: $0) }
    ) {
        self.limits = limits
        self.retry = retry
        self.sleep = sleep
    }

    /// Sends the request, following redirects and retrying transient failures; returns the final response,
    /// whatever its status.
    ///
    /// Everything happens within `limits.deadlineSeconds`: each try's timeout is cut to the time left, and a wait
    /// that would end past the deadline is not waited. A transport failure then ends the exchange with
    /// `.deadlineExceeded`; a retryable status (a 503) is returned as it is, like after the last try.
    public func send(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let deadline = Deadline(seconds: limits.deadlineSeconds)
        var attempt = 1
        while true {
            do {
                let response = try follow(request, deadline: deadline, attempt: attempt)
                guard RetryPolicy.isRetryable(status: response.status),
                    let wait = retry.delay(
                        afterAttempt: attempt, status: response.status, retryAfter: response.header("retry-after")),
                    wait < deadline.remaining
                else { return response }
                sleep(wait)
            } catch {
                guard error.isTransient else { throw error }
                guard deadline.remaining > 0 else { throw deadline.exceeded(request.url, tries: attempt) }
                guard let wait = retry.delay(afterAttempt: attempt, status: nil, retryAfter: nil) else { throw error }
                guard wait < deadline.remaining else { throw deadline.exceeded(request.url, tries: attempt) }
                sleep(wait)
            }
            attempt += 1
        }
    }

    /// One try: the request and its redirects, each transfer within the time left before `deadline`.
    private func follow(_ request: HTTPRequest, deadline: Deadline, attempt: Int) throws(HTTPError) -> HTTPResponse {
        let tokenOrigin = request.url.origin
        var current = request
        for hop in 0...limits.maximumRedirects {
            let remaining = deadline.remaining
            guard remaining > 0 else { throw deadline.exceeded(request.url, tries: hop == 0 ? attempt - 1 : attempt) }
            let response = try Self.perform(current, limits: limits, timeout: remaining)
            guard [301, 302, 303, 307, 308].contains(response.status), let location = response.header("location")
            else { return response }
            let next = try current.url.resolving(location)
            // Data being sent (a sheet being pushed, a client secret) never follows a redirect to another origin,
            // whatever the status: a 301 or 302 is followed by re-sending the data, as a 307 or 308 is.
            if current.carriesData, next.origin != current.url.origin {
                throw .redirectedElsewhere(url: current.url.redacted, to: next.redacted)
            }
            if response.status == 303 || (response.status != 307 && response.status != 308 && current.method == "POST")
            {
                current.method = "GET"
                current.body = nil
            }
            current.url = next
            if next.origin != tokenOrigin { current.bearerToken = nil }
        }
        throw .tooManyRedirects(url: request.url.redacted)
    }

    private static let initialized: Bool = {
        curl_global_init(stocktake_curl_global_default) == CURLE_OK
    }()

    /// One libcurl transfer, no redirects followed, given at most `timeout` seconds.
    private static func perform(_ request: HTTPRequest, limits: TransferLimits, timeout: Double) throws(HTTPError)
        -> HTTPResponse
    {
        _ = initialized
        guard let handle = curl_easy_init() else {
            throw .transfer(url: request.url.redacted, reason: "libcurl could not start a transfer")
        }
        defer { curl_easy_cleanup(handle) }
        let transfer = Transfer(limit: limits.maximumDownloadBytes)
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        var lines = request.headers.map { "\($0.name): \($0.value)" } + ["Expect:"]
        if let token = request.bearerToken { lines.append("Authorization: Bearer \(token)") }
        for line in lines { headerList = curl_slist_append(headerList, line) }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)

        stocktake_curl_set_string(handle, CURLOPT_URL, request.url.description)
        stocktake_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        stocktake_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, request.method)
        stocktake_curl_set_headers(handle, headerList)
        stocktake_curl_set_string(handle, CURLOPT_USERAGENT, "stocktake/\(StocktakeVersion.current)")
        stocktake_curl_set_string(handle, CURLOPT_ACCEPT_ENCODING, "")
        stocktake_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
        stocktake_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 0)
        stocktake_curl_set_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
        stocktake_curl_set_long(handle, CURLOPT_SSL_VERIFYHOST, 2)
        if let caFile = limits.caFile { stocktake_curl_set_string(handle, CURLOPT_CAINFO, caFile) }
        stocktake_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT, limits.connectTimeoutSeconds)
        let milliseconds = min(Double(limits.totalTimeoutSeconds) * 1000, (timeout * 1000).rounded(.up))
        stocktake_curl_set_long(handle, CURLOPT_TIMEOUT_MS, Int(max(1, milliseconds)))
        stocktake_curl_set_long(handle, CURLOPT_LOW_SPEED_LIMIT, limits.lowSpeedBytesPerSecond)
        stocktake_curl_set_long(handle, CURLOPT_LOW_SPEED_TIME, limits.lowSpeedSeconds)
        stocktake_curl_set_offset(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limits.maximumDownloadBytes))
        stocktake_curl_set_write_callback(handle, receiveBody)
        stocktake_curl_set_pointer(handle, CURLOPT_WRITEDATA, context)
        stocktake_curl_set_header_callback(handle, receiveHeader)
        stocktake_curl_set_pointer(handle, CURLOPT_HEADERDATA, context)
        if request.method == "HEAD" { stocktake_curl_set_long(handle, CURLOPT_NOBODY, 1) }

        let body = request.body ?? []
        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { errors in
            stocktake_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errors.baseAddress)
            return body.withUnsafeBytes { bytes in
                if request.body != nil {
                    stocktake_curl_set_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))
                    stocktake_curl_set_pointer(
                        handle, CURLOPT_POSTFIELDS,
                        UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
                }
                return curl_easy_perform(handle)
            }
        }
        let url = request.url.redacted
        guard code == CURLE_OK else {
            let message = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let detail = message.isEmpty ? String(cString: curl_easy_strerror(code)) : message
            switch code {
            case CURLE_WRITE_ERROR where transfer.exceeded, CURLE_FILESIZE_EXCEEDED:
                throw .tooLarge(url: url, limit: limits.maximumDownloadBytes)
            case CURLE_OPERATION_TIMEDOUT:
                throw .timedOut(
                    url: url,
                    seconds: detail.contains("Connection timed out")
                        ? limits.connectTimeoutSeconds : min(limits.totalTimeoutSeconds, limits.lowSpeedSeconds))
            case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT, CURLE_SSL_CONNECT_ERROR,
                CURLE_PEER_FAILED_VERIFICATION,
                CURLE_SSL_CACERT_BADFILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING:
                throw .connectionFailed(url: url, reason: Self.plain(detail))
            default:
                throw .transfer(url: url, reason: Self.plain(detail))
            }
        }
        var status = 0
        stocktake_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return HTTPResponse(status: status, headers: transfer.headers, body: transfer.body, url: request.url)
    }

    /// libcurl's message without anything that could carry a secret (it never includes headers).
    private static func plain(_ message: String) -> String {
        message.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// The buffers of one transfer, filled by libcurl's callbacks.
private final class Transfer {
    var body: [UInt8] = []
    var headers: [(name: String, value: String)] = []
    let limit: Int
    var exceeded = false

    init(limit: Int) {
        self.limit = limit
    }
}

private func receiveBody(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    guard transfer.body.count + length <= transfer.limit else {
        transfer.exceeded = true
        return 0
    }
    data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
        transfer.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: length))
    }
    return length
}

private func receiveHeader(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    let line = data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
        String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
    }.trimmingCharacters(in: .whitespacesAndNewlines)
    if line.hasPrefix("HTTP/") {
        transfer.headers = []  // a new response (after 100 Continue) starts its own headers
    } else if let colon = line.firstIndex(of: ":") {
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        transfer.headers.append((name, value))
    }
    return length
}
