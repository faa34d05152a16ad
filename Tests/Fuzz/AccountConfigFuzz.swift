// libFuzzer target: the account-config decoder (`account.json`: JSON, known keys, types, ranges, paths, providers),
// on arbitrary bytes written as an account's account.json. Every problem must be a sentence that names the account.
// Built by `make fuzz`, never by `swift build`.
import Foundation
import StocktakeJob

/// The account folder the target writes into: one per process, in memory when /dev/shm exists.
private let accountFolder: String = {
    let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    let folder = "\(base)/stocktake-fuzz-\(getpid())/acme"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    FileManager.default.createFile(atPath: folder + "/central.csv", contents: Data("VT Tag\n000001\n".utf8))
    return folder
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAccountConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = accountFolder + "/account.json"
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size)) else {
        fatalError("cannot write \(path)")
    }
    for problem in AccountConfig.problems(folder: accountFolder) {
        let sentence = problem.description
        if sentence.isEmpty || !sentence.contains("acme") {
            fatalError("a configuration problem that does not name its account: \(sentence.debugDescription)")
        }
    }
    return 0
}
