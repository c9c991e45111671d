import PropertyBased
import Testing

@testable import LecternCore

/// The layouts the property tests run over.
enum LayoutKind: CaseIterable, Sendable, CustomStringConvertible {
    case continuousVertical, continuousHorizontal, perSpreadHorizontal, perSpreadVertical

    var description: String {
        switch self {
        case .continuousVertical: "continuous vertical"
        case .continuousHorizontal: "continuous horizontal"
        case .perSpreadHorizontal: "per-spread horizontal"
        case .perSpreadVertical: "per-spread vertical"
        }
    }

    var scrollMode: ViewConfiguration.ScrollMode {
        switch self {
        case .continuousVertical, .continuousHorizontal: .continuous
        case .perSpreadHorizontal, .perSpreadVertical: .perSpread
        }
    }

    var axis: Axis {
        switch self {
        case .continuousVertical, .perSpreadVertical: .vertical
        case .continuousHorizontal, .perSpreadHorizontal: .horizontal
        }
    }
}

/// A random document shown in a random configuration.
struct DocumentCase: Sendable, CustomStringConvertible {
    var pages: [PageGeometry]
    var spreadMode: SpreadMode
    var binding: PageBinding
    var layout: LayoutKind
    var spacing: Double
    var insets: EdgeInsets
    var viewport: Size

    var configuration: ViewConfiguration {
        ViewConfiguration(
            spreadMode: spreadMode, pageBinding: binding, scrollMode: layout.scrollMode,
            scrollDirection: layout.axis, spacing: spacing, contentInsets: insets,
            minimumZoomScale: 1, maximumZoomScale: 8)
    }

    func makeView(viewport: Size? = nil) -> DocumentView {
        DocumentView(pages: PageTable(pages), configuration: configuration, viewportSize: viewport ?? self.viewport)
    }

    var description: String {
        let sizes = pages.prefix(4).map { "\($0.cropBox)@\($0.rotation)" }.joined(separator: ", ")
        return
            "\(pages.count) pages [\(sizes)…], \(spreadMode), \(binding), \(layout), spacing \(spacing), insets \(insets), viewport \(viewport)"
    }
}

enum Generators {
    static let page = zip(
        Gen.double(in: 80...1400), Gen.double(in: 80...1400), Gen.int(in: 0...3),
        Gen.double(in: -300...300), Gen.double(in: -300...300)
    ).map { t in
        try! PageGeometry(mediaBox: Rect(x: t.3, y: t.4, width: t.0, height: t.1), rotation: t.2 * 90)
    }

    static let viewport = zip(Gen.int(in: 200...2000), Gen.int(in: 200...2000)).map { t in
        Size(width: Double(t.0), height: Double(t.1))
    }

    static let insets = zip(Gen.int(in: 0...3), Gen.int(in: 0...40)).map { t in
        switch t.0 {
        case 0: EdgeInsets.zero
        case 1: EdgeInsets(all: Double(t.1))
        case 2: EdgeInsets(top: Double(t.1), left: 5, bottom: 0, right: Double(t.1) / 2)
        default: EdgeInsets(top: 0, left: Double(t.1), bottom: 7, right: 0)
        }
    }

    static func document(
        pages: ClosedRange<Int> = 1...40, layouts: [LayoutKind] = LayoutKind.allCases
    ) -> Generator<DocumentCase, some SendableSequenceType> {
        zip(
            page.array(of: pages), Gen<SpreadMode>.case, Gen<PageBinding>.case, Gen.element(of: layouts),
            Gen.int(in: 0...30), zip(insets, viewport)
        ).map { t in
            DocumentCase(
                pages: t.0, spreadMode: t.1, binding: t.2, layout: t.3!, spacing: Double(t.4),
                insets: t.5.0, viewport: t.5.1)
        }
    }
}

/// The maximum distance between corresponding corners of two rectangles.
func cornerDistance(_ a: Rect, _ b: Rect) -> Double {
    max(abs(a.minX - b.minX), abs(a.minY - b.minY), abs(a.maxX - b.maxX), abs(a.maxY - b.maxY))
}

/// Whether two numbers agree to a relative and absolute tolerance.
func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-6) -> Bool {
    abs(a - b) <= tolerance * max(1, abs(a), abs(b))
}

func page(_ width: Double, _ height: Double, rotation: Int = 0) -> PageGeometry {
    try! PageGeometry(size: Size(width: width, height: height), rotation: rotation)
}

/// The view-space frame of `page` in `view`.
func viewFrame(of page: Int, in view: DocumentView) -> Rect {
    view.pageToView(page: page).apply(to: view.pages[page].cropBox)
}
