import LecternCore

extension Scene {
    /// The selected annotation's frame, with a handle on each corner when it can be resized,
    /// in buffer pixels.
    public struct AnnotationFrame: Equatable, Sendable {
        /// The annotation's box (where a drag has put it).
        public var box: PixelBox
        /// The page area it is drawn in (the page's visible part).
        public var clip: PixelBox
        /// The corners have handles (the annotation can be moved and resized).
        public var showsHandles: Bool
        /// The side of a handle, in buffer pixels.
        public var handleSize: Int

        public init(box: PixelBox, clip: PixelBox, showsHandles: Bool, handleSize: Int = 16) {
            self.box = box
            self.clip = clip
            self.showsHandles = showsHandles
            self.handleSize = handleSize
        }

        /// The handles' boxes, centred on the corners.
        public var handles: [PixelBox] {
            guard showsHandles else { return [] }
            let half = handleSize / 2
            return [(box.x, box.y), (box.maxX, box.y), (box.x, box.maxY), (box.maxX, box.maxY)].map { x, y in
                PixelBox(x: x - half, y: y - half, width: handleSize, height: handleSize)
            }
        }

        /// The pixels it changes.
        var visible: PixelBox { box.insetBy(dx: -handleSize, dy: -handleSize).intersection(clip) }
    }

    /// The annotation bar along the top: what is selected or edited (a field's name, a note's
    /// author), its text (with a cursor while typing), and Done; while a choice field is edited,
    /// its options in a list below the bar.
    public struct AnnotationBar: Equatable, Sendable {
        public enum Mode: Equatable, Sendable {
            /// Shows a selected annotation's text.
            case reading
            /// Text is typed (the on-screen keyboard or a hardware one).
            case typing
            /// One of `options` is picked.
            case choosing
        }

        public var title: String
        public var text: String
        public var mode: Mode
        public var options: [String]
        /// The option the field has now.
        public var chosen: Int?

        public init(title: String, text: String, mode: Mode, options: [String] = [], chosen: Int? = nil) {
            self.title = title
            self.text = text
            self.mode = mode
            self.options = options
            self.chosen = chosen
        }

        public static func box(width: Int, height: Int, metrics: ChromeMetrics = .standard) -> PixelBox {
            PixelBox(x: 0, y: metrics.reachTop, width: width, height: metrics.barHeight)
        }

        /// Done (or Close while reading), at the bar's right end.
        public static func doneButton(width: Int, height: Int, metrics: ChromeMetrics = .standard) -> PixelBox {
            let buttonWidth = metrics.scaled(128)
            return PixelBox(
                x: width - 8 - buttonWidth, y: metrics.reachTop + 8, width: buttonWidth, height: metrics.buttonHeight)
        }

        /// Where the title is written, at the left.
        static func titleArea(width: Int, height: Int, metrics: ChromeMetrics = .standard) -> PixelBox {
            PixelBox(
                x: 16, y: metrics.reachTop + 8, width: min(metrics.scaled(260), width / 4), height: metrics.buttonHeight
            )
        }

        /// The text (a field while typing).
        public static func field(width: Int, height: Int, metrics: ChromeMetrics = .standard) -> PixelBox {
            let title = titleArea(width: width, height: height, metrics: metrics)
            let done = doneButton(width: width, height: height, metrics: metrics)
            return PixelBox(
                x: title.maxX + 8, y: title.y, width: max(0, done.x - 16 - title.maxX - 8), height: metrics.buttonHeight
            )
        }

        public static let optionHeight = 56

        /// The option `index` of `count` in the list under the bar.
        public static func option(_ index: Int, width: Int, metrics: ChromeMetrics = .standard) -> PixelBox {
            let listWidth = min(width - 32, metrics.scaled(480))
            let height = max(optionHeight, metrics.buttonHeight + 8)
            return PixelBox(
                x: (width - listWidth) / 2, y: metrics.reachTop + metrics.barHeight + 8 + index * height,
                width: listWidth,
                height: height - 4)
        }

        /// The list of `count` options.
        static func list(count: Int, width: Int, metrics: ChromeMetrics = .standard) -> PixelBox {
            guard count > 0 else { return PixelBox(x: 0, y: 0, width: 0, height: 0) }
            let first = option(0, width: width, metrics: metrics)
            return first.union(option(count - 1, width: width, metrics: metrics)).insetBy(dx: -8, dy: -8)
        }
    }
}
