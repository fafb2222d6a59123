// swift-tools-version:6.0
import PackageDescription

// Dependency direction, top to bottom (see DECISIONS.md):
//   Concurrent (Locked, Parallel.map; no dependencies, used by every module)
//   C shims -> MediaFormats (pure Swift) -> LivePairing -> Imaging / VideoPlayback -> TerminalGraphics
//   -> LibrarySources -> Library -> BrowserCore -> BrowserRuntime -> TerminalUI -> livegrid
// TerminalProtocol (pure: input decoding, terminal replies, tmux facts, the graphics decision, escape sequences)
// depends on Concurrent only; TerminalGraphics, BrowserCore, BrowserRuntime and TerminalUI use it.
// BrowserRuntime holds the services that never draw (no curses); TerminalUI only draws and reads the terminal.
// Only TerminalUI imports CNCurses; only TerminalGraphics imports CChafa; only LibrarySources imports CCurl;
// Imaging and LibrarySources import CGLib for GChecksum only (GLib is loaded anyway, by chafa);
// the media core imports no C.

/// Modules that touch C pointers all day keep the Swift 5 language mode: strict sendability checking of
/// OpaquePointer-heavy code buys nothing there. Pure-Swift modules use Swift 6 mode (Concurrent, MediaFormats,
/// LivePairing, VideoPlayback, Library, livegrid); BrowserCore and TerminalUI follow with the runtime rework.
let cModuleSettings: [SwiftSetting] = [.swiftLanguageMode(.v5)]

let package = Package(
    name: "livegrid",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "livegrid", targets: ["livegrid"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // MARK: C shims (system libraries through pkg-config)
        // No pkgConfig: ncursesw.pc only adds -D_DEFAULT_SOURCE/-D_XOPEN_SOURCE, which SwiftPM refuses (a warning on
        // every build); the shim defines what the wide-character API needs and the headers are in /usr/include.
        .systemLibrary(name: "CNCurses"),
        .systemLibrary(name: "CChafa", pkgConfig: "chafa", providers: [.apt(["libchafa-dev", "libglib2.0-dev"])]),
        // libav* and libheif: headers only (no pkgConfig, whose -l flags would load them at start-up);
        // CCodecLoader defines the functions livegrid calls and binds them with dlopen on first use.
        .systemLibrary(name: "CFFmpeg"),
        .systemLibrary(name: "CHeif"),
        .target(name: "CCodecLoader"),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        // libjpeg's buffered-image mode for progressive JPEGs (TurboJPEG cannot stop after some scans); C because
        // libjpeg reports errors with longjmp.
        .target(name: "CJPEGScans", linkerSettings: [.linkedLibrary("jpeg")]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // GChecksum (MD5/SHA-256 of cache names); GLib is linked anyway through chafa.
        .systemLibrary(name: "CGLib", pkgConfig: "glib-2.0", providers: [.apt(["libglib2.0-dev"])]),
        // SQLite for the persistent library index (LibraryIndex only).
        // glibc's mallopt (malloc.h), for the executable's allocator tuning: part of libc, nothing to link.
        .systemLibrary(name: "CAllocator"),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),

        // MARK: concurrency toolkit (no dependencies): Locked<Value> and Parallel.map, used by every module
        .target(name: "Concurrent"),
        // MARK: terminal protocol (pure: input decoding, terminal replies, tmux facts, the graphics decision,
        // escape sequences)
        .target(name: "TerminalProtocol", dependencies: ["Concurrent"]),

        // MARK: pure-Swift media core
        .target(name: "MediaFormats", dependencies: ["Concurrent"]),
        .target(name: "LivePairing", dependencies: ["Concurrent", "MediaFormats"]),

        // MARK: pixels
        .target(name: "Imaging", dependencies: ["Concurrent", "MediaFormats", "CTurboJPEG", "CJPEGScans", "CHeif", "CFFmpeg", "CCodecLoader", "CPNG", "CGLib"],
                swiftSettings: cModuleSettings),
        .target(name: "VideoPlayback", dependencies: ["Concurrent", "MediaFormats", "Imaging", "CCodecLoader"]),
        .target(name: "TerminalGraphics", dependencies: ["Imaging", "CChafa", "TerminalProtocol"],
                swiftSettings: cModuleSettings),

        // MARK: library
        .target(name: "LibrarySources", dependencies: ["Concurrent", "MediaFormats", "CCurl", "CGLib"], swiftSettings: cModuleSettings),
        .target(name: "LibraryIndex", dependencies: ["CSQLite", "Concurrent", "MediaFormats"], swiftSettings: cModuleSettings),
        .target(name: "Library", dependencies: ["Concurrent", "MediaFormats", "LivePairing", "LibrarySources", "LibraryIndex"]),

        // The Live Photo studio's editing shared by `livegrid edit` and the browser's key-photo mode.
        .target(name: "LiveStudio", dependencies: ["Imaging", "Library", "LivePairing", "MediaFormats"]),
        // MARK: UI
        .target(name: "BrowserCore", dependencies: ["Library", "LivePairing", "LibrarySources", "MediaFormats", "TerminalGraphics",
                                                  "TerminalProtocol"]),
        // Services apart from drawing (no curses): the event loop's wake-up and timers, the picture pipeline,
        // the remote session, the triage worker, the playback engine driver.
        .target(name: "BrowserRuntime",
                dependencies: ["BrowserCore", "Concurrent", "TerminalGraphics", "TerminalProtocol", "VideoPlayback", "Imaging", "Library", "LibrarySources",
                               "LivePairing", "LiveStudio", "MediaFormats"]),
        .target(name: "TerminalUI",
                dependencies: ["BrowserCore", "BrowserRuntime", "Concurrent", "TerminalProtocol", "TerminalGraphics", "VideoPlayback", "Library", "LibrarySources", "LivePairing",
                               "MediaFormats", "CNCurses"],
                swiftSettings: cModuleSettings),

        // MARK: the executable
        .executableTarget(
            name: "livegrid",
            dependencies: [
                "Concurrent", "MediaFormats", "LivePairing", "Imaging", "VideoPlayback", "TerminalGraphics", "TerminalProtocol",
                "LibrarySources", "LibraryIndex", "Library", "LiveStudio", "BrowserCore", "BrowserRuntime", "TerminalUI",
                "CAllocator", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: benchmarks (run by Benchmarks/*.sh, not by the tests)
        .executableTarget(name: "remote-bench", dependencies: ["Concurrent", "Library", "LibrarySources"],
                          path: "Benchmarks/RemoteBench"),

        // MARK: tests
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "ConcurrentTests", dependencies: ["Concurrent"]),
        .testTarget(name: "MediaFormatsTests", dependencies: ["TestSupport", "MediaFormats"]),
        .testTarget(name: "LivePairingTests", dependencies: ["LivePairing", "MediaFormats"]),
        .testTarget(name: "ImagingTests", dependencies: ["TestSupport", "Imaging", "MediaFormats", "CTurboJPEG", "CJPEGScans"], swiftSettings: cModuleSettings),
        .testTarget(name: "VideoPlaybackTests", dependencies: ["TestSupport", "Concurrent", "VideoPlayback", "Imaging", "MediaFormats"],
                    swiftSettings: cModuleSettings),
        .testTarget(name: "TerminalProtocolTests", dependencies: ["TerminalProtocol"]),
        .testTarget(name: "TerminalGraphicsTests", dependencies: ["TestSupport", "TerminalGraphics", "TerminalProtocol", "Imaging", "MediaFormats"],
                    swiftSettings: cModuleSettings),
        .testTarget(name: "LibraryTests", dependencies: ["TestSupport", "Concurrent", "Library", "LibraryIndex", "LibrarySources", "LivePairing", "MediaFormats"],
                    swiftSettings: cModuleSettings),
        .testTarget(name: "BrowserCoreTests", dependencies: ["TestSupport", "BrowserCore", "TerminalProtocol", "Library", "LibrarySources", "LivePairing",
                                                          "MediaFormats", "TerminalGraphics"], swiftSettings: cModuleSettings),
        .testTarget(name: "BrowserRuntimeTests", dependencies: ["TestSupport", "Concurrent", "BrowserRuntime", "BrowserCore", "TerminalGraphics", "TerminalProtocol",
                                                             "Imaging", "LivePairing", "MediaFormats", "VideoPlayback",
                                                             "Library", "LibrarySources"]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "BrowserRuntime", "BrowserCore", "TerminalGraphics", "TerminalProtocol",
                                                         "Library", "LivePairing", "MediaFormats", "CNCurses"],
                    swiftSettings: cModuleSettings),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport", "livegrid", "TerminalUI", "BrowserRuntime", "TerminalProtocol", "TerminalGraphics", "BrowserCore", "LivePairing", "MediaFormats", "Library", "LibraryIndex", "Imaging"],
                    swiftSettings: cModuleSettings),
    ]
)
