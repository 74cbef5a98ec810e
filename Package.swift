// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "healthspool",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "healthspool", targets: ["healthspool"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // The local web interface only (HealthSpoolWeb); no traits: swift-configuration and full
        // Foundation are not needed and cost build minutes.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Already in the graph through Hummingbird: the web interface's connection guard is a NIO
        // channel handler over Hummingbird's HTTP parts (WebConnectionGuard.swift).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
        // The web pages' templates (HealthSpoolWeb only): Mustache, HTML escaping on by default.
        // It imports full Foundation (NSLock, NSNull), which the rest of the package avoids.
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        // The one lock type (a mutex with a condition), for the few threads that block on purpose.
        .target(name: "HealthSpoolLock"),
        // The domain: no file system, no clock; its one C library is libcrypto, for SHA-256.
        .target(
            name: "HealthSpoolCore", dependencies: ["CCrypto", "HealthSpoolLock"]
        ),
        // Parsers: bytes in, samples out. Both targets build with dynamic exclusivity checks; the
        // Apple Health scanner's hot stored properties alone are `@exclusivity(unchecked)` (see
        // XMLTagScanner.swift; measured in BENCHMARKS.md, "Exclusivity checks (paired)").
        .target(
            name: "HealthExport", dependencies: ["HealthSpoolCore", "HealthSpoolLock", "CZlib"]
        ),

        // System libraries, each imported by exactly one adapter target.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),

        .target(name: "HealthSpoolStore", dependencies: ["HealthSpoolCore", "HealthSpoolLock", "CSQLite"]),
        .target(name: "HealthSpoolGateway", dependencies: ["HealthSpoolCore", "CCurl", "CZlib"]),
        .target(
            name: "HealthSpoolLinux",
            dependencies: ["HealthSpoolCore", "CSystemd", .product(name: "Logging", package: "swift-log")]
        ),
        // The configuration value, the clock and the store pool: what the web, the CLI and the ingest
        // endpoint need, without depending on the daemon.
        .target(
            name: "HealthSpoolConfig",
            dependencies: ["HealthSpoolCore", "HealthSpoolLock", "HealthSpoolStore", "HealthSpoolGateway", "HealthSpoolLinux"]
        ),
        // The person's journal as one feature: its use cases and view models (symptoms, doses,
        // reminders, goals, notes, measurements, days, the doctor's report) and its tables' queries
        // (JournalStore, on HealthSpoolStore's connection). Not the daemon: the web and the CLI call it directly.
        .target(
            name: "HealthJournal",
            dependencies: ["HealthSpoolCore", "HealthSpoolStore", "HealthSpoolLinux", "HealthSpoolConfig"]
        ),
        .target(
            name: "HealthSpoolDaemon",
            dependencies: [
                "HealthSpoolCore", "HealthSpoolLock", "HealthExport", "HealthSpoolStore", "HealthSpoolGateway", "HealthSpoolLinux",
                "HealthSpoolConfig", "HealthJournal",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // The local web interface: the only importer of Hummingbird; calls the same use cases as the CLI.
        // Not HealthSpoolStore: the pages get the journal's and the daemon's use cases and view models
        // (a connection borrowed from the StorePool comes as a LentStore); `make build` checks the imports.
        .target(
            name: "HealthSpoolWeb",
            dependencies: [
                "HealthSpoolCore", "HealthSpoolGateway", "HealthSpoolLinux", "HealthSpoolConfig", "HealthJournal", "HealthSpoolDaemon",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            // Templates/ and Assets/ are not compiled: EmbedWebFiles writes them into the binary as strings.
            exclude: ["Templates", "Assets"],
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: ["EmbedWebFiles"]
        ),
        // The build tool that embeds the web interface's templates, style sheets and scripts (one
        // binary, no files beside it; `Bundle.module` would need full Foundation), and its plugin.
        .executableTarget(name: "embed-web-files"),
        .plugin(name: "EmbedWebFiles", capability: .buildTool(), dependencies: ["embed-web-files"]),
        // The ingest endpoint's TLS over the system's libssl (no BoringSSL build): accept, read, write,
        // the self-signed certificate. Imported by HealthSpoolIngest only.
        .target(name: "CTLSServer", linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]),
        // The optional HTTPS endpoint Health Auto Export pushes to; each body lands in the spool.
        .target(
            name: "HealthSpoolIngest",
            dependencies: [
                "CTLSServer", "HealthSpoolCore", "HealthSpoolLock", "HealthExport", "HealthSpoolLinux", "HealthSpoolConfig",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "healthspool",
            dependencies: [
                "HealthSpoolCore", "HealthSpoolGateway", "HealthSpoolLinux", "HealthSpoolConfig", "HealthJournal", "HealthSpoolDaemon",
                "HealthSpoolWeb", "HealthSpoolIngest",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Each target lists every target of the package it imports (scripts/check-imports.py).
        .testTarget(name: "HealthSpoolCoreTests", dependencies: ["HealthSpoolCore"]),
        .testTarget(name: "HealthExportTests", dependencies: ["HealthExport", "HealthSpoolCore", "CZlib"], resources: [.copy("Golden")]),
        .testTarget(name: "HealthSpoolStoreTests", dependencies: ["HealthSpoolStore", "HealthSpoolCore"]),
        .testTarget(
            name: "HealthSpoolDaemonTests",
            dependencies: [
                "HealthSpoolDaemon", "HealthSpoolConfig", "HealthJournal", "HealthSpoolCore", "HealthSpoolGateway", "HealthSpoolLinux",
                "HealthSpoolStore",
            ]
        ),
        // The journal's use cases on a real store in a temporary directory; the FHIR golden bundle in Golden/.
        .testTarget(
            name: "HealthJournalTests",
            dependencies: ["HealthJournal", "HealthSpoolConfig", "HealthSpoolCore", "HealthSpoolLinux", "HealthSpoolStore"],
            exclude: ["Golden"]
        ),
        .testTarget(name: "HealthSpoolGatewayTests", dependencies: ["HealthSpoolGateway", "HealthSpoolCore"]),
        // The adapters over the kernel, tested on the real thing: files in a temporary directory.
        .testTarget(name: "HealthSpoolLinuxTests", dependencies: ["HealthSpoolLinux", "HealthSpoolCore"]),
        // The one lock on real threads.
        .testTarget(name: "HealthSpoolLockTests", dependencies: ["HealthSpoolLock"]),
        // The store pool the web, the CLI and the daemon borrow connections from, on stores in a temporary directory.
        .testTarget(name: "HealthSpoolConfigTests", dependencies: ["HealthSpoolConfig", "HealthSpoolCore", "HealthSpoolLinux", "HealthSpoolStore"]),
        // The ingest server's TLS and the gateway's libcurl client, both real, on the loopback.
        .testTarget(
            name: "HealthSpoolIngestTests",
            dependencies: ["HealthSpoolIngest", "HealthSpoolCore", "HealthSpoolLinux", "HealthSpoolGateway", "CTLSServer",
                           .product(name: "Logging", package: "swift-log")]
        ),
        // The routes driven through the router's responder in the process (RouterClient.swift). Not
        // HummingbirdTesting: it brings AsyncHTTPClient, and with it NIOSSL's BoringSSL, NIOHTTP2 and
        // swift-configuration, compiled for the tests alone (issue 41: the test command's CPU time).
        .testTarget(
            name: "HealthSpoolWebTests",
            dependencies: [
                "HealthSpoolWeb", "HealthSpoolCore", "HealthSpoolLock", "HealthSpoolLinux", "HealthSpoolConfig", "HealthJournal",
                "HealthSpoolDaemon", .product(name: "Hummingbird", package: "hummingbird"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
            ],
            // The doctor's summary as it was before its sections became templates (ReportGoldenTests).
            exclude: ["Golden"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The tests' `@testable import` on a release build too (issue 41: `make build` is one release build
// that the tests, the benchmarks and the .deb share, scripts/swift-release.sh): -enable-testing on
// this package's own targets only. (Passed as -Xswiftc it would reach NIO, Hummingbird, … as well,
// whose compilation it makes about a quarter slower; a debug build has it on every target anyway.)
for target in package.targets where target.type == .regular || target.type == .executable {
    guard target.name != "embed-web-files", target.name != "CTLSServer" else { continue }
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-enable-testing"])]
}

// The fuzz targets (docs/fuzzing.md): one libFuzzer binary, only when HEALTHSPOOL_FUZZ=1 (`make fuzz`
// builds it in .build-release, with the one release build's flags); a plain `swift build` never sees it. The sanitizers
// (-sanitize=fuzzer,address: coverage for libFuzzer, AddressSanitizer's checks) go on this package's
// own targets only: the third-party packages (NIO, Hummingbird, …) compile as in any release build,
// without instrumentation (issue 41: less compiling). The binary links both runtimes, so ASan still
// watches every allocation; only the accesses made inside third-party code go unchecked.
//
// HEALTHSPOOL_FUZZ_OPT picks our targets' optimization: -O (the default, `make fuzz`'s long runs:
// more inputs a second) or -Onone (`make fuzz-smoke`: compiles in a quarter of the CPU time; the
// smoke's 30 s a target find what is shallow, and the run checks that every target still works).
if Context.environment["HEALTHSPOOL_FUZZ"] == "1" {
    let optimization = Context.environment["HEALTHSPOOL_FUZZ_OPT"] == "-Onone" ? "-Onone" : "-O"
    let sanitized: [String] = ["-sanitize=fuzzer,address", optimization]
    for target in package.targets where target.type == .regular || target.type == .executable {
        // Not the web files' build tool (run at build time only) nor the C target (clang's flags).
        guard target.name != "embed-web-files", target.name != "CTLSServer" else { continue }
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(sanitized)]
    }
    // The web target drives the router without a socket: an EmbeddedChannel for the request context.
    package.dependencies.append(.package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"))
    package.targets.append(.target(name: "CFuzzDriver", path: "Fuzz/CFuzzDriver"))
    package.targets.append(.executableTarget(
        name: "healthspool-fuzz",
        dependencies: [
            "CFuzzDriver", "HealthSpoolCore", "HealthExport", "HealthSpoolGateway", "HealthSpoolLinux", "HealthSpoolConfig", "HealthJournal",
            "HealthSpoolDaemon", "HealthSpoolWeb",
            "HealthSpoolIngest",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ],
        path: "Fuzz/healthspool-fuzz",
        swiftSettings: [.unsafeFlags(["-parse-as-library"] + sanitized)],
        // The link brings in libFuzzer's driver and the ASan runtime. gold stops with an internal
        // error on this link; lld (shipped with Swift) does it.
        linkerSettings: [.unsafeFlags(["-use-ld=lld", "-sanitize=fuzzer,address"])]
    ))
    package.products.append(.executable(name: "healthspool-fuzz", targets: ["healthspool-fuzz"]))
}
