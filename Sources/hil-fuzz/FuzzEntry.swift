import FuzzTargets
import Foundation

/// libFuzzer's entry point: built with `-sanitize=fuzzer,address -DFUZZING` by Fuzz/run.sh.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    DecoderFuzz.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

#if FUZZING
/// libFuzzer's driver (in libclang_rt.fuzzer). SwiftPM links an executable's entry point as `hil_fuzz_main`
/// (and `main` to it), which keeps libFuzzer's own `main` out; this entry point hands over to the driver.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

@_cdecl("hil_fuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
}
#else
/// Without libFuzzer: replays corpus files (or folders of them) through the same target, so a crash found by
/// fuzzing stays a regression test: `swift run hil-fuzz Fuzz/corpus`.
@main
struct ReplayCorpus {
    static func main() throws {
        let paths = CommandLine.arguments.dropFirst()
        guard !paths.isEmpty else {
            FileHandle.standardError.write(Data("usage: hil-fuzz FILE_OR_FOLDER... (fuzzing itself: bash Fuzz/run.sh SECONDS)\n".utf8))
            exit(64)
        }
        var count = 0
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                FileHandle.standardError.write(Data("hil-fuzz: \(path): no such file or folder\n".utf8))
                exit(1)
            }
            let files = isDirectory.boolValue
                ? try FileManager.default.contentsOfDirectory(atPath: path).sorted().map { path + "/" + $0 } : [path]
            for file in files {
                DecoderFuzz.run(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
                count += 1
            }
        }
        print("hil-fuzz: \(count) input(s) replayed, no invariant broken")
    }
}
#endif
