import Foundation
import StocktakeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `NAME=VALUE` file the nightly wrapper keeps its settings and tokens in (`stocktake run --env-file`).
///
/// The wrapper also reads it with the shell, so only what the shell and this reader understand the same way is
/// accepted: blank lines, `#` comments, an optional `export `, and a value that is bare, in single quotes (taken as
/// it is) or in double quotes (where `\"`, `\\`, `\$` and `` \` `` stand for the character). Anything the shell would
/// expand (`$`, backquotes) or split is refused rather than read differently.
public enum EnvironmentFile {
    /// The variables of the file at `path`, after checking that only its owner can write it and others cannot read
    /// it.
    public static func read(_ path: String) throws(EnvironmentFileError) -> [String: String] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .unreadable(path: path, reason: String(cString: strerror(errno)).lowercased())
        }
        defer { close(descriptor) }
        // The descriptor's own status: the file checked is the file read.
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .unreadable(path: path, reason: String(cString: strerror(errno)).lowercased())
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notAFile(path: path) }
        guard status.st_mode & (S_IWGRP | S_IROTH | S_IWOTH) == 0 else {
            throw .unsafeMode(path: path, mode: UInt32(status.st_mode))
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: String(cString: strerror(errno)).lowercased())
            }
            bytes += buffer.prefix(count)
        }
        return try parse(bytes, path: path)
    }

    /// The variables of the file's text; `path` only names it in messages.
    static func parse(_ bytes: [UInt8], path: String) throws(EnvironmentFileError) -> [String: String] {
        var variables: [String: String] = [:]
        for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            if let (name, value) = try assignment(Array(line), path: path, line: index + 1) {
                variables[name] = value
            }
        }
        return variables
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    private static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || byte == UInt8(ascii: "_") || (!first && byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// One line's name and value; `nil` for a blank line or a comment.
    private static func assignment(_ line: [UInt8], path: String, line number: Int) throws(EnvironmentFileError)
        -> (String, String)?
    {
        func refuse(_ problem: String) -> EnvironmentFileError {
            .badLine(path: path, line: number, problem: problem)
        }
        var rest = line[...].drop(while: isBlank)
        while let last = rest.last, isBlank(last) { rest = rest.dropLast() }
        if rest.isEmpty || rest.first == UInt8(ascii: "#") { return nil }
        let export = Array("export".utf8)
        if rest.starts(with: export), rest.count > export.count, isBlank(rest[rest.startIndex + export.count]) {
            rest = rest.dropFirst(export.count).drop(while: isBlank)
        }
        guard let equals = rest.firstIndex(of: UInt8(ascii: "=")), equals > rest.startIndex,
            rest[..<equals].enumerated().allSatisfy({ isNameByte($0.element, first: $0.offset == 0) })
        else { throw refuse("is not NAME=VALUE") }
        let name = String(decoding: rest[..<equals], as: UTF8.self)
        var value: [UInt8] = []
        var position = equals + 1
        let shellSpecial: Set<UInt8> = Set("'\"\\$`;&|<>()".utf8)
        if position < rest.endIndex, rest[position] == UInt8(ascii: "'") {
            guard let close = rest[(position + 1)...].firstIndex(of: UInt8(ascii: "'")) else {
                throw refuse("has a ' with no closing '")
            }
            value = Array(rest[(position + 1)..<close])
            position = close + 1
        } else if position < rest.endIndex, rest[position] == UInt8(ascii: "\"") {
            position += 1
            var closed = false
            while position < rest.endIndex {
                let byte = rest[position]
                position += 1
                if byte == UInt8(ascii: "\"") {
                    closed = true
                    break
                }
                if byte == UInt8(ascii: "$") || byte == UInt8(ascii: "`") {
                    throw refuse("has a $ or ` in double quotes, which the shell would expand; use single quotes")
                }
                if byte == UInt8(ascii: "\\"), position < rest.endIndex, Set("\"\\$`".utf8).contains(rest[position]) {
                    value.append(rest[position])
                    position += 1
                    continue
                }
                value.append(byte)
            }
            guard closed else { throw refuse("has a \" with no closing \"") }
        } else {
            while position < rest.endIndex, !isBlank(rest[position]) {
                guard !shellSpecial.contains(rest[position]) else {
                    throw refuse(
                        "has a character the shell treats specially outside quotes; put the value in single quotes")
                }
                value.append(rest[position])
                position += 1
            }
        }
        let after = rest[position...].drop(while: isBlank)
        guard after.isEmpty || (after.first == UInt8(ascii: "#") && position < after.startIndex) else {
            throw refuse("has more after its value; put a value with spaces in single quotes")
        }
        return (name, String(decoding: value, as: UTF8.self))
    }
}
