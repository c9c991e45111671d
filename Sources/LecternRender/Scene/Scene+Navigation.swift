import LecternCore

extension Scene {
    /// What a visitor finds their way with, drawn over the pages: the thumbnail bar, the
    /// thumbnail grid, the outline panel, the search bar with its keyboard, and search hits.
    /// The static layouts are shared with the app, which hit-tests touches against them.
    public struct Overlays: Equatable, Sendable {
        public var highlights: [Highlight] = []
        public var thumbnailBar: ThumbnailBar?
        public var grid: ThumbnailSheet?
        public var outline: OutlinePanel?
        public var search: SearchBar?
        public var keyboard: Keyboard?
        /// The selected annotation's frame (Scene+Annotations.swift).
        public var annotationFrame: AnnotationFrame?
        /// What is selected or edited, along the top.
        public var annotationBar: AnnotationBar?
        /// The keypad focus's ring, over everything (Scene+FocusRing.swift).
        public var focusRing: FocusRing?

        public init() {}

        /// How much of the bottom edge the overlays cover (a banner goes above it).
        func bottomInset(width: Int, height: Int, metrics: ChromeMetrics) -> Int {
            if let keyboard { return height - Int(keyboard.layout.frame.minY) }
            if thumbnailBar != nil {
                return height - ThumbnailBar.box(width: width, height: height, metrics: metrics).y
            }
            return 0
        }
    }

    /// A search hit on a page, in buffer pixels.
    public struct Highlight: Hashable, Sendable {
        public var box: PixelBox
        /// The page area it may cover (the page's visible part).
        public var clip: PixelBox
        /// The hit next/previous is on.
        public var isCurrent: Bool
        public init(box: PixelBox, clip: PixelBox, isCurrent: Bool) {
            self.box = box
            self.clip = clip
            self.isCurrent = isCurrent
        }

        /// The pixels it changes.
        var visible: PixelBox { box.intersection(clip) }
    }

    /// The thumbnail bar, along the bottom above the page scrubber while the chrome shows.
    public struct ThumbnailBar: Equatable, Sendable {
        /// The thumbnails on screen (clipped to `stripArea`).
        public var items: [PageItem]
        /// The current spread's outline, if it is in the strip.
        public var current: PixelBox?
        public init(items: [PageItem], current: PixelBox?) {
            self.items = items
            self.current = current
        }

        /// Every thumbnail on screen is drawn (a missing one has no layers yet).
        public var isComplete: Bool { items.allSatisfy { !$0.layers.isEmpty } }

        /// The cell a page's thumbnail is fitted into.
        public static let pageCell = Size(width: 66, height: 88)
        /// The gap between two spreads.
        public static let spacing = 14.0
        static let height = 112

        /// The bar in a `width` × `height` frame.
        public static func box(width: Int, height: Int, metrics: ChromeMetrics = .standard) -> PixelBox {
            PixelBox(
                x: 0, y: metrics.reachEnd(height) - metrics.barHeight - Self.height, width: width, height: Self.height)
        }

        /// Where the thumbnails scroll, inside the bar.
        public static func stripArea(width: Int, height: Int, metrics: ChromeMetrics = .standard) -> PixelBox {
            let bar = box(width: width, height: height, metrics: metrics)
            return PixelBox(
                x: 16, y: bar.y + (bar.height - Int(pageCell.height)) / 2, width: max(0, width - 32),
                height: Int(pageCell.height))
        }
    }

    /// The thumbnail grid: every page as a thumbnail, filling the screen.
    public struct ThumbnailSheet: Equatable, Sendable {
        /// A page label under a cell.
        public struct Label: Equatable, Sendable {
            public var text: String
            /// The middle of the text, and its top.
            public var centerX: Int, top: Int
            public init(text: String, centerX: Int, top: Int) {
                self.text = text
                self.centerX = centerX
                self.top = top
            }
        }

        public var title: String
        public var items: [PageItem]
        public var labels: [Label]
        /// The current spread's outline.
        public var current: PixelBox?
        public init(title: String, items: [PageItem], labels: [Label], current: PixelBox?) {
            self.title = title
            self.items = items
            self.labels = labels
            self.current = current
        }

        /// The cell a page's thumbnail is fitted into.
        public static let pageCell = Size(width: 150, height: 200)
        public static let spacing = 24.0
        public static let labelHeight = 34.0

        /// The bar along the top with the title and the close button.
        public static func header(width: Int, height: Int, metrics: ChromeMetrics = .standard) -> PixelBox {
            PixelBox(x: 0, y: metrics.reachTop, width: width, height: metrics.barHeight)
        }

        /// Where the cells scroll: everything below the header.
        public static func area(width: Int, height: Int, metrics: ChromeMetrics = .standard) -> PixelBox {
            let top = metrics.reachTop + metrics.barHeight
            return PixelBox(x: 0, y: top, width: width, height: max(0, height - top))
        }

        /// The close button at the header's right end.
        public static func closeButton(width: Int, height: Int, metrics: ChromeMetrics = .standard) -> PixelBox {
            let buttonWidth = metrics.scaled(128)
            return metrics.placed(
                PixelBox(
                    x: width - 8 - buttonWidth, y: metrics.reachTop + 8, width: buttonWidth,
                    height: metrics.buttonHeight))
        }
    }

    /// The outline (bookmarks) panel along the left edge.
    public struct OutlinePanel: Equatable, Sendable {
        public enum Disclosure: Equatable, Sendable { case none, open, closed }

        /// One visible entry.
        public struct Row: Equatable, Sendable {
            public var title: String
            /// The page label (or number) it leads to; empty when it leads nowhere.
            public var page: String
            public var depth: Int
            public var disclosure: Disclosure
            /// Its page is the one on screen.
            public var isCurrent: Bool
            /// Its top edge on screen.
            public var y: Int
            public init(title: String, page: String, depth: Int, disclosure: Disclosure, isCurrent: Bool, y: Int) {
                self.title = title
                self.page = page
                self.depth = depth
                self.disclosure = disclosure
                self.isCurrent = isCurrent
                self.y = y
            }
        }

        public var rows: [Row]
        public init(rows: [Row]) { self.rows = rows }

        public static let rowHeight = 56
        /// A row's height on a screen of `metrics`: `rowHeight`, or a bar's button and 8 more.
        public static func rowHeight(_ metrics: ChromeMetrics) -> Int { max(rowHeight, metrics.buttonHeight + 8) }
        /// How far each level of nesting moves an entry right.
        public static let indent = 28
        /// The disclosure triangle's width at the start of a row (after the indent).
        public static let disclosureWidth = 44

        /// The panel: the left part of the screen below the title bar (the right part in a
        /// right-to-left language).
        public static func box(width: Int, height: Int, metrics: ChromeMetrics = .standard) -> PixelBox {
            metrics.placed(
                PixelBox(
                    x: 0, y: metrics.reachTop + metrics.barHeight,
                    width: min(width, max(metrics.scaled(320), width * 2 / 5)),
                    height: max(0, height - metrics.reachTop - metrics.barHeight)))
        }

        /// Where an entry of `depth` ends its disclosure triangle (a tap before it, from the
        /// row's start, opens or closes the entry): right of it left to right, left of it right
        /// to left.
        public static func disclosureEnd(in box: PixelBox, depth: Int, metrics: ChromeMetrics) -> Int {
            let start = 8 + depth * indent + disclosureWidth
            return metrics.mirroredWidth == nil ? box.x + start : box.maxX - start
        }
    }

    /// The search bar along the top: the query, how the search goes, next and previous.
    public struct SearchBar: Equatable, Sendable {
        public var query: String
        /// "3 of 17", "Searching… 45%", "No matches".
        public var status: String
        /// The keyboard is up: the field shows a cursor.
        public var isEditing: Bool
        public init(query: String, status: String, isEditing: Bool) {
            self.query = query
            self.status = status
            self.isEditing = isEditing
        }

        public static func box(width: Int, height: Int, metrics: ChromeMetrics = .standard) -> PixelBox {
            PixelBox(x: 0, y: metrics.reachTop, width: width, height: metrics.barHeight)
        }

        /// A square-ish button in the bar: 56 units wide, or the bar's button height when larger.
        static func buttonWidth(_ metrics: ChromeMetrics) -> Int { max(56, metrics.buttonHeight) }

        // Each box is placed by `metrics`: mirrored for a right-to-left language, drawing and hit
        // tests alike.
        public static func closeButton(width: Int, height: Int, metrics: ChromeMetrics = .standard) -> PixelBox {
            metrics.placed(
                PixelBox(x: 8, y: metrics.reachTop + 8, width: buttonWidth(metrics), height: metrics.buttonHeight))
        }

        /// The text field (tap it to type again).
        public static func field(width: Int, height: Int, metrics: ChromeMetrics = .standard) -> PixelBox {
            metrics.placed(leftToRightField(width: width, metrics: metrics))
        }

        private static func leftToRightField(width: Int, metrics: ChromeMetrics) -> PixelBox {
            let x = buttonWidth(metrics) + 16
            let buttons = 2 * (buttonWidth(metrics) + 8) + metrics.scaled(260)
            return PixelBox(
                x: x, y: metrics.reachTop + 8, width: max(0, width - x - 8 - buttons), height: metrics.buttonHeight)
        }

        /// Where the status is written, between the field and the buttons.
        static func statusArea(width: Int, height: Int, metrics: ChromeMetrics = .standard) -> PixelBox {
            let field = leftToRightField(width: width, metrics: metrics)
            return metrics.placed(
                PixelBox(x: field.maxX + 12, y: field.y, width: metrics.scaled(260) - 16, height: metrics.buttonHeight))
        }

        public static func previousButton(width: Int, height: Int, metrics: ChromeMetrics = .standard) -> PixelBox {
            let step = buttonWidth(metrics) + 8
            return metrics.placed(
                PixelBox(
                    x: width - 2 * step, y: metrics.reachTop + 8, width: buttonWidth(metrics),
                    height: metrics.buttonHeight))
        }

        public static func nextButton(width: Int, height: Int, metrics: ChromeMetrics = .standard) -> PixelBox {
            let step = buttonWidth(metrics) + 8
            return metrics.placed(
                PixelBox(
                    x: width - step, y: metrics.reachTop + 8, width: buttonWidth(metrics), height: metrics.buttonHeight)
            )
        }
    }

    /// The on-screen keyboard along the bottom.
    public struct Keyboard: Equatable, Sendable {
        public var layout: OnScreenKeyboardLayout
        /// The key a finger holds down, drawn pressed.
        public var pressed: Int?
        public init(layout: OnScreenKeyboardLayout, pressed: Int?) {
            self.layout = layout
            self.pressed = pressed
        }
    }
}

extension Scene.Chrome {
    /// The buttons at the left of the title bar, in order ("Pages", "Contents", "Search"), after
    /// `leading` pixels (the back button's, when there is one).
    public static func buttonBox(_ index: Int, after leading: Int = 0, metrics: ChromeMetrics = .standard) -> PixelBox {
        let width = metrics.scaled(128)
        return metrics.placed(
            PixelBox(
                x: leading + 8 + index * (width + 8), y: metrics.reachTop + 8, width: width,
                height: metrics.buttonHeight))
    }
}
