// Where a chunk of a video starts or ends: seconds or a frame index.

/// A point in a video given as seconds (`0.5s`) or as a frame index (`90`).
public enum FramePosition: Equatable, Sendable {
    /// A time in seconds; it names the frame showing that time (rounded to nearest).
    case seconds(Double)
    /// A frame index.
    case frame(Int)

    /// Parses `1.5s` (seconds) or `90` (a frame index); nil for anything else.
    public init?(_ text: String) {
        if text.hasSuffix("s"), let t = Double(text.dropLast()), t.isFinite, t >= 0 {
            self = .seconds(t)
        } else if let n = Int(text), n >= 0 {
            self = .frame(n)
        } else {
            return nil
        }
    }

    /// The frame index at `fps` frames per second.
    /// Times too far out for an `Int` (`1e19s`) give `FramePosition.farthest`, past the
    /// end of any video, so a range check reports them instead of the conversion trapping.
    public func index(fps: Double) -> Int {
        switch self {
        case .seconds(let t):
            let f = (t * fps).rounded()
            return f < Double(Self.farthest) ? Int(f) : Self.farthest
        case .frame(let n): return n
        }
    }

    /// The largest index a position in seconds converts to: 2^53, beyond any video.
    public static let farthest = 1 << 53
}
