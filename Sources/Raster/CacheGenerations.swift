/// A value a byte-bounded cache holds, with the bytes it counts for.
protocol CacheSized { var bytes: Int { get } }

/// The table of a cache bounded by a byte budget, in two generations: entries go into the
/// current one; when it would hold more than half the budget, it becomes the previous one
/// and the one before is dropped. A hit in the previous generation moves back to the
/// current one, so entries in use survive and entries met once only cycle the generations.
/// Shared by `PieceCellCache` and `SnappedPieceCache`, each behind its own lock.
struct CacheGenerations<Key: Hashable, Value: CacheSized> {
    private(set) var current: [Key: Value] = [:]
    private var previous: [Key: Value] = [:]
    private var currentBytes = 0, previousBytes = 0

    /// Bytes held in both generations.
    var bytes: Int { currentBytes + previousBytes }

    /// The value kept for `key`: from the current generation, or moved back into it from
    /// the previous one; nil when neither holds it.
    mutating func lookup(_ key: Key, budget: Int) -> Value? {
        if let hit = current[key] { return hit }
        guard let old = previous[key] else { return nil }
        insert(old, for: key, budget: budget)
        return old
    }

    /// Keeps `value` for `key` in the current generation (replacing what it held there),
    /// starting a new generation first when the current one would exceed half of `budget`.
    mutating func insert(_ value: Value, for key: Key, budget: Int) {
        let size = value.bytes
        let old = current[key]?.bytes ?? 0
        if currentBytes - old + size > budget / 2 {
            previous = current; previousBytes = currentBytes
            current = [:]; currentBytes = size
        } else {
            currentBytes += size - old
        }
        current[key] = value
    }
}
