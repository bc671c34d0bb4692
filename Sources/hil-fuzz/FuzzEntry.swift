import FuzzTargets
import Foundation

/// The decoders every input goes through: `HIL_FUZZ_TARGET` (hid, udp, control or all; unset: all), read once.
/// An unknown value ends the program before any input is run.
let selectedTarget: FuzzTarget = {
    let value = ProcessInfo.processInfo.environment[FuzzTarget.environmentVariable]
    guard let target = FuzzTarget(environment: value) else {
        FileHandle.standardError.write(Data(
            "hil-fuzz: \(FuzzTarget.environmentVariable)=\(value ?? "") is not one of \(FuzzTarget.choices)\n".utf8))
        exit(64)
    }
    return target
}()

/// libFuzzer's entry point: built with `-sanitize=fuzzer,address -DFUZZING` by Fuzz/run.sh.
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    selectedTarget.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
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
    FileHandle.standardError.write(Data("hil-fuzz: target \(selectedTarget.rawValue)\n".utf8))
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
}
#else
/// Without libFuzzer: replays corpus files (or folders of them) through the same target, so a crash found by
/// fuzzing stays a regression test: `swift run hil-fuzz Fuzz/corpus` (every target: `all` is their union), or
/// one target's invariants only: `HIL_FUZZ_TARGET=hid swift run hil-fuzz Fuzz/crashes/crash-…`.
@main
struct ReplayCorpus {
    static func main() throws {
        let paths = CommandLine.arguments.dropFirst()
        let target = selectedTarget
        guard !paths.isEmpty else {
            FileHandle.standardError.write(Data("usage: [HIL_FUZZ_TARGET=\(FuzzTarget.choices)] hil-fuzz FILE_OR_FOLDER... (fuzzing itself: bash Fuzz/run.sh SECONDS)\n".utf8))
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
                target.run(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
                count += 1
            }
        }
        print("hil-fuzz: \(count) input(s) replayed through \(target.rawValue), no invariant broken")
    }
}
#endif
