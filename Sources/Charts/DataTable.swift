/// Rows of data stored by column.
///
/// A table of a million CSV rows held as a million dictionaries cost ~200 bytes a row
/// before anything was drawn (issue 22 measured 517 MB for a two-column line chart and
/// 7.3 GB for ten million rows). Here each field is one column: numbers in a flat array of
/// `Double` (8 bytes a cell, a missing cell a reserved NaN), text as 4-byte codes into the
/// column's distinct strings, and only a column that mixes numbers and text keeps
/// `DataValue`s. Transforms work column by column (a filter or a sort gathers each column
/// by an index list; a calculated field is a new column), and marks read a cell through
/// a row view, `table[i][field]`, as they read a dictionary before.
///
/// A table is a value: copies share their columns until one is changed.
public struct DataTable: Sendable {
    /// The columns and their names, shared by copies until one changes.
    final class Store: @unchecked Sendable {
        var fields: [String] = []
        var columns: [DataColumn] = []
        var index: [String: Int] = [:]
        var count = 0
        init() {}
        @inline(__always)
        func value(_ field: String, at i: Int) -> DataValue? {
            guard let k = index[field] else { return nil }
            return columns[k][i]
        }
        func copy() -> Store {
            let s = Store()
            s.fields = fields; s.columns = columns; s.index = index; s.count = count
            return s
        }
    }
    private(set) var store: Store

    /// The fields, in the order they were first given (sorted when made from
    /// dictionaries, which have no order).
    public var fields: [String] { store.fields }
    /// The columns, parallel to `fields`.
    var columns: [DataColumn] { store.columns }
    /// The number of rows.
    public var count: Int { store.count }

    private mutating func unique() -> Store {
        if !isKnownUniquelyReferenced(&store) { store = store.copy() }
        return store
    }

    /// A table with no rows and no fields.
    public init() { store = Store() }

    /// A table of `count` rows with the given columns (each of `count` cells).
    public init(count: Int, columns: [(field: String, column: DataColumn)]) {
        let s = Store()
        s.count = count
        for (f, c) in columns {
            precondition(c.count == count, "column \(f) has \(c.count) cells for \(count) rows")
            if let k = s.index[f] { s.columns[k] = c; continue }
            s.index[f] = s.fields.count
            s.fields.append(f); s.columns.append(c)
        }
        store = s
    }

    /// A table of the given rows. Fields are sorted by name; a field a row lacks is
    /// missing in that row.
    public init(rows: [DataRow]) {
        var names = Set<String>()
        for r in rows { for k in r.keys { names.insert(k) } }
        let sorted = names.sorted()
        self.init(count: rows.count, columns: sorted.map { f in (f, DataColumn(rows.lazy.map { $0[f] })) })
    }

    /// The column of a field, nil when the table has no such field.
    public func column(_ field: String) -> DataColumn? { store.index[field].map { store.columns[$0] } }

    /// Whether the table has a field.
    public func has(_ field: String) -> Bool { store.index[field] != nil }

    /// Row `i`'s value of `field`, nil when missing.
    @inline(__always)
    public func value(_ field: String, at i: Int) -> DataValue? {
        store.value(field, at: i)
    }

    /// The rows as dictionaries (a row has an entry for each field it has a value in).
    public var rows: [DataRow] { (0..<count).map { self[$0].dictionary } }

    // MARK: Changing

    /// Sets a field's column, adding the field or replacing its cells.
    public mutating func setColumn(_ field: String, _ column: DataColumn) {
        let s = unique()
        precondition(column.count == s.count || s.fields.isEmpty, "a column of \(column.count) cells for \(s.count) rows")
        if s.fields.isEmpty { s.count = column.count }
        if let k = s.index[field] { s.columns[k] = column; return }
        s.index[field] = s.fields.count
        s.fields.append(field); s.columns.append(column)
    }

    /// Removes a field.
    public mutating func removeColumn(_ field: String) {
        guard store.index[field] != nil else { return }
        let s = unique()
        let k = s.index.removeValue(forKey: field)!
        s.fields.remove(at: k); s.columns.remove(at: k)
        for (j, f) in s.fields.enumerated() where j >= k { s.index[f] = j }
    }

    /// Sets one cell; `nil` makes it missing. Adds the field (missing elsewhere) if new.
    public mutating func set(_ value: DataValue?, field: String, row i: Int) {
        if store.index[field] == nil {
            guard value != nil else { return }
            setColumn(field, DataColumn(missing: count))
        }
        let s = unique()
        s.columns[s.index[field]!].set(value, at: i)
    }

    /// Appends a row.
    public mutating func append(_ row: DataRow) {
        for (f, _) in row where store.index[f] == nil { setColumn(f, DataColumn(missing: count)) }
        let s = unique()
        for k in s.columns.indices { s.columns[k].append(row[s.fields[k]]) }
        s.count += 1
    }

    /// The rows at `indices`, in that order (an index may repeat).
    public func gathering(_ indices: [Int]) -> DataTable {
        DataTable(count: indices.count, columns: zip(fields, columns).map { ($0, $1.gathering(indices)) })
    }

    /// The rows of all the tables, one after another; a field one table lacks is missing
    /// in its rows.
    public static func concatenating(_ tables: [DataTable]) -> DataTable {
        var fields: [String] = [], seen = Set<String>()
        for t in tables { for f in t.fields where seen.insert(f).inserted { fields.append(f) } }
        let total = tables.reduce(0) { $0 + $1.count }
        return DataTable(count: total, columns: fields.map { f in
            (f, DataColumn.concatenating(tables.map { $0.column(f) ?? DataColumn(missing: $0.count) }))
        })
    }
}

extension DataTable: RandomAccessCollection {
    /// One row of a table: its cells read by field name.
    public struct Row: Sendable {
        let store: Store
        /// The row's index in the table.
        public let index: Int
        /// The row's value of `field`, nil when missing.
        @inline(__always)
        public subscript(field: String) -> DataValue? { store.value(field, at: index) }
        /// The row as a dictionary of the fields it has values in.
        public var dictionary: DataRow {
            var d = DataRow(minimumCapacity: store.fields.count)
            for (k, f) in store.fields.enumerated() { if let v = store.columns[k][index] { d[f] = v } }
            return d
        }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }
    public subscript(i: Int) -> Row { Row(store: store, index: i) }
}

extension DataTable.Row: FieldLookup {}

extension DataTable: ExpressibleByArrayLiteral {
    /// A table of the rows written out.
    public init(arrayLiteral rows: DataRow...) { self.init(rows: rows) }
}

extension DataTable: Equatable {
    /// Tables are equal when they have the same rows: the same values in the same fields
    /// (a field missing everywhere counts as absent).
    public static func == (a: DataTable, b: DataTable) -> Bool {
        guard a.count == b.count else { return false }
        let fields = Set(a.fields).union(b.fields)
        for f in fields {
            let ca = a.column(f), cb = b.column(f)
            for i in 0..<a.count where ca?[i] != cb?[i] { return false }
        }
        return true
    }
}

/// One field's cells.
public struct DataColumn: Sendable {
    enum Storage: Sendable {
        /// Numbers; a missing cell is `DataColumn.missingNumber`.
        case numbers([Double])
        /// Text: per cell a code into `values`, `DataColumn.missingCode` when missing.
        case texts(codes: [UInt32], values: [String])
        /// Numbers and text mixed.
        case mixed([DataValue?])
    }
    var storage: Storage

    /// The NaN a missing number is stored as (a payload no arithmetic produces).
    static let missingNumber = Double(bitPattern: 0x7FF8_0000_C0DE_0001)
    /// The number a missing cell is stored as in `init(numbers:)` given `[Double]`.
    public static var missingValue: Double { missingNumber }
    /// The code of a missing text cell.
    static let missingCode = UInt32.max

    @inline(__always) public static func isMissing(_ v: Double) -> Bool { v.bitPattern == missingNumber.bitPattern }

    /// A column of `count` missing cells.
    public init(missing count: Int) { storage = .numbers(Array(repeating: Self.missingNumber, count: count)) }

    /// A column of numbers; nil is missing.
    public init(numbers: [Double?]) { storage = .numbers(numbers.map { $0 ?? Self.missingNumber }) }

    /// A column of numbers; a cell equal to `missingValue` (bit for bit) is missing.
    public init(numbers: [Double]) { storage = .numbers(numbers) }

    /// A column of the given cells, stored as numbers, text or both as they are.
    public init<S: Sequence>(_ values: S) where S.Element == DataValue? {
        var b = Builder()
        for v in values { b.append(v) }
        self = b.column
    }

    /// The number of cells.
    public var count: Int {
        switch storage {
        case .numbers(let a): return a.count
        case .texts(let c, _): return c.count
        case .mixed(let a): return a.count
        }
    }

    /// Cell `i`, nil when missing.
    public subscript(i: Int) -> DataValue? {
        @inline(__always) get {
            switch storage {
            case .numbers(let a): let v = a[i]; return Self.isMissing(v) ? nil : .number(v)
            case .texts(let c, let values): let k = c[i]; return k == Self.missingCode ? nil : .string(values[Int(k)])
            case .mixed(let a): return a[i]
            }
        }
    }

    /// Cell `i` if it holds a number.
    @inline(__always)
    public func number(at i: Int) -> Double? {
        switch storage {
        case .numbers(let a): let v = a[i]; return Self.isMissing(v) ? nil : v
        case .texts: return nil
        case .mixed(let a): return a[i]?.number
        }
    }

    /// Whether the column is stored as text codes.
    var isText: Bool { if case .texts = storage { return true }; return false }

    /// Whether every cell that is not missing is text.
    public var holdsOnlyText: Bool {
        switch storage {
        case .texts: return true
        case .numbers(let a): return a.allSatisfy(Self.isMissing)
        case .mixed(let a): return a.allSatisfy { $0 == nil || $0?.string != nil }
        }
    }

    /// The numbers of a column that holds only numbers (missing cells as
    /// `missingNumber`), nil otherwise.
    public var numbers: [Double]? { if case .numbers(let a) = storage { return a }; return nil }

    // `set` and `append` change the array in place: a `take` function moves the array
    // out of `storage` (leaving an empty one), so it has one owner while it changes, and
    // it is put back. Switching over `storage` (or a tuple of it) and binding the payload
    // kept the switch's own reference alive, so each call copied the whole column:
    // appending a million inline rows did not finish in half an hour.
    private mutating func takeNumbers() -> [Double]? {
        guard case .numbers(let a) = storage else { return nil }
        storage = .mixed([])
        return a
    }

    private mutating func takeTexts() -> (codes: [UInt32], values: [String])? {
        guard case .texts(let c, let v) = storage else { return nil }
        storage = .mixed([])
        return (c, v)
    }

    private mutating func takeMixed() -> [DataValue?]? {
        guard case .mixed(let a) = storage else { return nil }
        storage = .mixed([])
        return a
    }

    mutating func set(_ value: DataValue?, at i: Int) {
        if value == nil || value?.number != nil, var a = takeNumbers() {
            a[i] = value?.number ?? Self.missingNumber; storage = .numbers(a)
        } else if value == nil, var t = takeTexts() {
            t.codes[i] = Self.missingCode; storage = .texts(codes: t.codes, values: t.values)
        } else if var a = takeMixed() {
            a[i] = value; storage = .mixed(a)
        } else {   // a cell of the other kind: the column becomes mixed
            var a = (0..<count).map { self[$0] }
            a[i] = value
            storage = .mixed(a)
        }
    }

    mutating func append(_ value: DataValue?) {
        if value == nil || value?.number != nil, var a = takeNumbers() {
            a.append(value?.number ?? Self.missingNumber); storage = .numbers(a)
        } else if value == nil, var t = takeTexts() {
            t.codes.append(Self.missingCode); storage = .texts(codes: t.codes, values: t.values)
        } else if var a = takeMixed() {
            a.append(value); storage = .mixed(a)
        } else {
            storage = .mixed((0..<count).map { self[$0] } + [value])
        }
    }

    func gathering(_ indices: [Int]) -> DataColumn {
        switch storage {
        case .numbers(let a): return DataColumn(storage: .numbers(indices.map { a[$0] }))
        case .texts(let c, let values): return DataColumn(storage: .texts(codes: indices.map { c[$0] }, values: values))
        case .mixed(let a): return DataColumn(storage: .mixed(indices.map { a[$0] }))
        }
    }

    static func concatenating(_ parts: [DataColumn]) -> DataColumn {
        if parts.allSatisfy({ $0.numbers != nil }) {
            return DataColumn(storage: .numbers(parts.flatMap { $0.numbers! }))
        }
        return DataColumn(parts.lazy.flatMap { p in (0..<p.count).lazy.map { p[$0] } })
    }

    init(storage: Storage) { self.storage = storage }

    /// Builds a column cell by cell, as numbers while every cell is one, as text codes
    /// while every cell is text, and as mixed values from the first cell of the other kind.
    public struct Builder {
        private var numbers: [Double] = []
        private var codes: [UInt32] = []
        private var values: [String] = []
        private var lookup: [String: UInt32] = [:]
        private var mixed: [DataValue?]? = nil
        /// 0: only missing so far, 1: numbers, 2: text.
        private var kind = 0
        private var missing = 0

        /// An empty builder.
        public init() {}

        /// Reserves room for `n` cells.
        public mutating func reserveCapacity(_ n: Int) { numbers.reserveCapacity(n) }

        /// Appends a cell.
        public mutating func append(_ v: DataValue?) {
            if mixed != nil { mixed!.append(v); return }
            switch v {
            case nil:
                switch kind {
                case 0: missing += 1
                case 1: numbers.append(DataColumn.missingNumber)
                default: codes.append(DataColumn.missingCode)
                }
            case .number(let x)?:
                if kind == 0 {
                    kind = 1
                    numbers.append(contentsOf: repeatElement(DataColumn.missingNumber, count: missing))
                }
                if kind == 1 { numbers.append(x) } else { toMixed(); mixed!.append(v) }
            case .string(let s)?:
                if kind == 0 {
                    kind = 2
                    codes.append(contentsOf: repeatElement(DataColumn.missingCode, count: missing))
                }
                if kind == 2 { appendText(s) } else { toMixed(); mixed!.append(v) }
            }
        }

        /// Appends a number.
        @inline(__always)
        public mutating func append(number x: Double) {
            if kind == 1 && mixed == nil { numbers.append(x) } else { append(.number(x)) }
        }

        private mutating func appendText(_ s: String) {
            if let k = lookup[s] { codes.append(k); return }
            guard values.count < Int(DataColumn.missingCode) else { toMixed(); mixed!.append(.string(s)); return }
            let k = UInt32(values.count)
            lookup[s] = k; values.append(s); codes.append(k)
        }

        private mutating func toMixed() {
            var m: [DataValue?] = []
            switch kind {
            case 1: m = numbers.map { DataColumn.isMissing($0) ? nil : .number($0) }
            default: m = codes.map { $0 == DataColumn.missingCode ? nil : .string(values[Int($0)]) }
            }
            numbers = []; codes = []; values = []; lookup = [:]
            mixed = m
        }

        /// The column built.
        public var column: DataColumn {
            if let mixed { return DataColumn(storage: .mixed(mixed)) }
            switch kind {
            case 0: return DataColumn(missing: missing)
            case 1: return DataColumn(storage: .numbers(numbers))
            default: return DataColumn(storage: .texts(codes: codes, values: values))
            }
        }
    }
}
