import LecternCore

/// Measures the document view model's per-frame cost and prints it as JSON on stdout.
///
/// Per frame the renderer asks for the visible spreads and their page frames
/// (`DocumentView.visibleLayout()`); that must cost the same for 1,000,000 pages as for 10.
/// Timing uses `ContinuousClock`; each figure is the median over batches.
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
            // 64 scroll positions spread over the whole document, each its own view value
            // (they share the layout's storage), so the timed loop does nothing but query.
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
            perCount[count] = median(samples)
        }
        let ratio = perCount[1_000_000]! / perCount[10]!
        sections.append(
            """
              "\(name)": {
                "usPerQuery10Pages": \(format(perCount[10]!)),
                "usPerQuery15000Pages": \(format(perCount[15_000]!)),
                "usPerQuery1000000Pages": \(format(perCount[1_000_000]!)),
                "ratio1000000To10": \(format(ratio)),
                "withinTarget": \(ratio <= 2)
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

private func microseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1e6 + Double(attoseconds) * 1e-12
}

private func format(_ value: Double) -> String {
    String((value * 1000).rounded() / 1000)
}
