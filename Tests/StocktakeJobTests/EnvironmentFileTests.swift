import Foundation
import Testing

@testable import StocktakeJob

#if canImport(Glibc)
    import Glibc
#endif

struct EnvironmentFileTests {
    /// Writes `text` to a fresh file with `mode` and returns its path.
    func file(_ text: String, mode: mode_t = 0o600) throws -> String {
        let path = NSTemporaryDirectory() + "stocktake-env-\(UUID().uuidString)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try #require(chmod(path, mode) == 0)
        return path
    }

    @Test func readsTheLinesTheShellReadsTheSameWay() throws {
        let path = try file(
            """
            # settings of the nightly wrapper

            STOCKTAKE_JOBS=/srv/stocktake/Jobs
              export STOCKTAKE_TOKEN_NORTH='n0rth secret $not expanded'   # a comment
            STOCKTAKE_TOKEN_SOUTH="s\\"outh \\$ \\\\ \\` x"
            EMPTY=
            QUOTED_EMPTY=''
            WITH_HASH=abc#def
            export\tTABBED=1\r

            """)
        defer { unlink(path) }

        #expect(
            try EnvironmentFile.read(path) == [
                "STOCKTAKE_JOBS": "/srv/stocktake/Jobs", "STOCKTAKE_TOKEN_NORTH": "n0rth secret $not expanded",
                "STOCKTAKE_TOKEN_SOUTH": "s\"outh $ \\ ` x", "EMPTY": "", "QUOTED_EMPTY": "", "WITH_HASH": "abc#def",
                "TABBED": "1",
            ])
    }

    @Test(arguments: [
        ("just words", 1, "is not NAME=VALUE"),
        ("=value", 1, "is not NAME=VALUE"),
        ("1NAME=value", 1, "is not NAME=VALUE"),
        ("# fine\nTOKEN='unterminated", 2, "has a ' with no closing '"),
        ("TOKEN=\"unterminated", 1, "has a \" with no closing \""),
        ("TOKEN=\"$HOME\"", 1, "has a $ or ` in double quotes, which the shell would expand; use single quotes"),
        ("TOKEN=$HOME", 1, "has a character the shell treats specially outside quotes; put the value in single quotes"),
        (
            "TOKEN=a;reboot", 1,
            "has a character the shell treats specially outside quotes; put the value in single quotes"
        ),
        ("TOKEN=two words", 1, "has more after its value; put a value with spaces in single quotes"),
        ("TOKEN='a'b", 1, "has more after its value; put a value with spaces in single quotes"),
    ])
    func refusesALineTheShellWouldReadDifferently(text: String, line: Int, problem: String) throws {
        let path = try file(text + "\n")
        defer { unlink(path) }
        #expect(throws: EnvironmentFileError.badLine(path: path, line: line, problem: problem)) {
            try EnvironmentFile.read(path)
        }
    }

    @Test func aBadLineNamesItsNumberButNeverItsValue() throws {
        let path = try file("A=1\nTOKEN=secret-4711 more\n")
        defer { unlink(path) }
        do {
            _ = try EnvironmentFile.read(path)
            Issue.record("the file was accepted")
        } catch {
            #expect(
                error.description
                    == "the environment file \(path): line 2 has more after its value; put a value with spaces in single "
                    + "quotes. Write NAME=VALUE, NAME='VALUE' or export NAME=VALUE, one a line.")
            #expect(error.exitStatus == .configuration)
        }
    }

    @Test(arguments: [
        (mode_t(0o644), "644", "others can read it"),
        (0o620, "620", "its group can write it"),
        (0o606, "606", "others can read it, others can write it"),
        (0o666, "666", "its group can write it, others can read it, others can write it"),
    ])
    func refusesAFileOthersCanReadOrAnyoneButItsOwnerWrite(mode: mode_t, octal: String, who: String) throws {
        let path = try file("STOCKTAKE_TOKEN_NORTH=secret\n", mode: mode)
        defer { unlink(path) }
        do {
            _ = try EnvironmentFile.read(path)
            Issue.record("the file was accepted")
        } catch {
            #expect(error == .unsafeMode(path: path, mode: UInt32(S_IFREG | mode)))
            #expect(
                error.description
                    == "refusing the environment file \(path): it has mode \(octal) and \(who), but it may hold tokens. "
                    + "Run chmod 600 \(path) (or 640 to let its group read it).")
            #expect(!error.description.contains("secret"))
            #expect(error.exitStatus == .configuration)
        }
    }

    @Test func acceptsAFileItsGroupMayRead() throws {
        let path = try file("A=1\n", mode: 0o640)
        defer { unlink(path) }
        #expect(try EnvironmentFile.read(path) == ["A": "1"])
    }

    @Test func aMissingFileOrAFolderIsNamed() throws {
        let missing = NSTemporaryDirectory() + "no-such-env-\(UUID().uuidString)"
        #expect(throws: EnvironmentFileError.unreadable(path: missing, reason: "no such file or directory")) {
            try EnvironmentFile.read(missing)
        }
        #expect(
            EnvironmentFileError.unreadable(path: missing, reason: "no such file or directory").description
                == "cannot read the environment file \(missing): no such file or directory. "
                + "Check the path given to --env-file.")
        let folder = NSTemporaryDirectory() + "env-folder-\(UUID().uuidString)"
        try #require(mkdir(folder, 0o700) == 0)
        defer { rmdir(folder) }
        #expect(throws: EnvironmentFileError.notAFile(path: folder)) { try EnvironmentFile.read(folder) }
        #expect(
            EnvironmentFileError.notAFile(path: folder).description
                == "the environment file \(folder) is not a regular file. Give --env-file the file itself.")
    }
}
