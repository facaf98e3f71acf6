import Foundation
import SwitchboardFuzz

#if FUZZING
import CLibFuzzer

/// One input, as libFuzzer calls it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzChecks.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// Runs libFuzzer over the checks; `scripts/fuzz` builds this with `-sanitize=fuzzer -DFUZZING`.
@main
struct Fuzz {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput))
    }
}
#else
/// Without libFuzzer: replays the files named (or every file in the folders named) through
/// the checks, as the fuzzer would run them.
@main
struct ReplayFuzzInputs {
    static func main() throws {
        let paths = CommandLine.arguments.dropFirst()
        guard !paths.isEmpty else {
            print("usage: switchboard-fuzz FILE_OR_FOLDER...   (scripts/fuzz runs the fuzzer itself)")
            return
        }
        var count = 0
        for path in paths {
            for file in try FuzzCorpus.files(at: path) {
                FuzzChecks.run(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
                count += 1
            }
        }
        print("\(count) inputs replayed, all checks held")
    }
}
#endif
