/// `count` positive values that all equal `uniform` except at a few indices, with prefix sums,
/// lookups and searches in O(log m), m being the number of exceptions.
///
/// The layouts keep one extent per spread here. Spreads of pages whose sizes are estimates
/// all look alike, so a document that claims 1.4 billion pages costs a few numbers, not
/// 1.4 billion: storage grows only with the spreads that differ from the uniform one (pages
/// measured to another size, a first or last spread holding fewer pages).
struct SparsePrefixSums: Sendable, Equatable {
    /// The number of values.
    private(set) var count: Int
    /// The value at every index that is not an exception.
    private(set) var uniform: Double
    /// The indices whose value differs from `uniform`, ascending.
    private var indices: [Int] = []
    /// The values at `indices`.
    private var values: [Double] = []
    /// `offsets[j]` is the sum of `values[i] - uniform` for `i < j` (one more entry than
    /// `indices`): the prefix sum of the first `k` values is `k × uniform + offsets[j]`, with
    /// `j` the number of exceptions below `k`.
    private var offsets: [Double] = [0]

    /// `count` values equal to `uniform` except at the indices of `exceptions` (later entries
    /// for the same index win; entries equal to `uniform` or out of range are left out).
    init(count: Int, uniform: Double, exceptions: [(index: Int, value: Double)] = []) {
        self.count = max(0, count)
        self.uniform = uniform
        set(exceptions)
    }

    /// How many values differ from `uniform` (what the storage grows with).
    var exceptionCount: Int { indices.count }

    /// The sum of all values.
    var total: Double { prefix(count) }

    /// The value at `index` (in `0..<count`).
    subscript(index: Int) -> Double {
        let j = exceptionsBelow(index)
        return j < indices.count && indices[j] == index ? values[j] : uniform
    }

    /// The sum of the first `k` values (`k` is clamped to `0...count`).
    func prefix(_ k: Int) -> Double {
        let k = min(max(k, 0), count)
        return Double(k) * uniform + offsets[exceptionsBelow(k)]
    }

    /// The sum of the values before `index` and the value at `index` (in `0..<count`), with one
    /// search instead of two.
    func prefixAndValue(at index: Int) -> (prefix: Double, value: Double) {
        let j = exceptionsBelow(index)
        let value = j < indices.count && indices[j] == index ? values[j] : uniform
        return (Double(index) * uniform + offsets[j], value)
    }

    /// Sets the values at the given indices (later entries for the same index win). Costs
    /// O(m + u log u) for u updates: batch them.
    mutating func set(_ updates: [(index: Int, value: Double)]) {
        guard !updates.isEmpty else { return }
        var latest: [Int: Double] = [:]
        for update in updates where update.index >= 0 && update.index < count { latest[update.index] = update.value }
        let changes = latest.sorted { $0.key < $1.key }
        var mergedIndices: [Int] = []
        var mergedValues: [Double] = []
        mergedIndices.reserveCapacity(indices.count + changes.count)
        mergedValues.reserveCapacity(indices.count + changes.count)
        func append(_ index: Int, _ value: Double) {
            guard value != uniform else { return }
            mergedIndices.append(index)
            mergedValues.append(value)
        }
        var i = 0
        for (index, value) in changes {
            while i < indices.count && indices[i] < index {
                append(indices[i], values[i])
                i += 1
            }
            if i < indices.count && indices[i] == index { i += 1 }
            append(index, value)
        }
        while i < indices.count {
            append(indices[i], values[i])
            i += 1
        }
        indices = mergedIndices
        values = mergedValues
        var running = 0.0
        offsets = [0]
        offsets.reserveCapacity(values.count + 1)
        for value in values {
            running += value - uniform
            offsets.append(running)
        }
    }

    /// The largest `k` in `0...count` whose prefix sum is at most `x` (or below `x` when
    /// `strictly`); 0 when even the empty prefix does not qualify.
    func largestIndex(withPrefixAtMost x: Double, strictly: Bool = false) -> Int {
        func fits(_ sum: Double) -> Bool { strictly ? sum < x : sum <= x }
        guard count > 0, fits(0.0) else { return 0 }
        // The last exception whose start (the prefix just before it) fits: the answer lies
        // in the uniform run that follows it, or before the first exception. Exception `j`
        // has `j` exceptions below it, so its start is `prefix(indices[j])` without a search.
        var low = 0
        var high = indices.count
        while low < high {
            let mid = (low + high) / 2
            if fits(Double(indices[mid]) * uniform + offsets[mid]) { low = mid + 1 } else { high = mid }
        }
        // Runs: k in (indices[low - 1], end] share the offset `offsets[low]`.
        let start = low == 0 ? 0 : indices[low - 1]
        let end = low < indices.count ? indices[low] : count
        if low > 0 && !fits(Double(start + 1) * uniform + offsets[low]) { return start }
        // In the run, every prefix has the same exceptions below it: `k × uniform + base`.
        let base = offsets[low]
        func fitsInRun(_ k: Int) -> Bool { fits(Double(k) * uniform + base) }
        var k = uniform > 0 ? Int(max(Double(start), min(Double(end), ((x - base) / uniform).rounded(.down)))) : end
        // The division rounds differently from `prefix`; step to the exact answer.
        while k < end && fitsInRun(k + 1) { k += 1 }
        while k > start && !fitsInRun(k) { k -= 1 }
        return k
    }

    /// The number of exceptions at indices below `k`.
    private func exceptionsBelow(_ k: Int) -> Int {
        var low = 0
        var high = indices.count
        while low < high {
            let mid = (low + high) / 2
            if indices[mid] < k { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
