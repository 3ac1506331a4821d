let version = "0.2.0"

let mainHelp = """
chartreel \(version) — animated chart videos from timeline documents

USAGE
  chartreel render DOC -o OUT [options]     every frame to MP4, GIF, WebM, APNG, MOV or PNG frames
  chartreel batch DOC --table ROWS.csv -o 'out/{column}.mp4' [render options]
                                            one render per row, the columns as parameters
  chartreel watch DOC -o OUT [--at S | --frame N] [render options]
                                            render again on every save, until Ctrl-C
  chartreel preview DOC -o preview.html      one HTML page: every frame, a scrubber, the timing
  chartreel frame DOC (--at SECONDS | --frame N) -o FILE.png
  chartreel sheet DOC -o SHEET.png [--every SECONDS | --count N] [--columns C]
  chartreel diff A.png B.png [--tolerance T] [-o DIFF.png]
  chartreel validate DOC
  chartreel concat PART... -o OUT           join chunks rendered with --frames
  chartreel easings [-o DIR]                list the curve names, or draw each as a PNG plot
  chartreel --version
  chartreel COMMAND --help

EXIT CODES
  0 success
  1 failure while rendering or encoding (including Ctrl-C), or `diff` over tolerance
  2 bad usage, a bad document or an unreadable input

See docs/cli.md for the whole reference.
"""

/// The document options every command that reads a document takes.
let documentOptionsHelp = """
CHANGING THE DOCUMENT (render, frame, sheet, validate; each repeatable)
  --set PATH=JSON      set any value by its JSON path before decoding: --set fps=30,
                       --set 'charts[0].y.domain=[0,100]'; a value that is not JSON is a
                       string (--set 'charts[0].title=Sales 2026')
  --data NAME=FILE     the table NAME reads the CSV FILE (relative to here) instead
  --param NAME=VALUE   the value of a parameter the document declares in "params"
"""

let renderHelp = """
USAGE
  chartreel render DOC -o OUT [options]

Renders the frames of the timeline document DOC. Frames are drawn on every core and
streamed to ffmpeg in order; OUT appears only when complete.

OUTPUT (the format follows OUT's extension unless --format is given)
  OUT.mp4        H.264, yuv420p, +faststart; no alpha (see --matte); odd sizes padded
  OUT.gif        palettegen (stats_mode=diff) + paletteuse (bayer, diff_mode=rectangle);
                 sampled at 50 fps at most; a transparent background stays transparent
  OUT.webm       VP9; yuva420p with alpha when the background is transparent
  OUT.apng       animated PNG (--format apng for another name)
  OUT.mov        ProRes 4444; with alpha when the background is transparent
  OUT/ (no ext)  a directory of PNG frames frame-00000.png ... (alpha kept)
  -  --format rgba  raw straight RGBA8 frames on stdout, row-major, no header

OPTIONS
  -o, --output PATH    where to write (required)
  --format F           png | rgba | mp4 | gif | webm | apng | mov
  --threads N          rendering threads (default: all cores)
  --fps F              sample the timeline at F frames per second
  --scale S            draw S times larger (2 for retina slides, 0.5 for a preview)
  --from T, --to T     render from T (inclusive) to T (exclusive): seconds like 0.5s or
                       frame indices like 90
  --frames A..<B       render frames A to B-1 only (a chunk; join with `concat`)
  --quality Q          high (default) | medium | low | a CRF (MP4 0-51, WebM 0-63)
  --matte COLOR        what a transparent background becomes in MP4 (default white)
  --colors N           GIF palette size, 4-256 (default 256)
  --dither D           GIF dither: bayer (default) | none | floyd_steinberg | sierra2_4a
  --bayer-scale N      GIF bayer pattern scale 0-5 (default 5; lower: stronger pattern, less banding)
  --loop L             GIF/APNG: forever (default) | once | N plays
  --pause SECONDS      GIF/APNG: hold the last frame this much longer
  --dry-run            print the plan, the ffmpeg command and the estimated size, render nothing
  --no-space-check     render even when the estimated output is larger than the free space
  --stall-timeout S    stop ffmpeg if it takes no frame for S seconds (default 60)
  --allow-path DIR     let the document read files in DIR too (by default only files
                       inside its own folder); repeatable
  --max-memory SIZE    refuse a render estimated to take more memory than SIZE (2G,
                       800M; none: no check); default three quarters of what the
                       process may use
  -y, --overwrite      replace an existing file, or a directory holding only frames
  -q, --quiet          no progress and no summary
  --audio FILE         mux a sound track into MP4, WebM or MOV, cut to the video's length
  --audio-fade S       fade the sound out over the last S seconds
  --json               print the summary as one JSON object on stdout (frames, seconds,
                       size, output, warnings)
  --strict             treat the document's warnings (a filter that leaves no rows, a
                       column of dates read as text) as errors

\(documentOptionsHelp)
"""

let batchHelp = """
USAGE
  chartreel batch DOC --table ROWS.csv -o 'out/{column}.mp4' [render options]

Renders DOC once per row of ROWS.csv, one video after another (each on every core). Each
column gives the document's parameter of that name ("params", used as {params.NAME}); a
column may also only name outputs. {column} in -o is replaced by the row's value (a "/"
in a value becomes "_"); folders are created. A line is printed per video, then a table
of all; a row that fails is reported with its number and the others go on; exit status 1
at the end if any failed. Takes every option of `render` (--json prints one object for the
batch).
"""

let watchHelp = """
USAGE
  chartreel watch DOC -o OUT [render options]
  chartreel watch DOC -o FRAME.png (--at SECONDS | --frame N)
  chartreel watch DOC -o SHEET.png --sheet [--every S | --count N] [--columns C] [--width W]
  chartreel watch DOC --preview [-o OUT] [--preview-port N]

Renders DOC, then again each time DOC or a file it reads (CSV data, fonts, --data,
--audio) is saved, until Ctrl-C (exit 130). Changes are seen through inotify and
debounced (--debounce SECONDS, default 0.1). Prints a line per render with its time;
when the document is broken, the first error in full, and the last good output stays.
OUT is replaced each time (-y is implied). --at/--frame render just that frame as a PNG;
--sheet renders a contact sheet (with `sheet`'s --every, --count, --columns, --width).

  --preview            also serve the preview page on http://127.0.0.1:PORT/, reloaded
                       after each render (-o is then optional)
  --preview-port N     the port (default: any free one, printed)
"""

let previewHelp = """
USAGE
  chartreel preview DOC -o preview.html [--fps F] [--scale S] [--from T] [--to T] [-y] [-q]

Writes one self-contained HTML file (no network, no other file) to look at DOC frame by
frame: every frame inlined as a base64 PNG, play/pause, a scrubber with the frame number
and its exact time, the arrow keys stepping one frame, and validate's animation table as
bars on a timeline. --fps, --scale, --from and --to make a smaller page.

\(documentOptionsHelp)
"""

let frameHelp = """
USAGE
  chartreel frame DOC --at SECONDS -o FILE.png [--scale S] [-y] [--strict]
  chartreel frame DOC --frame N -o FILE.png [--fps F] [--scale S] [-y] [--strict] [--json]

Renders one frame as a PNG. Frame N shows the time N / fps. The bytes are the same as
the same frame in a directory written by `render`. --allow-path DIR lets the document
read files in DIR too; --max-memory SIZE bounds its inputs' estimated memory (see render).

\(documentOptionsHelp)
"""

let sheetHelp = """
USAGE
  chartreel sheet DOC -o SHEET.png [--every SECONDS | --count N] [--columns C] [--width W] [-y] [-q] [--strict]

Draws a contact sheet: thumbnails of the animation in a grid, each labelled with its
time. --every takes a step in seconds from 0; --count spreads N thumbnails from the first
frame to the last (default 12). --columns defaults to 4, --width (thumbnail width in
pixels) to 240. Prints a summary line on stderr when done (-q: none). The sheet may be at most 16384 pixels per side.
--allow-path DIR lets the document read files in DIR too; --max-memory SIZE bounds its
inputs' estimated memory (see render).

\(documentOptionsHelp)
"""

let diffHelp = """
USAGE
  chartreel diff A.png B.png [--tolerance T] [-o DIFF.png] [-y]

Compares two images of one size channel by channel (premultiplied RGBA). Prints the
largest and mean channel difference and the number of differing pixels; -o writes a
picture of the difference (red: over the tolerance, amber: within it). Exits 0 when the
largest difference is at most T (default 0), 1 when it is over (or the sizes differ),
2 when a file cannot be read.
"""

let validateHelp = """
USAGE
  chartreel validate DOC [--fps F] [--strict] [--allow-path DIR] [--max-memory SIZE] [--json]

Checks DOC without rendering. Prints its size, frame rate, duration and frame count, and
a table of every animation with its resolved start and end. Exits 2 with every problem
found (file:line:column, JSON path) when the document is bad. Warnings go to stderr;
--strict makes them errors. --json prints the same as one JSON object.

\(documentOptionsHelp)
"""

let concatHelp = """
USAGE
  chartreel concat PART... -o OUT [-y]

Joins chunks rendered with `render --frames A..<B`, in the order given, without
re-encoding: MP4, WebM and MOV through ffmpeg's concat demuxer (-c copy), PNG frame
directories by gathering their files (the result is identical to a single render).
GIF and APNG chunks cannot be joined this way.
"""

let easingsHelp = """
USAGE
  chartreel easings                 list every curve name a document's "curve" accepts
  chartreel easings -o DIR [--size PX] [-y]
                                    draw each curve as a PNG plot (NAME.png, 160 px by default)

Besides the names, "curve" takes cubic-bezier(x1, y1, x2, y2), steps(n, jump-end),
linear(0, 0.25 75%, 1) and spring(duration: 0.5, bounce: 0.3) (see docs/motion.md).
"""
