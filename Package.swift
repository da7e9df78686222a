// swift-tools-version: 6.1
import PackageDescription

/// Settings every target of ours shares: Swift 6 language mode comes from the tools version;
/// these make imports internal unless marked `public import`, and existentials explicit.
let strictness: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "narrate",
    products: [
        .executable(name: "narrate", targets: ["narrate"]),
        .library(name: "Narration", targets: ["Narration"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        // The web studio's server; without its default traits, which would bring swift-configuration.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),  // the web studio's --tls-cert/--tls-key
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),  // to quieten the web server's request log
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),  // the web server's shutdown
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),  // EPUB and zipped DAISY books
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),  // a catalog shared by several hosts
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.0"),  // a reading service's /metrics
    ],
    targets: [
        // C libraries from Debian's -dev packages: a module map and a shim header, nothing else.
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CLame", pkgConfig: "lame", providers: [.apt(["libmp3lame-dev"])]),
        .systemLibrary(name: "CRubberBand", pkgConfig: "rubberband", providers: [.apt(["librubberband-dev"])]),
        .systemLibrary(name: "CEBUR128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // PDF text and its layout on the page (poppler's GLib interface), for texts sent as PDF.
        .systemLibrary(name: "CPoppler", pkgConfig: "poppler-glib", providers: [.apt(["libpoppler-glib-dev"])]),
        .systemLibrary(name: "CSoxr", pkgConfig: "soxr", providers: [.apt(["libsoxr-dev"])]),
        .systemLibrary(name: "CFLAC", pkgConfig: "flac", providers: [.apt(["libflac-dev"])]),
        // Ogg Opus with any Vorbis comment (chapters): libsndfile writes only its fixed tags.
        .systemLibrary(name: "COpusEnc", pkgConfig: "libopusenc", providers: [.apt(["libopusenc-dev"])]),
        // FFTW (single precision) for the export's spectral noise gate; FFTW is GPL-2-or-later.
        .systemLibrary(name: "CFFTW", pkgConfig: "fftw3f", providers: [.apt(["libfftw3-dev"])]),
        // Offline speech recognition; its English model comes from pocketsphinx-en-us at run time.
        .systemLibrary(
            name: "CPocketSphinx", pkgConfig: "pocketsphinx",
            providers: [.apt(["libpocketsphinx-dev", "libsphinxbase-dev", "pocketsphinx-en-us"])]),
        // ncursesw's pkg-config flags only set feature macros SwiftPM refuses; shim.h sets what it needs.
        .systemLibrary(name: "CCurses", providers: [.apt(["libncurses-dev"])]),
        // Argon2id for a reading service's passphrases (only PassphraseHash.swift imports it).
        .systemLibrary(name: "CArgon2", pkgConfig: "libargon2", providers: [.apt(["libargon2-dev"])]),

        // Pure Swift: formats, articles, chunks, metering maths, timecodes, errors. No C, no I/O.
        .target(name: "NarrationCore", swiftSettings: strictness),

        // An article's text read into paragraphs: plain text, Markdown (a linear reader of its own), HTML
        // (through libxml2's HTML parser, the only code that imports CLibXML2), Word and
        // OpenDocument files (their XML, with libxml2, from the zip), PDF (through poppler; only
        // PDFDocument.swift imports CPoppler); and XMLReader,
        // libxml2's strict XML parser for files others write (a destination's podcast feed).
        .target(
            name: "NarrationText",
            dependencies: [
                "NarrationCore", "CLibXML2", "CPoppler",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),  // .docx and .odt (OfficeArchive.swift only)
            ],
            swiftSettings: strictness
        ),

        // The only code that imports the audio C libraries: ALSA capture and playback, libsndfile, LAME, Rubber Band,
        // libebur128, libsoxr, libFLAC, libopusenc, FFTW (the noise gate).
        .target(
            name: "NarrationAudio",
            dependencies: ["NarrationCore", "CALSA", "CSndFile", "CLame", "CRubberBand", "CEBUR128", "CSoxr", "CFLAC", "COpusEnc", "CFFTW"],
            swiftSettings: strictness
        ),

        // The take check: speech recognition of English takes against the article's own text,
        // with a language model and dictionary made for each article; the take's cepstra, to
        // find what it says twice, come from the caller (NarrationAudio). The only code that
        // imports PocketSphinx.
        .target(
            name: "SpeechRecognition",
            dependencies: ["NarrationCore", "CPocketSphinx"],
            swiftSettings: strictness
        ),

        // S3-compatible object storage: the client, its SigV4 signer, credentials files, bucket
        // addresses, XML answers and upload plans. The only code that makes outgoing requests
        // (AsyncHTTPClient over NIO; WebStudio's server is the other NIO user); it knows nothing
        // of articles and throws ObjectStorageError.
        .target(
            name: "ObjectStorage",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictness
        ),

        // Where the catalog's rows live, behind one interface (SQLEngine): one SQLite file (GRDB) or
        // a PostgreSQL server several hosts share (the only code that imports PostgresNIO). It
        // knows nothing of articles and throws SQLEngineError.
        .target(
            name: "SQLEngines",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),

        // The engine, folders along the chunk's journey: take, catalog, playback, export, outbox,
        // delivery (to a folder, or to object storage through ObjectStorage), publication (EPUB
        // and DAISY books; its files are the only ones that import ZIPFoundation), and a reading
        // service's accounts, sessions and audit log (Service/).
        .target(
            name: "Narration",
            dependencies: [
                "NarrationCore", "NarrationAudio", "ObjectStorage", "SpeechRecognition", "NarrationText", "SQLEngines", "CArgon2",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Crypto", package: "swift-crypto"),  // SHA-256 of invitation and session secrets (SecretToken.swift only)
            ],
            swiftSettings: strictness
        ),

        // The studio session both front ends drive: it carries out each key's action with the
        // engine and keeps the pure state the screen is drawn from.
        .target(
            name: "Studio",
            dependencies: ["Narration", "NarrationCore", "NarrationAudio"],
            swiftSettings: strictness
        ),

        // The web studio: a local HTTP and WebSocket server (Hummingbird) whose page drives the
        // same studio session as the terminal; the only code that imports Hummingbird. The page
        // (HTML, CSS, JavaScript) is compiled into the binary.
        .target(
            name: "WebStudio",
            dependencies: [
                "Studio", "Narration", "NarrationCore", "NarrationAudio", "NarrationText",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            exclude: ["Protocol.md", "Service.md"],
            resources: [
                .embedInCode("openapi.json"),
                .embedInCode("Page/index.html"),
                .embedInCode("Page/takes.js"),
                .embedInCode("Page/piece-codec.js"),
                .embedInCode("Page/desk.html"),
                .embedInCode("Page/desk.css"),
                .embedInCode("Page/desk.js"),
                .embedInCode("Page/review.html"),
                .embedInCode("Page/review.css"),
                .embedInCode("Page/review.js"),
                .embedInCode("Page/service.html"),
                .embedInCode("Page/service.css"),
                .embedInCode("Page/service.js"),
                .embedInCode("Page/studio.css"),
                .embedInCode("Page/studio.js"),
                .embedInCode("Page/microphone-worklet.js"),
            ],
            swiftSettings: strictness
        ),

        // The studio's terminal: the renderer and key decoding, the only code that imports
        // ncursesw, and a line screen for terminals without cursor movement.
        .target(name: "NarrationTerminal", dependencies: ["Studio", "NarrationCore", "CCurses"], swiftSettings: strictness),

        // The command line: one file per subcommand, each a thin shell around the engine.
        .executableTarget(
            name: "narrate",
            dependencies: [
                "Narration", "NarrationCore", "NarrationText", "Studio", "NarrationTerminal", "WebStudio",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The demo's speech, compiled into the binary so that `narrate demo` needs no files beside it.
            resources: [
                .embedInCode("DemoSpeech/paragraph-1.ogg"),
                .embedInCode("DemoSpeech/paragraph-2.ogg"),
                .embedInCode("DemoSpeech/paragraph-3.ogg"),
            ],
            swiftSettings: strictness
        ),

        // Fixtures every test target shares: generated speech and tones, virtual ALSA devices,
        // a user-mode PulseAudio server, a runner for the built binary, and a library in a
        // temporary data root.
        .target(
            name: "NarrationTestSupport",
            dependencies: ["NarrationCore", "NarrationAudio", "Narration", "SQLEngines"],
            path: "Tests/NarrationTestSupport",
            swiftSettings: strictness
        ),

        .testTarget(
            name: "NarrationCoreTests",
            dependencies: ["NarrationCore", "NarrationTestSupport"],
            // NarrationTestSupport brings the engine (for LibraryFixture) and with it GRDB's and
            // NIO's operators; these tests see only the members of modules they import, so that
            // long expressions of NarrationCore values still type-check quickly.
            swiftSettings: strictness + [.enableUpcomingFeature("MemberImportVisibility")]
        ),
        // Plain text, Markdown and HTML files written to a temporary folder and read back into
        // exact paragraphs; binary, non-UTF-8 and empty files refused with exact sentences.
        .testTarget(
            name: "NarrationTextTests",
            dependencies: ["NarrationText", "NarrationCore"],
            swiftSettings: strictness
        ),
        // The take check's logic on hand-made words and envelopes, and its hints measured on
        // synthetic speech (espeak-ng, sox) of known text: right takes, skips, wrong paragraphs.
        .testTarget(
            name: "SpeechRecognitionTests",
            dependencies: ["SpeechRecognition", "NarrationCore", "NarrationAudio"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "SQLEnginesTests",
            dependencies: ["SQLEngines", "NarrationTestSupport"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "ObjectStorageTests",
            dependencies: ["ObjectStorage"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "NarrationAudioTests",
            dependencies: ["NarrationAudio", "NarrationCore", "NarrationTestSupport"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "NarrationTests",
            dependencies: [
                "Narration", "NarrationAudio", "NarrationCore", "NarrationTestSupport", "ObjectStorage",
                .product(name: "GRDB", package: "GRDB.swift"),  // to make a catalog as an older narrate did
            ],
            exclude: ["Fixtures"],  // read by CatalogSchemaTests from the source tree
            swiftSettings: strictness
        ),
        // The studio session driven by keys on the emulated USB microphone and speaker.
        .testTarget(
            name: "StudioTests",
            dependencies: ["Studio", "Narration", "NarrationAudio", "NarrationCore", "NarrationTerminal", "NarrationTestSupport"],
            swiftSettings: strictness
        ),
        // The studio's screen drawn from given states against reviewed snapshots, its keys and
        // form, column widths and control characters: no terminal needed.
        .testTarget(
            name: "NarrationTerminalTests",
            dependencies: ["NarrationTerminal", "Studio", "NarrationCore"],
            exclude: ["Snapshots"],  // read by StudioRendererTests from the source tree
            swiftSettings: strictness
        ),
        // Runs the built `narrate` binary: exit codes, stderr sentences, signals, crashes.
        .testTarget(
            name: "NarrateEndToEndTests",
            dependencies: ["narrate", "NarrationAudio", "NarrationCore", "NarrationTestSupport"],
            swiftSettings: strictness
        ),
        // The web studio's pure parts: access rules, Range headers, the page's messages and state;
        // and the reading service's routes in process (Hummingbird's router test client, a clock in hand).
        .testTarget(
            name: "WebStudioTests",
            dependencies: [
                "WebStudio", "Studio", "Narration", "NarrationCore", "NarrationTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: strictness
        ),
        // Keeps the docs true: every `narrate …` line in README.md and the DocC articles parses
        // with the command line's own parser, every config.toml shown parses with narrate's, and
        // the architecture article's rules (which target may import which, where C, network and
        // system calls live) hold for Package.swift and every import in Sources/.
        .testTarget(
            name: "DocumentationTests",
            dependencies: ["narrate", "NarrationCore"],
            swiftSettings: strictness
        ),
        // The reliability suite: random kill -9s during real-time takes, full disks, capture
        // under CPU load, and seeded fuzzing of every parser of outside input.
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                "narrate", "Narration", "NarrationAudio", "NarrationCore", "NarrationTerminal", "NarrationTestSupport", "NarrationText",
                "ObjectStorage",
            ],
            swiftSettings: strictness
        ),
    ]
)
