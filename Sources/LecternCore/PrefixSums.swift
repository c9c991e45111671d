/// Positive values with O(log n) prefix sums, point updates and searches (a Fenwick tree).
///
/// The layouts keep one extent per spread here, so finding the spread at an offset and
/// refining an estimated spread size both cost O(log n) regardless of the page count.
struct PrefixSums: Sendable, Equatable {
    /// The values, in order.
    private(set) var values: [Double]
    /// 1-based Fenwick tree over `values`.
    private var tree: [Double]
    /// The sum of all values.
    private(set) var total: Double

    init(_ values: [Double]) {
        self.values = values
        var tree = [Double](repeating: 0, count: values.count + 1)
        let n = values.count
        tree.withUnsafeMutableBufferPointer { t in
            for i in 1...max(1, n) where i <= n {
                t[i] += values[i - 1]
                let parent = i + (i & -i)
                if parent <= n { t[parent] += t[i] }
            }
        }
        self.tree = tree
        self.total = values.reduce(0, +)
    }

    var count: Int { values.count }

    /// The sum of the first `k` values.
    func prefix(_ k: Int) -> Double {
        var i = min(max(k, 0), values.count)
        var sum = 0.0
        while i > 0 {
            sum += tree[i]
            i &= i - 1
        }
        return sum
    }

    /// Replaces the value at `index`.
    mutating func set(_ value: Double, at index: Int) {
        let delta = value - values[index]
        values[index] = value
        total += delta
        var i = index + 1
        while i < tree.count {
            tree[i] += delta
            i += i & -i
        }
    }

    /// The largest `k` in `0...count` whose prefix sum is at most `x` (or below `x` when
    /// `strictly`); 0 when even the empty prefix does not qualify.
    func largestIndex(withPrefixAtMost x: Double, strictly: Bool = false) -> Int {
        var position = 0
        var remaining = x
        var step = 1
        while step * 2 <= values.count { step *= 2 }
        while step > 0 {
            let next = position + step
            if next <= values.count {
                let node = tree[next]
                if strictly ? node < remaining : node <= remaining {
                    position = next
                    remaining -= node
                }
            }
            step /= 2
        }
        return position
    }
}
