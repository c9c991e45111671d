import LecternCore
import LecternLinux

/// Measures the document view model's per-frame cost and memory, and prints them as JSON.
///
/// Per frame the renderer asks for the visible spreads and their page frames
/// (`DocumentView.visibleLayout()`); that must cost the same for 1,000,000 pages as for 10.
/// Timing uses `ContinuousClock`; each figure is the median over batches. Memory is the heap
/// a view of 1,000,000 pages holds (malloc's count of bytes in use before and after making
/// it), per page: with every page at the estimated size (uniform), and with one page in ten
/// measured to another size (mixed), as the kiosk records them.
func runLayoutBenchmark() {
    let viewport = Size(width: 1920, height: 1080)
    let letter = try! PageGeometry(size: Size(width: 612, height: 792))
    let counts = [10, 15_000, 1_000_000]
    let layouts: [(name: String, configuration: ViewConfiguration)] = [
        ("continuousVertical", ViewConfiguration(scrollMode: .continuous, scrollDirection: .vertical)),
        ("scrollPerSpread", ViewConfiguration(scrollMode: .perSpread, scrollDirection: .horizontal)),
    ]
    var sink = 0
    var sections: [String] = []
    for (name, configuration) in layouts {
        var perCount: [Int: Double] = [:]
        for count in counts {
            let view = DocumentView(
                pages: PageTable(count: count, estimate: letter), configuration: configuration, viewportSize: viewport)
            perCount[count] = queryMicroseconds(view, sink: &sink)
        }
        let mixed = mixedView(count: 1_000_000, configuration: configuration, viewport: viewport)
        let mixedCost = queryMicroseconds(mixed, sink: &sink)
        let ratio = perCount[1_000_000]! / perCount[10]!
        let uniformBytes = heapBytes {
            DocumentView(
                pages: PageTable(count: 1_000_000, estimate: letter), configuration: configuration,
                viewportSize: viewport)
        }
        let mixedBytes = heapBytes { mixedView(count: 1_000_000, configuration: configuration, viewport: viewport) }
        sections.append(
            """
              "\(name)": {
                "usPerQuery10Pages": \(format(perCount[10]!)),
                "usPerQuery15000Pages": \(format(perCount[15_000]!)),
                "usPerQuery1000000Pages": \(format(perCount[1_000_000]!)),
                "usPerQuery1000000PagesMixedSizes": \(format(mixedCost)),
                "ratio1000000To10": \(format(ratio)),
                "withinTarget": \(ratio <= 2),
                "bytesPerPage1000000PagesUniform": \(format(Double(uniformBytes) / 1_000_000)),
                "bytesPerPage1000000PagesMixedOneInTen": \(format(Double(mixedBytes) / 1_000_000))
              }
            """)
    }

    // Opening a 15,000-page document whose page sizes are all estimates.
    var openSamples: [Double] = []
    for _ in 0..<21 {
        let start = ContinuousClock.now
        let view = DocumentView(pages: PageTable(count: 15_000, estimate: letter), viewportSize: viewport)
        openSamples.append(microseconds(ContinuousClock.now - start) / 1000)
        sink &+= view.layout.spreadCount
    }
    sections.append("  \"openingLayout15000PagesEstimatedMs\": \(format(median(openSamples)))")
    sections.append("  \"viewport\": \"1920x1080\"")
    sections.append("  \"checksum\": \(sink)")
    print("{\n" + sections.joined(separator: ",\n") + "\n}")
}

/// The median cost in µs of `visibleLayout()` at 64 scroll positions spread over `view`'s
/// whole document.
private func queryMicroseconds(_ view: DocumentView, sink: inout Int) -> Double {
    // Each position is its own view value (they share the layout's storage), so the timed
    // loop does nothing but query.
    let positions = 64
    let views: [DocumentView] = (0..<positions).map { i in
        var copy = view
        let index = Double(i) / Double(positions) * Double(copy.layout.spreadCount)
        let offset = copy.layout.contentOffset(forContinuousSpreadIndex: index)
        copy.setContentOffset(offset)
        return copy
    }
    let iterations = 2_000
    var samples: [Double] = []
    for _ in 0..<31 {
        let start = ContinuousClock.now
        for i in 0..<iterations {
            let layout = views[i & (positions - 1)].visibleLayout()
            sink &+= layout.count &+ (layout.first?.pages.count ?? 0)
        }
        samples.append(microseconds(ContinuousClock.now - start) / Double(iterations))
    }
    return median(samples)
}

/// A view of `count` US-letter pages of which one in ten is landscape A4, sizes recorded as
/// the kiosk records them once the page tree is read (only the pages that differ).
private func mixedView(count: Int, configuration: ViewConfiguration, viewport: Size) -> DocumentView {
    let letter = try! PageGeometry(size: Size(width: 612, height: 792))
    let landscape = try! PageGeometry(size: Size(width: 842, height: 595))
    var view = DocumentView(
        pages: PageTable(count: count, estimate: letter), configuration: configuration, viewportSize: viewport)
    try! view.updatePageGeometries(stride(from: 3, to: count, by: 10).map { ($0, landscape) })
    return view
}

/// The heap bytes (in use, small blocks and mmapped ones) that the value `make` returns
/// holds, measured while it is alive.
private func heapBytes<T>(_ make: () -> T) -> Int {
    func inUse() -> Int {
        trimHeap()
        return heapBytesInUse()
    }
    let before = inUse()
    let value = make()
    let after = inUse()
    withExtendedLifetime(value) {}
    return max(0, after - before)
}

private func microseconds(_ duration: Duration) -> Double {
    duration.seconds * 1e6
}

private func format(_ value: Double) -> String {
    String((value * 1000).rounded() / 1000)
}
