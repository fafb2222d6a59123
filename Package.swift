// swift-tools-version:6.0
import PackageDescription

// Dependency direction, top to bottom (see DECISIONS.md):
//   Concurrent (Locked, Parallel.map; no dependencies, used by every module)
//   C shims -> MediaFormats (pure Swift) -> LivePairing -> Imaging / VideoPlayback -> TerminalGraphics
//   LivePairing -> LibraryCore (pure) -> LibrarySources -> Library
//   GraphicsSettings + LibraryCore -> BrowserCore (pure) -> BrowserRuntime -> TerminalUI -> livegrid
// TerminalProtocol (pure: input decoding, terminal replies, tmux facts, the graphics decision, escape sequences)
// depends on Concurrent only; GraphicsSettings (the words of picture settings: mode, colours, badge) is TerminalProtocol's
// only user below TerminalGraphics, so the config in BrowserCore names them without the renderer.
// No C below: Concurrent, TerminalProtocol, GraphicsSettings, MediaFormats, LivePairing (checked, with the C each
// other module may reach, by scripts/check-package-imports.py), nor below LibraryCore (what of a library needs no
// C) and BrowserCore (the reducer), whose tests link no C library.
// BrowserRuntime holds the services that never draw (no curses); TerminalUI only draws and reads the terminal.
// Only TerminalUI imports CNCurses; only TerminalGraphics imports CChafa; only LibrarySources imports CCurl;
// Imaging and LibrarySources import CGLib for GChecksum only (GLib is loaded anyway, by chafa);
// the media core imports no C.

/// Swift 5 language mode, for the three targets that do not compile in Swift 6 mode yet: LibrarySources
/// (CurlEngine hands its non-Sendable CurlTransfer to a @Sendable closure), TerminalUI (curses' globals
/// `curscr`, `COLS`, `LINES` are shared mutable C state) and ImagingTests (ThumbnailSchedulerTests captures the
/// non-Sendable test case in @Sendable closures); TerminalUITests likewise (TmuxGraphicsTests). Every other
/// target, C-facing or not (Imaging, TerminalGraphics, LibraryIndex), builds in Swift 6 mode.
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
        // MARK: the words of picture settings (graphics mode, colour depth, badge corner and style): values
        // with no C below them, so the config (BrowserCore) needs no renderer
        .target(name: "GraphicsSettings", dependencies: ["TerminalProtocol"]),

        // MARK: pure-Swift media core
        .target(name: "MediaFormats", dependencies: ["Concurrent"]),
        .target(name: "LivePairing", dependencies: ["Concurrent", "MediaFormats"]),

        // MARK: pixels
        .target(name: "Imaging", dependencies: ["Concurrent", "MediaFormats", "CTurboJPEG", "CJPEGScans", "CHeif", "CFFmpeg", "CCodecLoader", "CPNG", "CGLib"]),
        .target(name: "VideoPlayback", dependencies: ["Concurrent", "MediaFormats", "Imaging", "CCodecLoader"]),
        .target(name: "TerminalGraphics", dependencies: ["GraphicsSettings", "Imaging", "CChafa", "TerminalProtocol"]),

        // MARK: library
        // What of a library needs no C: local file operations (copy, move, trash), triage values and undo
        // records, scan results, remote entries, items and download states. The browser's state needs no more.
        .target(name: "LibraryCore", dependencies: ["LivePairing", "MediaFormats"]),
        .target(name: "LibrarySources", dependencies: ["Concurrent", "LibraryCore", "MediaFormats", "CCurl", "CGLib"], swiftSettings: cModuleSettings),
        .target(name: "LibraryIndex", dependencies: ["CSQLite", "Concurrent", "MediaFormats"]),
        .target(name: "Library", dependencies: ["Concurrent", "LibraryCore", "MediaFormats", "LivePairing", "LibrarySources", "LibraryIndex"]),

        // The Live Photo studio's editing shared by `livegrid edit` and the browser's key-photo mode.
        .target(name: "LiveStudio", dependencies: ["Imaging", "Library", "LivePairing", "MediaFormats"]),
        // MARK: UI
        .target(name: "BrowserCore", dependencies: ["GraphicsSettings", "LibraryCore", "LivePairing", "MediaFormats", "TerminalProtocol"]),
        // Services apart from drawing (no curses): the event loop's wake-up and timers, the picture pipeline,
        // the remote session, the triage worker, the playback engine driver.
        .target(name: "BrowserRuntime",
                dependencies: ["BrowserCore", "Concurrent", "GraphicsSettings", "LibraryCore", "TerminalGraphics", "TerminalProtocol", "VideoPlayback", "Imaging", "Library", "LibrarySources",
                               "LivePairing", "LiveStudio", "MediaFormats"]),
        .target(name: "TerminalUI",
                dependencies: ["BrowserCore", "BrowserRuntime", "Concurrent", "GraphicsSettings", "LibraryCore", "TerminalProtocol", "TerminalGraphics", "VideoPlayback", "Library", "LibrarySources", "LivePairing",
                               "MediaFormats", "CNCurses"],
                swiftSettings: cModuleSettings),

        // MARK: the executable
        .executableTarget(
            name: "livegrid",
            dependencies: [
                "Concurrent", "MediaFormats", "LivePairing", "Imaging", "VideoPlayback", "GraphicsSettings", "TerminalGraphics", "TerminalProtocol",
                "LibraryCore", "LibrarySources", "LibraryIndex", "Library", "LiveStudio", "BrowserCore", "BrowserRuntime", "TerminalUI",
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
        .testTarget(name: "ImagingTests", dependencies: ["TestSupport", "Concurrent", "Imaging", "MediaFormats", "CTurboJPEG", "CJPEGScans"], swiftSettings: cModuleSettings),
        .testTarget(name: "VideoPlaybackTests", dependencies: ["TestSupport", "Concurrent", "VideoPlayback", "Imaging", "MediaFormats"]),
        .testTarget(name: "TerminalProtocolTests", dependencies: ["TerminalProtocol"]),
        .testTarget(name: "TerminalGraphicsTests", dependencies: ["TestSupport", "GraphicsSettings", "TerminalGraphics", "TerminalProtocol", "Imaging", "MediaFormats"]),
        .testTarget(name: "LibraryTests", dependencies: ["TestSupport", "Concurrent", "Library", "LibraryCore", "LibraryIndex", "LibrarySources", "LivePairing", "MediaFormats"]),
        .testTarget(name: "BrowserCoreTests", dependencies: ["TestSupport", "BrowserCore", "GraphicsSettings", "TerminalProtocol", "LibraryCore",
                                                          "LivePairing", "MediaFormats"]),
        .testTarget(name: "BrowserRuntimeTests", dependencies: ["TestSupport", "Concurrent", "BrowserRuntime", "BrowserCore", "TerminalGraphics", "TerminalProtocol",
                                                             "Imaging", "LivePairing", "MediaFormats", "VideoPlayback",
                                                             "Library", "LibraryCore", "LibrarySources"]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "BrowserRuntime", "Concurrent", "BrowserCore", "GraphicsSettings", "TerminalGraphics", "TerminalProtocol",
                                                         "Library", "LibraryCore", "LivePairing", "MediaFormats", "CNCurses", "Imaging"],
                    swiftSettings: cModuleSettings),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport", "livegrid", "TerminalUI", "BrowserRuntime", "TerminalProtocol", "TerminalGraphics", "BrowserCore", "LivePairing", "MediaFormats", "Library", "LibraryCore", "LibraryIndex", "Imaging"]),
    ]
)
