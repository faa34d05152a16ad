import CProcess
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The socket between `stocktake run` and one process the account launcher starts: the request with the process's
/// standard input and output goes one way, the process id comes back once the process is `stocktake run`'s child.
struct LaunchChannel {
    /// One end of a Unix stream socket.
    var socket: Int32

    /// A connected pair of sockets, both close-on-exec; `nil` when the system has no descriptors left.
    static func pair() -> (LaunchChannel, LaunchChannel)? {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            return nil
        }
        return (LaunchChannel(socket: ends[0]), LaunchChannel(socket: ends[1]))
    }

    /// Sends `request`, with `input` and `output` to become the process's standard input and output.
    func send(_ request: LaunchRequest, input: Int32, output: Int32) -> Bool {
        guard let payload = request.encoded(), payload.count <= LaunchRequest.maximumSize else { return false }
        var length: [UInt8] = []
        LaunchRequest.append(UInt32(payload.count), to: &length)
        let descriptors = [input, output]
        let sent = length.withUnsafeBytes { bytes in
            stocktake_send_descriptors(socket, bytes.baseAddress, bytes.count, descriptors, 2)
        }
        return sent == length.count && sendAll(payload)
    }

    /// Receives a request and the two descriptors sent with it; `nil` unless exactly that arrives.
    func receiveRequest() -> (request: LaunchRequest, input: Int32, output: Int32)? {
        var length = [UInt8](repeating: 0, count: 4)
        var descriptors: [Int32] = [-1, -1]
        var received: Int32 = 0
        let count = length.withUnsafeMutableBytes { bytes in
            stocktake_receive_descriptors(socket, bytes.baseAddress, bytes.count, &descriptors, 2, &received)
        }
        func fail() -> (LaunchRequest, Int32, Int32)? {
            for descriptor in descriptors.prefix(Int(received)) { Glibc.close(descriptor) }
            return nil
        }
        // The four length bytes are sent in one message with the descriptors, so they arrive together.
        guard count == 4, received == 2 else { return fail() }
        var size = 0
        for shift in 0..<4 { size |= Int(length[shift]) << (8 * shift) }
        guard size <= LaunchRequest.maximumSize, let payload = receiveAll(size),
            let request = LaunchRequest(decoding: payload)
        else { return fail() }
        return (request, descriptors[0], descriptors[1])
    }

    /// Sends the process id `process`.
    func send(process: pid_t) -> Bool {
        var bytes: [UInt8] = []
        LaunchRequest.append(UInt32(bitPattern: process), to: &bytes)
        return sendAll(bytes)
    }

    /// The process id the other end sends, waiting up to `seconds`; `nil` at end of file or after the wait.
    func receiveProcess(waitingUpTo seconds: Double) -> pid_t? {
        let deadline = Date().addingTimeInterval(seconds)
        var bytes: [UInt8] = []
        while bytes.count < 4 {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(left, 60) * 1000) + 1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 4 - bytes.count)
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            bytes += chunk.prefix(count)
        }
        var value: UInt32 = 0
        for shift in 0..<4 { value |= UInt32(bytes[shift]) << (8 * UInt32(shift)) }
        let process = pid_t(bitPattern: value)
        return process > 0 ? process : nil
    }

    func close() {
        _ = Glibc.close(socket)
    }

    private func sendAll(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { buffer in
                Glibc.send(socket, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    private func receiveAll(_ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let received = bytes.withUnsafeMutableBytes { buffer in
                recv(socket, buffer.baseAddress! + offset, count - offset, 0)
            }
            if received < 0 && errno == EINTR { continue }
            guard received > 0 else { return nil }
            offset += received
        }
        return bytes
    }
}
