// Composition: when does each animation start, given how it is placed?
//
// A Timeline is data: items (animations with a length, and groups of items)
// each placed by a Position. Resolving it gives every named item its start
// and end in seconds. The rules are GSAP's position parameter and Manim's
// Succession / AnimationGroup in one model:
//
//   item start =
//     .automatic(offset)      previous sibling's end + offset in a sequence
//                             (the group's start + offset for the first),
//                             the group's start + offset in a parallel group
//                             or at the top level (whose start is 0)
//     .at(seconds)            the enclosing group's start + seconds (at the
//                             top level: seconds from 0, a plain delay)
//     .after(id, offset)      item id's end + offset
//     .with(id, offset)       item id's start + offset
//   animation end = start + duration
//   group end     = max(group start, every child's end)
//
// Offsets may be negative (overlap). References may point anywhere in the
// tree, into or out of groups. Each start and end is a node of a dependency
// graph; a depth-first walk evaluates them and finds cycles (a → b → a), which
// are reported with the ids on the cycle in order, each waiting for the
// next. Arithmetic is in Motion's flicks (Flicks.swift), so 0.1 + 0.2 resolves
// to the Double nearest 0.3.

/// Items placed relative to each other, resolved into start and end times.
public struct Timeline: Hashable, Sendable {
    /// Where an item starts.
    public enum Position: Hashable, Sendable {
        /// Where its group puts it, plus `offset`: after the previous item in
        /// a sequence, at the group's start in a parallel group or at the top level.
        case automatic(offset: Double = 0)
        /// `seconds` after the enclosing group's start (after 0 at the top level).
        case at(Double)
        /// When item `id` ends, plus `offset` (GSAP's "<id>+=offset" with the end).
        case after(String, offset: Double = 0)
        /// When item `id` starts, plus `offset`.
        case with(String, offset: Double = 0)
    }

    /// What an item is.
    public indirect enum Content: Hashable, Sendable {
        /// An animation lasting `duration` seconds (≥ 0, finite; for one
        /// that repeats forever, pass the length it should be given here).
        case animation(duration: Double)
        /// Children that each start, unless placed otherwise, when the previous one ends.
        case sequence([Item])
        /// Children that all start, unless placed otherwise, with the group.
        case parallel([Item])
    }

    /// An animation or group, with an optional id and a position.
    public struct Item: Hashable, Sendable {
        /// The name other items refer to and the result is keyed by; nil for
        /// an item nobody refers to.
        public var id: String?
        /// Where it starts.
        public var position: Position
        /// What it is.
        public var content: Content

        /// Creates an item.
        public init(id: String?, position: Position = .automatic(), content: Content) {
            self.id = id
            self.position = position
            self.content = content
        }

        /// An animation of `duration` seconds.
        public static func animation(_ id: String?, duration: Double,
                                     position: Position = .automatic()) -> Item {
            Item(id: id, position: position, content: .animation(duration: duration))
        }

        /// A sequence group.
        public static func sequence(_ id: String?, _ items: [Item],
                                    position: Position = .automatic()) -> Item {
            Item(id: id, position: position, content: .sequence(items))
        }

        /// A parallel group.
        public static func parallel(_ id: String?, _ items: [Item],
                                    position: Position = .automatic()) -> Item {
            Item(id: id, position: position, content: .parallel(items))
        }
    }

    /// A resolved item: when it starts and ends, in seconds.
    public struct Span: Hashable, Sendable {
        /// Start time.
        public var start: Double
        /// End time, ≥ start.
        public var end: Double

        /// Creates a span.
        public init(start: Double, end: Double) {
            self.start = start
            self.end = end
        }
    }

    /// Why a timeline cannot be resolved.
    public enum ResolutionError: Error, Hashable, Sendable, CustomStringConvertible {
        /// Two items have this id.
        case duplicateID(String)
        /// Positions refer to ids no item has; each listed once, in document order.
        case unknownIDs([String])
        /// Items wait for each other in a circle: each id waits for the next,
        /// the last for the first; starting with the earliest in document order.
        case cycle([String])
        /// An item's duration, offset or time is not finite, or a duration
        /// is negative; `item` is its id or, when it has none, its index path
        /// ("2.0" is the first child of the third top-level item).
        case invalidTime(item: String)

        /// A sentence naming the ids involved.
        public var description: String {
            switch self {
            case let .duplicateID(id): return "two items have the id \"\(id)\""
            case let .unknownIDs(ids):
                return "no item has the id " + ids.map { "\"\($0)\"" }.joined(separator: ", ")
            case let .cycle(ids):
                let names = (ids + [ids[0]]).map { "\"\($0)\"" }
                return "items wait for each other in a cycle: " + names.joined(separator: " waits for ")
            case let .invalidTime(item):
                return "item \"\(item)\" has a time that is not a finite number (or a negative duration)"
            }
        }
    }

    /// The top-level items; they form a parallel group starting at 0.
    public var items: [Item]

    /// Creates a timeline.
    public init(_ items: [Item]) {
        self.items = items
    }

    /// Every named item's start and end, or the first problem found:
    /// duplicate ids, then unknown ids, then invalid times, then a cycle.
    public func resolve() throws(ResolutionError) -> [String: Span] {
        var graph = Graph()
        graph.flatten(items, parent: nil, sequential: false, path: [])
        let spans = try graph.solve()
        var result: [String: Span] = [:]
        for (index, node) in graph.nodes.enumerated() {
            if let id = node.id { result[id] = spans[index] }
        }
        return result
    }
}

extension Timeline {
    /// The items flattened in document (depth-first) order, with their
    /// dependencies as indices; start of item i is node 2i, end is 2i + 1.
    fileprivate struct Graph {
        struct Node {
            var id: String?
            var label: String
            var position: Position
            var parent: Int?
            var previousSibling: Int?
            var sequential: Bool
            var duration: Double?  // nil for groups
            var children: [Int] = []
        }

        var nodes: [Node] = []

        mutating func flatten(_ items: [Item], parent: Int?, sequential: Bool, path: [Int]) {
            var previous: Int? = nil
            for (offset, item) in items.enumerated() {
                let index = nodes.count
                let childPath = path + [offset]
                var duration: Double? = nil
                if case let .animation(d) = item.content { duration = d }
                nodes.append(Node(id: item.id, label: item.id ?? childPath.map(String.init).joined(separator: "."),
                                  position: item.position, parent: parent, previousSibling: previous,
                                  sequential: sequential, duration: duration))
                if let parent { nodes[parent].children.append(index) }
                switch item.content {
                case .animation: break
                case let .sequence(children): flatten(children, parent: index, sequential: true, path: childPath)
                case let .parallel(children): flatten(children, parent: index, sequential: false, path: childPath)
                }
                previous = index
            }
        }

        /// The graph node (2i start, 2i + 1 end) and offset in flicks a start depends on;
        /// nil node means time 0.
        func startDependency(_ i: Int, ids: [String: Int]) -> (node: Int?, offset: Double) {
            let node = nodes[i]
            let parentStart = node.parent.map { 2 * $0 }
            switch node.position {
            case let .automatic(offset):
                if node.sequential, let previous = node.previousSibling {
                    return (2 * previous + 1, Flicks.from(offset))
                }
                return (parentStart, Flicks.from(offset))
            case let .at(seconds): return (parentStart, Flicks.from(seconds))
            case let .after(id, offset): return (2 * ids[id]! + 1, Flicks.from(offset))
            case let .with(id, offset): return (2 * ids[id]!, Flicks.from(offset))
            }
        }

        func solve() throws(ResolutionError) -> [Span] {
            var ids: [String: Int] = [:]
            for (index, node) in nodes.enumerated() {
                guard let id = node.id else { continue }
                if ids[id] != nil { throw .duplicateID(id) }
                ids[id] = index
            }
            var unknown: [String] = []
            for node in nodes {
                switch node.position {
                case let .after(id, _), let .with(id, _):
                    if ids[id] == nil && !unknown.contains(id) { unknown.append(id) }
                default: break
                }
            }
            if !unknown.isEmpty { throw .unknownIDs(unknown) }
            for node in nodes {
                var times: [Double] = []
                switch node.position {
                case let .automatic(offset), let .after(_, offset), let .with(_, offset): times.append(offset)
                case let .at(seconds): times.append(seconds)
                }
                if let d = node.duration { times.append(d) }
                if !times.allSatisfy({ Flicks.from($0).isFinite }) || (node.duration ?? 0) < 0 {
                    throw .invalidTime(item: node.label)
                }
            }

            // Dependencies of each graph node, as graph nodes.
            let count = 2 * nodes.count
            var dependencies = [[Int]](repeating: [], count: count)
            var offsets = [Double](repeating: 0, count: count)
            for i in nodes.indices {
                let (node, offset) = startDependency(i, ids: ids)
                if let node { dependencies[2 * i].append(node) }
                offsets[2 * i] = offset
                dependencies[2 * i + 1].append(2 * i)
                if let d = nodes[i].duration {
                    offsets[2 * i + 1] = Flicks.from(d)
                } else {
                    dependencies[2 * i + 1] += nodes[i].children.map { 2 * $0 + 1 }
                }
            }

            // Iterative depth-first evaluation; 0 unvisited, 1 on the stack, 2 done.
            var state = [UInt8](repeating: 0, count: count)
            var value = [Double](repeating: 0, count: count)
            var stack: [(node: Int, next: Int)] = []
            for root in 0..<count where state[root] == 0 {
                stack.append((root, 0))
                state[root] = 1
                while let top = stack.last {
                    let deps = dependencies[top.node]
                    if top.next < deps.count {
                        stack[stack.count - 1].next += 1
                        let dep = deps[top.next]
                        switch state[dep] {
                        case 0:
                            state[dep] = 1
                            stack.append((dep, 0))
                        case 1:
                            let start = stack.firstIndex { $0.node == dep }!
                            throw .cycle(cycleNames(stack[start...].map(\.node)))
                        default: break
                        }
                        continue
                    }
                    // All dependencies known: evaluate.
                    let n = top.node
                    if n % 2 == 0 {
                        value[n] = (deps.first.map { value[$0] } ?? 0) + offsets[n]
                    } else if nodes[n / 2].duration != nil {
                        value[n] = value[n - 1] + offsets[n]
                    } else {
                        value[n] = deps.reduce(value[n - 1]) { max($0, value[$1]) }
                    }
                    state[n] = 2
                    stack.removeLast()
                }
            }
            return nodes.indices.map {
                Span(start: Flicks.seconds(value[2 * $0]), end: Flicks.seconds(value[2 * $0 + 1]))
            }
        }

        /// The items on a cycle of graph nodes, each waiting for the next,
        /// without repeats of one item's start and end, rotated to start with
        /// the item earliest in document order.
        func cycleNames(_ cycle: [Int]) -> [String] {
            var items: [Int] = []
            for node in cycle where items.last != node / 2 { items.append(node / 2) }
            if items.count > 1, items.first == items.last { items.removeLast() }
            let first = items.indices.min { items[$0] < items[$1] }!
            let rotated = items[first...] + items[..<first]
            return rotated.map { nodes[$0].label }
        }
    }
}
