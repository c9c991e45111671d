// swift-tools-version: 6.1
// Lectern: a fullscreen PDF reader for touchscreen kiosks (Wayland, MuPDF, Pixman).
import PackageDescription

/// MuPDF is static only on Debian; this is the link order that resolves.
/// The libraries only MuPDF uses are linked statically too (`-l:libNAME.a`, Debian's -dev
/// packages ship them): five shared libraries fewer to load and relocate at every start.
/// zlib stays shared. HarfBuzz and FreeType are not linked at all: fcft loads them as well, and
/// two copies in one process would not share their state, so they are loaded with dlopen when
/// MuPDF first calls them (CFontLibraries).
let mupdfLibraries: [LinkerSetting] = [
    "mupdf", "mupdf-third", ":libmujs.a", ":libgumbo.a", ":libopenjp2.a", ":libjbig2dec.a", ":libjpeg.a", "z", "m",
].map { .linkedLibrary($0) }

let package = Package(
    name: "Lectern",
    products: [
        .executable(name: "lectern", targets: ["lectern"]),
        .executable(name: "lectern-bench", targets: ["lectern-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.1.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        // C: system libraries and shims.
        .systemLibrary(name: "CWaylandClient", pkgConfig: "wayland-client"),
        .systemLibrary(name: "CWaylandServer", pkgConfig: "wayland-server"),
        .systemLibrary(name: "CPixman", pkgConfig: "pixman-1"),
        .systemLibrary(name: "CXKBCommon", pkgConfig: "xkbcommon"),
        // QR codes for web links (Debian libqrencode-dev).
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode"),
        // utf8proc folds case and accents for search, and gives the bidi classes that put
        // right-to-left text on screen in order (VisualOrder). No pkgConfig: its flags would link
        // the shared library; LecternPDF links the static one (Debian's libutf8proc-dev ships it).
        .systemLibrary(name: "CUTF8Proc"),
        // fcft is loaded with dlopen when text is first drawn (Sources/CFcft says why). Its
        // pkg-config flags carry a define SwiftPM rejects; its header needs only pixman's.
        .target(name: "CFcft", dependencies: ["CPixman"]),
        // HarfBuzz and FreeType, loaded by the render worker, not by every lectern process
        // (Sources/CFontLibraries says how): the functions MuPDF and CFontShaping call.
        .target(name: "CFontLibraries", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CMuPDF", dependencies: ["CFontLibraries"], linkerSettings: mupdfLibraries),
        // Large print measured in the render worker as fcft measures it (Sources/CFontShaping
        // says how): FreeType and HarfBuzz, which MuPDF and fcft load already.
        .target(name: "CFontShaping", dependencies: ["CFontLibraries"]),
        .target(name: "CLecternLinux"),
        // glibc's gettext with the language chosen per call (Sources/CGettext/shim.c says how):
        // the chrome's catalogs, po/*.po compiled by msgfmt. Nothing to link: it is in libc.
        .target(name: "CGettext"),
        // The render worker's seccomp filter (Debian libseccomp-dev; static: one shared library
        // fewer to load at every start).
        .target(name: "CSeccomp", linkerSettings: [.linkedLibrary(":libseccomp.a")]),
        // espeak-ng and ALSA, loaded with dlopen in the speech process only (their headers say
        // why): Debian libespeak-ng-dev and libasound2-dev for the headers.
        .target(name: "CEspeakNG"),
        .target(name: "CALSA"),
        // Linux descriptors with one owner each (eventfd, timerfd, signalfd) and errno text,
        // shared by the modules that poll, wake and time things.
        .target(
            name: "LecternLinux",
            dependencies: ["CLecternLinux", "LecternCore", .product(name: "SystemPackage", package: "swift-system")]
        ),
        .target(
            name: "CWaylandProtocols",
            dependencies: ["CWaylandClient"],
            path: "protocols",
            exclude: ["xml", "server", "generate"],
            sources: ["src"],
            publicHeadersPath: "include"
        ),

        // Swift modules (README.md, "The repository").
        .target(
            name: "LecternCore",
            // The standard library's rounding and squareRoot call libm; nothing else here links it.
            linkerSettings: [.linkedLibrary("m")]
        ),
        .target(
            name: "LecternPDF",
            dependencies: [
                "CMuPDF", "CUTF8Proc", "LecternCore", "LecternLinux", .product(name: "Logging", package: "swift-log"),
            ],
            linkerSettings: [.linkedLibrary(":libutf8proc.a")]
        ),
        .target(
            name: "LecternRender",
            dependencies: [
                "LecternCore", "LecternPDF", "LecternLinux", "CLecternLinux", "CPixman", "CFcft", "CQRencode",
                "CUTF8Proc", "CGettext",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The document service: its client, wire protocol and server, and the render worker
        // process that runs the server (Process/), or the direct transport in process.
        .target(
            name: "LecternDocuments",
            dependencies: [
                "LecternCore", "LecternPDF", "LecternRender", "LecternLinux", "CLecternLinux", "CSeccomp",
                "CFontShaping", "CFontLibraries",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Speech: the client the kiosk calls on its loop, the wire, and the speech process
        // (espeak-ng into ALSA or a WAV file) that runs apart from the reader.
        .target(
            name: "LecternSpeech",
            dependencies: [
                "CEspeakNG", "CALSA", "CSeccomp", "LecternLinux",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "LecternWayland",
            dependencies: [
                "LecternCore", "LecternLinux", "CWaylandClient", "CWaylandProtocols", "CXKBCommon", "CLecternLinux",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The policy file: its keys, parsing and checks, and the configuration they fill. Pure:
        // `lectern --check-config` needs nothing else.
        .target(
            name: "LecternPolicy",
            dependencies: [
                "LecternCore", "LecternLinux",
                // The policy file (PolicyFile.swift says why this library).
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]
        ),
        .target(
            name: "LecternKiosk",
            dependencies: [
                "LecternCore", "LecternPDF", "LecternRender", "LecternWayland", "LecternLinux",
                "LecternDocuments", "LecternPolicy", "LecternSpeech",
                // The metrics file (KioskMetrics.swift says why these).
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                // Input→present percentiles (FramePresenter+Presentation.swift).
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "lectern",
            dependencies: [
                "LecternKiosk", "LecternPolicy", "LecternCore", "LecternLinux", "LecternDocuments", "LecternSpeech",
                "LecternRender", "LecternWayland", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Resources/sample.pdf")],
            // SwiftPM links an executable with -export-dynamic: 15,000 dynamic symbols (every
            // public Swift symbol), which the Swift runtime scans at every start (dladdr, to find
            // its own path). Nothing looks them up by name; the tests import the debug build.
            // kiosk/link holds a linker script named libstdc++.so that `-lstdc++` finds first: the
            // C++ runtime linked from its static archive (kiosk/link/libstdc++.so says why); and
            // order.txt, the functions the reader runs, which gold puts together (kiosk/link-order
            // writes it; it takes effect for code built with function sections, as the scripts
            // build it: kiosk/link/release-build; 3 MB less of the binary resident).
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-Xlinker", "--no-export-dynamic", "-L", Context.packageDirectory + "/kiosk/link",
                        "-Xlinker", "--section-ordering-file=" + Context.packageDirectory + "/kiosk/link/order.txt",
                    ],
                    .when(configuration: .release))
            ]
        ),

        // An integrator's program embedding KioskApp (README, "Embedding Lectern"); a test runs it.
        .executableTarget(
            name: "lectern-example",
            dependencies: [
                "LecternKiosk", "LecternPolicy", "LecternCore", "LecternDocuments",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Test support (an ordinary target: the benchmark uses it too).
        .target(
            name: "LecternTestSupport",
            dependencies: ["CWaylandServer", "CWaylandProtocols", "CLecternLinux", "CXKBCommon"]
        ),
        .executableTarget(
            name: "lectern-bench",
            dependencies: [
                "LecternCore", "LecternPDF", "LecternRender", "LecternTestSupport", "LecternLinux",
                "LecternDocuments", "LecternSpeech", "CEspeakNG",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        .testTarget(
            name: "LecternCoreTests",
            dependencies: ["LecternCore", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "LecternLinuxTests", dependencies: ["LecternLinux", "LecternCore"]),
        .testTarget(name: "LecternPDFTests", dependencies: ["LecternPDF", "LecternTestSupport"]),
        .testTarget(
            name: "LecternDocumentsTests",
            dependencies: [
                "LecternDocuments", "LecternRender", "LecternPDF", "LecternCore", "LecternLinux", "LecternTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "LecternRenderTests",
            dependencies: ["LecternRender", "LecternPDF", "LecternCore", "LecternTestSupport", "CGettext"]),
        .testTarget(
            name: "LecternWaylandTests",
            dependencies: ["LecternWayland", "LecternTestSupport", "LecternCore", "LecternLinux"]),
        .testTarget(
            name: "LecternKioskTests",
            dependencies: [
                "LecternTestSupport", "LecternPDF", "LecternCore", "LecternRender", "LecternKiosk", "LecternPolicy",
            ]),
        .testTarget(name: "LecternPolicyTests", dependencies: ["LecternPolicy"]),
        .testTarget(
            name: "LecternSpeechTests",
            dependencies: [
                "LecternSpeech", "LecternLinux", "LecternCore", "LecternTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["check-speech.py"]
        ),
        .testTarget(
            name: "LecternCommandLineTests",
            dependencies: [
                "lectern", "LecternKiosk", "LecternPolicy",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
