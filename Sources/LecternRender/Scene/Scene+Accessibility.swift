import LecternCore

extension Scene {
    /// The accessibility button, on screen whenever the reader is (the international symbol of
    /// accessibility on a blue disc, at the bottom left, in a seated visitor's reach), and the
    /// panel it opens above it: one large row per setting.
    public struct Accessibility: Equatable, Sendable {
        /// The panel's rows, top to bottom (nil: closed).
        public var rows: [String]?
        /// How far above the frame's bottom edge the button sits (over the page scrubber when
        /// the chrome shows).
        public var bottomInset: Int
        /// The sizes of the screen it is on.
        public var metrics: ChromeMetrics

        public init(rows: [String]? = nil, bottomInset: Int = 0, metrics: ChromeMetrics = .standard) {
            self.rows = rows
            self.bottomInset = bottomInset
            self.metrics = metrics
        }

        /// The button's side (surface units) with `standard` metrics: larger than 9 mm on any
        /// kiosk screen up to 32 inches; at least the metrics' target, and a bar high.
        public static let buttonSize = 72
        public static let rowHeight = 72
        public static let rowWidth = 380
        static let margin = 16

        /// The button's side and a row's height on this screen.
        var buttonSide: Int { max(Self.buttonSize, metrics.target, metrics.barHeight + 8) }
        /// A row's height and width on this screen.
        var rowSize: (width: Int, height: Int) { (metrics.scaled(Self.rowWidth), buttonSide) }

        /// The button in a frame `height` high (at the right for a right-to-left chrome).
        public func buttonBox(height: Int) -> PixelBox { metrics.placed(startButtonBox(height: height)) }

        /// The button laid out left to right.
        private func startButtonBox(height: Int) -> PixelBox {
            PixelBox(
                x: Self.margin, y: height - bottomInset - Self.margin - buttonSide, width: buttonSide,
                height: buttonSide)
        }

        /// The panel's rows, stacked upwards from just above the button; beside it, up from the
        /// bottom of the part in reach, when above it they would leave that part. Rows that do not
        /// fit in one column (a short screen, a small reach, large print's extra rows) go on in
        /// columns side by side, the first rows in the first column, each column as full as the others.
        public func rowBoxes(height: Int) -> [PixelBox] {
            guard let rows, !rows.isEmpty else { return [] }
            let button = startButtonBox(height: height)
            let step = rowSize.height + 4
            let beside = metrics.reachTop > 0 && button.y - 8 - rows.count * step < metrics.reachTop
            let (x, end) = beside ? (button.maxX + 8, metrics.reachEnd(height) - 4) : (Self.margin, button.y - 8)
            let top = beside ? metrics.reachTop : Self.margin
            let fits = max(1, (end - top) / step)
            let columns = (rows.count + fits - 1) / fits
            let perColumn = (rows.count + columns - 1) / columns
            return rows.indices.map { index in
                let column = index / perColumn
                let inColumn = min(perColumn, rows.count - column * perColumn)
                return metrics.placed(
                    PixelBox(
                        x: x + column * (rowSize.width + 8), y: end - (inColumn - index % perColumn) * step,
                        width: rowSize.width, height: rowSize.height))
            }
        }

        /// Everything it covers (for damage).
        public func area(height: Int) -> PixelBox {
            rowBoxes(height: height).reduce(buttonBox(height: height)) { $0.union($1) }
        }
    }
}
