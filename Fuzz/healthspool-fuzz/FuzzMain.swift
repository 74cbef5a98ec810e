import HealthSpoolLinux
#if canImport(Glibc)
import Glibc
#endif
import CFuzzDriver

/// The fuzz binary (docs/fuzzing.md): `healthspool-fuzz TARGET [libFuzzer flags] [corpus dirs]`
/// fuzzes one entry point; `healthspool-fuzz dump-zip FILE…` prints what the zip reader makes of
/// each file (for the cross-check against Python's zipfile); `healthspool-fuzz list` names the
/// targets. One sanitized build serves every target.
@main
enum FuzzMain {
    nonisolated(unsafe) static var target: FuzzTarget?

    static func main() {
        let args = CommandLine.arguments
        guard args.count >= 2 else { usage() }
        switch args[1] {
        case "list":
            for t in FuzzTarget.all { print("\(t.name)\t\(t.summary)") }
            exit(0)
        case "dump-zip":
            exit(ZipDump.run(Array(args.dropFirst(2))))
        default:
            guard let t = FuzzTarget.named(args[1]) else { usage() }
            target = t
        }
        // libFuzzer sees the command line without the target name.
        var argc = CommandLine.argc - 1
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: Int(argc) + 1)
        argv![0] = CommandLine.unsafeArgv[0]
        for i in 2..<Int(CommandLine.argc) { argv![i - 1] = CommandLine.unsafeArgv[i] }
        argv![Int(argc)] = nil
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            FuzzMain.target!.run(UnsafeRawBufferPointer(start: data, count: size))
            return 0
        })
    }

    static func usage() -> Never {
        let names = FuzzTarget.all.map(\.name).joined(separator: " ")
        StandardError.write("usage: healthspool-fuzz TARGET [libFuzzer flags] [corpus dir…] | dump-zip FILE… | list\ntargets: \(names)\n")
        exit(2)
    }
}
