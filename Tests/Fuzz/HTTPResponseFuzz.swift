// libFuzzer target: the handling of an HTTP response (status line, headers, chunked or sized bodies, JSON error
// bodies), as the job receives it. A loopback server in this process answers every request with the input's bytes
// verbatim; the client (libcurl underneath, with the job's limits, redirect rules and retries) receives them, and
// the response is summarized as an error message would show it. Built by `make fuzz`, never by `swift build`.
import Foundation
import StocktakeSync

/// The response the server thread sends next, and the port it listens on.
private final class CannedResponse: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    let port: Int

    init() {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                guard bind(listener, raw, length) == 0, listen(listener, 64) == 0,
                    getsockname(listener, raw, &length) == 0
                else { fatalError("cannot listen on 127.0.0.1") }
            }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [unowned self] in self.serve(listener) }
        thread.start()
    }

    func set(_ next: [UInt8]) {
        lock.lock()
        bytes = next
        lock.unlock()
    }

    private func serve(_ listener: Int32) {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            var request = [UInt8](repeating: 0, count: 65_536)
            var received: [UInt8] = []
            // Read the request's head, then answer with the canned bytes and close.
            while !received.suffix(4).elementsEqual([13, 10, 13, 10]) {
                let count = read(connection, &request, request.count)
                if count <= 0 { break }
                received += request[0..<count]
            }
            lock.lock()
            let answer = bytes
            lock.unlock()
            var sent = 0
            while sent < answer.count {
                let count = answer[sent...].withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                sent += count
            }
            close(connection)
        }
    }
}

private let server = CannedResponse()
/// The job's client with short limits, no redirect followed (a fuzzed `Location` could name any host: the target
/// talks to 127.0.0.1 only) and retries that do not wait, so `Retry-After` is parsed but never slept on.
private let client: HTTPClient = {
    var limits = TransferLimits()
    limits.connectTimeoutSeconds = 2
    limits.totalTimeoutSeconds = 2
    limits.deadlineSeconds = 4
    limits.maximumDownloadBytes = 1 << 20
    limits.maximumRedirects = 0
    return HTTPClient(limits: limits, retry: RetryPolicy(), sleep: { _ in })
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPResponse(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    server.set(Array(UnsafeBufferPointer(start: data, count: size)))
    do {
        let url = try EndpointURL("http://127.0.0.1:\(server.port)/central.csv")
        let response = try client.send(HTTPRequest("GET", url, bearerToken: "fuzz-secret-token"))
        let summary = ServiceErrorMessage.summary(of: response)
        if summary.contains("fuzz-secret-token") { fatalError("the token is in a message: \(summary)") }
    } catch {
        let message = error.description
        if message.isEmpty || message.contains("fuzz-secret-token") {
            fatalError("a bad transfer message: \(message.debugDescription)")
        }
    }
    return 0
}
