import PropertyBased
import Testing

@testable import LecternCore

@Suite("Properties of the document view model")
struct PropertyTests {
    @Test("spread/page conversions are consistent and partition the pages")
    func spreadsPartitionPages() async {
        await propertyCheck(
            count: 300, input: Gen.int(in: 0...400), Gen<SpreadMode>.case, Gen<PageBinding>.case
        ) { count, mode, binding in
            let spreads = Spreads(pageCount: count, mode: mode, binding: binding)
            var next = 0
            for s in 0..<spreads.spreadCount {
                let range = spreads.pageRange(forSpread: s)
                #expect(range.lowerBound == next, "spreads must be contiguous")
                #expect((1...2).contains(range.count))
                for p in range { #expect(spreads.spreadIndex(forPage: p) == s) }
                let order = spreads.displayOrder(ofSpread: s)
                #expect(order == (binding == .rightEdge ? Array(range).reversed() : Array(range)))
                next = range.upperBound
            }
            #expect(next == count, "every page belongs to exactly one spread")
            if mode == .cover && count > 0 { #expect(spreads.pageRange(forSpread: 0) == 0..<1) }
            if mode == .single { #expect(spreads.spreadCount == count) }
        }
    }

    @Test("continuousSpreadIndex(forContentOffset:) and contentOffset(forContinuousSpreadIndex:) are inverse")
    func offsetIndexInverse() async {
        await propertyCheck(count: 300, input: Generators.document(), Gen.double(in: 0...1), Gen.double(in: 0...1)) {
            doc, f, g in
            let view = doc.makeView()
            let layout = view.layout
            let n = layout.spreadCount
            let index = f * Double(n)
            let offset = layout.contentOffset(forContinuousSpreadIndex: index)
            let back = layout.continuousSpreadIndex(forContentOffset: offset)
            #expect(close(back, index, 1e-9), "index \(index) → offset \(offset) → \(back)")

            let axis = layout.scrollAxis
            let main = g * layout.contentSize.extent(along: axis)
            let point = axis == .vertical ? Point(x: 0, y: main) : Point(x: main, y: 0)
            let index2 = layout.continuousSpreadIndex(forContentOffset: point)
            let point2 = layout.contentOffset(forContinuousSpreadIndex: index2)
            let main2 = axis == .vertical ? point2.y : point2.x
            #expect(abs(main2 - main) < 1e-6 * max(1, main), "offset \(main) → index \(index2) → \(main2)")
        }
    }

    @Test("visible spreads are exactly those whose frames intersect the rect")
    func visibleSpreadsMatchBruteForce() async {
        await propertyCheck(
            count: 400, input: Generators.document(pages: 1...80), Gen.double(in: -0.1...1.1).array(of: 4),
            Gen.int(in: 0...3),
            Gen.element(of: [-0.5, -1e-9, 0, 1e-9, 0.5])
        ) { doc, f, snap, delta in
            let layout = doc.makeView().layout
            let size = layout.contentSize
            var x0 = min(f[0], f[1]) * size.width, x1 = max(f[0], f[1]) * size.width
            var y0 = min(f[2], f[3]) * size.height, y1 = max(f[2], f[3]) * size.height
            // Put edges on (or a hair off) spread frame edges, where off-by-one errors live.
            if snap > 0 {
                let s = Int(f[0].magnitude * Double(layout.spreadCount)) % layout.spreadCount
                let frame = layout.frame(forSpread: s)
                let d = delta!
                if snap & 1 != 0 { x0 = frame.maxX + d; y0 = frame.maxY + d }
                if snap & 2 != 0 { x1 = max(x0 + 1, frame.minX + d); y1 = max(y0 + 1, frame.minY + d) }
            }
            let rect = Rect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
            let expected = (0..<layout.spreadCount).filter { layout.frame(forSpread: $0).intersects(rect) }
            #expect(layout.visibleSpreads(in: rect) == expected, "rect \(rect)")
        }
    }

    @Test("capture → restore at the same size is the identity (within 0.5 px)")
    func captureRestoreIdentity() async {
        await propertyCheck(
            count: 300, input: Generators.document(), Gen.double(in: 0...1), Gen.double(in: 1...7),
            zip(Gen.double(in: 0...1), Gen.double(in: 0...1)),
            zip(Gen.double(in: -900...900), Gen.double(in: -900...900))
        ) { doc, pageFraction, zoom, focal, pan in
            var view = doc.makeView()
            let page = min(doc.pages.count - 1, Int(pageFraction * Double(doc.pages.count)))
            try view.goToPage(page)
            if zoom > 1.05 {
                view.zoom(to: zoom, about: Point(x: focal.0 * doc.viewport.width, y: focal.1 * doc.viewport.height))
                view.scroll(by: Point(x: pan.0, y: pan.1))
            }
            let state = view.viewState()
            #expect((state.viewport != nil) == view.isZoomedIn)

            var restored = doc.makeView()
            try restored.restore(state)
            #expect(close(restored.currentZoomScale, view.currentZoomScale, 1e-9), "the zoom comes back")
            #expect(restored.viewState().pageIndex == state.pageIndex, "and so does the dominant page")
            for p in visiblePages(view) {
                let d = cornerDistance(viewFrame(of: p, in: view), viewFrame(of: p, in: restored))
                #expect(d <= 0.5, "page \(p) moved by \(d) px; state \(state)")
            }
        }
    }

    @Test("resize A → B → A restores the original")
    func resizeRoundTrip() async {
        await propertyCheck(
            count: 300, input: Generators.document(), Generators.viewport, Gen.double(in: 0...1), Gen.double(in: 1...6),
            Gen.double(in: -2000...2000)
        ) { doc, other, pageFraction, zoom, pan in
            var view = doc.makeView()
            let page = min(doc.pages.count - 1, Int(pageFraction * Double(doc.pages.count)))
            try view.goToPage(page)
            if zoom > 1.05 { view.zoom(to: zoom, about: view.viewBounds.center) }
            // Paged layouts settle on a spread when resized, so pan them only when zoomed
            // (then the pan moves inside the spread).
            if zoom > 1.05 || doc.layout.scrollMode == .continuous {
                view.scroll(by: Point(x: pan / 3, y: pan))
            }
            let layoutBefore = view.visibleLayout()
            let state = view.viewState()

            view.setViewportSize(other)
            view.setViewportSize(doc.viewport)

            #expect(view.viewState() == state || view.viewState().pageIndex == state.pageIndex)
            // Spreads showing less than a pixel may come and go with rounding.
            func onScreen(_ layout: [SpreadLayoutAttributes]) -> [SpreadLayoutAttributes] {
                layout.filter { ($0.frame.intersection($0.clipRect)?.area ?? 0) > 1 }
            }
            let after = onScreen(view.visibleLayout())
            let before = onScreen(layoutBefore)
            #expect(before.map(\.spread) == after.map(\.spread))
            for (a, b) in zip(before, after) {
                #expect(cornerDistance(a.frame, b.frame) <= 0.5, "spread \(a.spread): \(a.frame) vs \(b.frame)")
            }
        }
    }

    @Test("a right-to-left horizontal layout mirrors the left-to-right one")
    func rightToLeftMirrorsLeftToRight() async {
        await propertyCheck(
            input: Generators.document(layouts: [.continuousHorizontal, .perSpreadHorizontal]), Gen.double(in: 0...1)
        ) { doc, f in
            var ltrCase = doc
            ltrCase.binding = .leftEdge
            var rtlCase = doc
            rtlCase.binding = .rightEdge
            var ltr = ltrCase.makeView()
            var rtl = rtlCase.makeView()
            let width = ltr.layout.contentSize.width
            #expect(rtl.layout.contentSize == ltr.layout.contentSize)
            for s in 0..<ltr.layout.spreadCount {
                let a = ltr.layout.frame(forSpread: s)
                let b = rtl.layout.frame(forSpread: s)
                #expect(cornerDistance(b, Rect(x: width - a.maxX, y: a.minY, width: a.width, height: a.height)) < 1e-6)
                #expect(rtl.spreads.displayOrder(ofSpread: s) == ltr.spreads.displayOrder(ofSpread: s).reversed())
            }
            // On screen, the same page is at mirrored positions.
            let page = min(doc.pages.count - 1, Int(f * Double(doc.pages.count)))
            try ltr.goToPage(page)
            try rtl.goToPage(page)
            let a = viewFrame(of: page, in: ltr)
            let b = viewFrame(of: page, in: rtl)
            let w = doc.viewport.width
            #expect(cornerDistance(b, Rect(x: w - a.maxX, y: a.minY, width: a.width, height: a.height)) < 1e-6)
        }
    }

    @Test("refining estimated page sizes keeps the dominant spread in place")
    func refiningEstimatesDoesNotJump() async {
        await propertyCheck(
            count: 60,
            input: Generators.document(pages: 4...60, layouts: [.continuousVertical, .continuousHorizontal]),
            Gen.double(in: 0...1)
        ) { doc, f in
            let estimate = page(612, 792)
            var view = DocumentView(
                pages: PageTable(count: doc.pages.count, estimate: estimate), configuration: doc.configuration,
                viewportSize: doc.viewport)
            let target = min(doc.pages.count - 1, Int(f * Double(doc.pages.count)))
            try view.goToPage(target)
            let dominant = view.dominantPage()
            let spread = view.spreads.spreadIndex(forPage: dominant)
            let before = view.contentToView(spread: spread).apply(to: view.layout.frame(forSpread: spread))
            // Real sizes arrive for the pages before the one on screen.
            let range = view.spreads.pageRange(forSpread: spread)
            try view.updatePageGeometries((0..<range.lowerBound).map { ($0, doc.pages[$0]) })
            let after = view.contentToView(spread: spread).apply(to: view.layout.frame(forSpread: spread))
            let bounds = view.documentOffsetBounds()
            // Near either end the offset may have to be clamped; anywhere else nothing moves.
            let axis = view.layout.scrollAxis
            let main = axis == .vertical ? view.contentOffset.y : view.contentOffset.x
            let lower = axis == .vertical ? bounds.lower.y : bounds.lower.x
            let upper = axis == .vertical ? bounds.upper.y : bounds.upper.x
            let clamped = abs(main - lower) < 1e-6 || abs(main - upper) < 1e-6
            if !clamped {
                #expect(
                    abs(after.minX - before.minX) <= 0.5 && abs(after.minY - before.minY) <= 0.5, "\(before) → \(after)"
                )
            }
            // The layout equals one built from scratch with the same sizes.
            let fresh = DocumentView(pages: view.pages, configuration: doc.configuration, viewportSize: doc.viewport)
            for s in 0..<fresh.layout.spreadCount {
                #expect(cornerDistance(fresh.layout.frame(forSpread: s), view.layout.frame(forSpread: s)) < 1e-6)
            }
        }
    }

    @Test("the visible layout holds exactly the pages on screen, where the conversions put them")
    func visibleLayoutMatchesBruteForce() async {
        await propertyCheck(
            input: Generators.document(), Gen.double(in: 0...1), Gen.double(in: 0.8...6),
            zip(Gen.double(in: -3000...3000), Gen.double(in: -3000...3000)), Gen.double(in: 0...1)
        ) { doc, pageFraction, zoom, pan, f in
            var view = doc.makeView()
            try view.goToPage(min(doc.pages.count - 1, Int(pageFraction * Double(doc.pages.count))))
            view.zoom(to: zoom, about: Point(x: f * doc.viewport.width, y: (1 - f) * doc.viewport.height))
            view.scroll(by: Point(x: pan.0, y: pan.1))

            var expected: [Int] = []
            for s in 0..<view.layout.spreadCount {
                var clip = view.viewBounds
                if view.layout.spreadBasedZooming {
                    let cell = view.zoomCell(forSpread: s).offsetBy(
                        Point(x: -view.contentOffset.x, y: -view.contentOffset.y))
                    guard let c = cell.intersection(view.viewBounds) else { continue }
                    clip = c
                }
                for p in view.spreads.pageRange(forSpread: s) where viewFrame(of: p, in: view).intersects(clip) {
                    expected.append(p)
                }
            }
            let attributes = view.visibleLayout().flatMap(\.pages)
            #expect(Set(attributes.map(\.page)) == Set(expected))
            for page in attributes {
                let corner = view.convert(
                    Point(x: page.frame.minX, y: page.frame.minY), from: .view, to: .page(page.page))
                #expect(
                    page.pageToView.apply(to: corner).distance(to: Point(x: page.frame.minX, y: page.frame.minY)) < 1e-6
                )
                #expect(cornerDistance(page.frame, viewFrame(of: page.page, in: view)) < 1e-6)
            }
        }
    }

    @Test("converting a point to any space and back is the identity")
    func conversionsRoundTrip() async {
        await propertyCheck(
            input: Generators.document(), Gen.double(in: 1...5), Gen.int(in: 0...3).array(of: 2), Gen.double(in: 0...1),
            zip(Gen.double(in: -5000...5000), Gen.double(in: -5000...5000))
        ) { doc, zoom, kinds, f, p in
            var view = doc.makeView()
            try view.goToPage(Int(f * Double(doc.pages.count - 1)))
            view.zoom(to: zoom, about: view.viewBounds.center)
            func space(_ kind: Int) -> CoordinateSpace {
                switch kind {
                case 0: .view
                case 1: .content
                case 2: .spread(Int(f * Double(view.layout.spreadCount - 1)))
                default: .page(Int((1 - f) * Double(doc.pages.count - 1)))
                }
            }
            let a = space(kinds[0]), b = space(kinds[1])
            let point = Point(x: p.0, y: p.1)
            let back = view.convert(view.convert(point, from: a, to: b), from: b, to: a)
            #expect(back.distance(to: point) < 1e-6 * max(1, abs(p.0), abs(p.1)), "\(a) → \(b)")
        }
    }
}

/// The pages on screen in `view`.
func visiblePages(_ view: DocumentView) -> [Int] {
    view.visibleLayout().flatMap { $0.pages.map(\.page) }
}
