import Testing

@testable import LecternCore

/// The shelf's grid (issue 14): covers as large as fit, a scrolling grid when they do not,
/// and hit testing.
@Suite("Shelf layout")
struct ShelfLayoutTests {
    @Test("three documents on a 1280 x 720 screen: one row of the largest covers, all on screen")
    func threeOnOneRow() {
        let layout = ShelfLayout(screenWidth: 1280, screenHeight: 720, count: 3)
        #expect(layout.columns == 3)
        #expect(layout.coverWidth == ShelfLayout.maximumCoverWidth || layout.coverWidth > 300)
        #expect(layout.maximumScroll == 0)
        let boxes = (0..<3).map { layout.coverBox($0) }
        #expect(Set(boxes.map(\.y)).count == 1, "one row")
        for box in boxes {
            #expect(box.x >= 0 && box.maxX <= 1280 && box.y >= 0 && box.maxY + layout.titleHeight <= 720)
        }
    }

    @Test("every count on several screens: cells never overlap, and a grid that does not fit scrolls to its end")
    func fitsOrScrolls() {
        for (width, height) in [(1280, 720), (720, 1280), (1920, 1080), (800, 480), (320, 240)] {
            for count in 1...40 {
                let layout = ShelfLayout(screenWidth: width, screenHeight: height, count: count)
                let cells = (0..<count).map { index in
                    let box = layout.coverBox(index)
                    return PixelBox(x: box.x, y: box.y, width: box.width, height: box.height + layout.titleHeight)
                }
                for (a, b) in zip(cells, cells.dropFirst()) { #expect(a.intersection(b).isEmpty) }
                #expect(cells.allSatisfy { $0.x >= 0 && $0.maxX <= width }, "\(width)x\(height), \(count)")
                let last = layout.coverBox(count - 1, scroll: layout.maximumScroll)
                #expect(last.maxY + layout.titleHeight <= height, "the last title can be scrolled into view")
                if layout.maximumScroll == 0 {
                    #expect(cells.allSatisfy { $0.y >= 0 && $0.maxY <= height })
                } else {
                    #expect(
                        layout.coverWidth <= ShelfLayout.minimumCoverWidth, "scrolls only when small covers do not fit")
                }
            }
        }
    }

    @Test("a point on a cover or its title finds it; a point between cells or past the last finds none")
    func hitTesting() {
        let layout = ShelfLayout(screenWidth: 1280, screenHeight: 720, count: 14)
        for scroll in [0, 100, layout.maximumScroll] {
            let visible = layout.visibleIndices(scroll: scroll)
            for index in 0..<14 {
                let box = layout.coverBox(index, scroll: scroll)
                let onScreen = box.maxY + layout.titleHeight > 0 && box.y < 720
                #expect(visible.contains(index) || !onScreen, "cover \(index) is on screen at \(scroll)")
                let centre = Point(x: Double(box.x + box.width / 2), y: Double(box.y + box.height / 2))
                #expect(layout.index(at: centre, scroll: scroll) == index)
                let title = layout.titleBox(index, scroll: scroll)
                #expect(
                    layout.index(at: Point(x: Double(title.x + 2), y: Double(title.y + 2)), scroll: scroll) == index)
                let gap = Point(x: Double(box.maxX + ShelfLayout.spacing / 2), y: centre.y)
                #expect(layout.index(at: gap, scroll: scroll) == nil)
            }
        }
        #expect(layout.index(at: Point(x: 5, y: 5)) == nil)
    }

    @Test("a landscape page stands on the bottom of its box, centred, as large as fits")
    func coverFrame() {
        let layout = ShelfLayout(screenWidth: 1280, screenHeight: 720, count: 3)
        let box = layout.coverBox(1)
        let frame = layout.coverFrame(1, pageSize: Size(width: 842, height: 595))
        #expect(frame.width == box.width && frame.maxY == box.maxY && frame.height < box.height)
        let portrait = layout.coverFrame(1, pageSize: Size(width: 100, height: 1000))
        #expect(portrait.height == box.height && portrait.x > box.x && portrait.maxX < box.maxX)
    }

    @Test("right to left the covers run from the right, and a point finds the cover drawn under it (issue 31)")
    func rightToLeft() {
        let ltr = ShelfLayout(screenWidth: 1280, screenHeight: 720, count: 5)
        var rtl = ltr
        rtl.isRightToLeft = true
        #expect(ltr.columns > 1)
        for index in 0..<5 {
            let a = ltr.coverBox(index), b = rtl.coverBox(index)
            #expect(b.x == 1280 - a.maxX && b.y == a.y && b.width == a.width, "cover \(index)")
            let middle = Point(x: Double(b.x + b.width / 2), y: Double(b.y + b.height / 2))
            #expect(rtl.index(at: middle) == index)
        }
        #expect(rtl.coverBox(0).x > rtl.coverBox(1).x, "the first cover at the right")
    }
}
