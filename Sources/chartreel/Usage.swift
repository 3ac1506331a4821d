let version = "0.1.0"

let mainHelp = """
chartreel \(version) — animated chart videos from timeline documents

USAGE
  chartreel render DOC -o OUT [options]   render every frame to a video or frames
  chartreel frame DOC (--at SECONDS | --frame N) -o FILE.png
  chartreel --version
  chartreel COMMAND --help

EXIT CODES
  0 success   1 failure while rendering or encoding   2 bad usage or bad document
"""

let renderHelp = """
USAGE
  chartreel render DOC -o OUT [--format FORMAT] [--threads N] [--fps F] [-y] [--quiet] [--dry-run]

Renders every frame of the timeline document DOC.

OUTPUT (the format follows OUT's extension unless --format is given)
  OUT.mp4        H.264, yuv420p, +faststart (ffmpeg)
  OUT.gif        palettegen + paletteuse; above 50 fps the GIF is sampled at 50 fps,
                 because browsers play frame delays under 2/100 s too slowly
  OUT/ (no ext)  a directory of PNG frames frame-00000.png …
  -  --format rgba  raw straight RGBA8 frames on stdout, row-major, no header

OPTIONS
  -o, --output PATH   where to write (required)
  --format F          mp4 | gif | png | rgba
  --threads N         rendering threads (default: all cores)
  --fps F             sample the timeline at F frames per second instead of the document's
  --dry-run           print the frame count and the ffmpeg command, render nothing
  -y, --overwrite     replace an existing output
  -q, --quiet         no progress on stderr
"""

let frameHelp = """
USAGE
  chartreel frame DOC --at SECONDS -o FILE.png [-y]
  chartreel frame DOC --frame N -o FILE.png [-y]

Renders one frame as a PNG. Frame N shows the time N / fps.
"""
