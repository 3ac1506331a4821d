// swift-tools-version:5.9
// ChartReel: animated chart videos rendered by our own software rasterizer.
// Targets follow the pipeline in DESIGN.md; each imports only the ones below it.
import PackageDescription

let package = Package(
    name: "ChartReel",
    products: [
        .executable(name: "chartreel", targets: ["chartreel"]),
        .library(name: "Geometry", targets: ["Geometry"]),
        .library(name: "Raster", targets: ["Raster"]),
        .library(name: "Motion", targets: ["Motion"]),
        .library(name: "Text", targets: ["Text"]),
        .library(name: "Scene", targets: ["Scene"]),
        .library(name: "Charts", targets: ["Charts"]),
        .library(name: "Timelines", targets: ["Timelines"]),
        .library(name: "Export", targets: ["Export"]),
        .library(name: "ChartReel", targets: ["ChartReel"]),
    ],
    targets: [
        .systemLibrary(name: "CPNG", pkgConfig: "libpng",
                       providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2",
                       providers: [.apt(["libfreetype-dev"])]),
        // Text shaping, font lookup and fallback, bidi and line breaking (issue 17).
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz",
                       providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig",
                       providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(name: "CFriBidi", pkgConfig: "fribidi",
                       providers: [.apt(["libfribidi-dev"])]),
        .systemLibrary(name: "CICU", pkgConfig: "icu-uc",
                       providers: [.apt(["libicu-dev"])]),
        // FriBidi's and ICU's C entry points behind plain C functions (their macros do not
        // import into Swift).
        .target(name: "CTextSupport", dependencies: ["CFriBidi", "CICU"]),
        // glibc's <malloc.h>, for the command line's allocator tuning.
        .systemLibrary(name: "CMalloc"),
        .target(name: "Geometry"),
        // Raster's wide span kernels (AVX2), C for per-function target attributes chosen
        // at run time through cpuid: no unsafe flags (see Sources/CRasterKernels).
        .target(name: "CRasterKernels"),
        .target(name: "Raster", dependencies: ["Geometry", "CPNG", "CRasterKernels"]),
        .target(name: "Text", dependencies: ["Geometry", "CFreeType", "CHarfBuzz", "CFontconfig", "CTextSupport"]),
        .target(name: "Motion"),
        .target(name: "Scene", dependencies: ["Geometry", "Raster", "Text", "Motion"]),
        .target(name: "Charts", dependencies: ["Scene", "Geometry", "Raster", "Text", "Motion"]),
        .target(name: "Timelines", dependencies: ["Charts", "Scene", "Geometry", "Raster", "Text", "Motion"]),
        // libpng's full write API behind a C function, for fast frame PNGs (zlib level and
        // filters); C so libpng's longjmp never crosses Swift frames.
        .target(name: "CPNGWrite", dependencies: ["CPNG"]),
        // fork + PR_SET_PDEATHSIG + exec for ffmpeg and ffprobe, so they die with chartreel.
        .target(name: "CSpawn"),
        .target(name: "Export", dependencies: ["Scene", "Raster", "CPNGWrite", "CSpawn"]),
        .target(name: "ChartReel",
                dependencies: ["Geometry", "Raster", "Motion", "Text", "Scene", "Charts", "Timelines", "Export"]),
        .executableTarget(name: "chartreel",
                          dependencies: ["Timelines", "Charts", "Scene", "Export", "Raster", "Geometry", "Motion", "Text",
                                         "CMalloc", "CSpawn"]),

        // The raster benchmark (scripts/bench): ChartReel's side of the comparison with Cairo.
        .executableTarget(name: "chartreel-rasterbench",
                          dependencies: ["Raster", "Geometry", "Scene", "Timelines"],
                          path: "Benchmarks/RasterBench"),

        // The text benchmark (scripts/bench, section "text"): against Pango+Cairo.
        .executableTarget(name: "chartreel-textbench",
                          dependencies: ["Text", "Scene", "Raster", "Geometry", "Motion"],
                          path: "Benchmarks/TextBench"),

        // What several test targets share (a seeded generator); not part of the product.
        .target(name: "TestSupport", path: "Tests/Support"),
        .testTarget(name: "GeometryTests", dependencies: ["TestSupport", "Geometry"]),
        .testTarget(name: "RasterTests", dependencies: ["TestSupport", "Raster", "Geometry", "CRasterKernels"]),
        .testTarget(name: "MotionTests", dependencies: ["TestSupport", "Motion"]),
        .testTarget(name: "TextTests", dependencies: ["Text", "Geometry", "Raster", "Scene", "Motion", "CFreeType"]),
        .testTarget(name: "SceneTests", dependencies: ["Scene", "Raster", "Geometry", "Motion", "Text"]),
        .testTarget(name: "TimelinesTests", dependencies: ["TestSupport", "Timelines", "Charts", "Scene", "Raster", "Geometry", "Text", "Motion"]),
        .testTarget(name: "ChartsTests", dependencies: ["TestSupport", "Charts", "Scene", "Raster", "Geometry", "Text", "Motion"]),
        .testTarget(name: "ExportTests", dependencies: ["TestSupport", "Export", "Scene", "Raster", "Geometry", "Motion"]),
        .testTarget(name: "EndToEndTests", dependencies: ["chartreel", "Raster"]),
        .testTarget(name: "ChartReelTests", dependencies: ["ChartReel"]),
        .testTarget(name: "SwiftAPIDocTests", dependencies: ["ChartReel"], exclude: ["References"]),
        .testTarget(name: "ExampleChartTests", dependencies: ["ChartReel"], exclude: ["References"]),
        // Swift Charts code as its documentation writes it, compiled and rendered (issue 18).
        .testTarget(name: "SwiftChartsSourceTests", dependencies: ["ChartReel"]),
    ]
)
