import LecternCore

/// Everything one frame shows, as values: two equal scenes give equal pixels.
/// The compositor diffs consecutive scenes to damage only what changed.
public struct Scene: Equatable, Sendable {
    /// Something drawn on a page: a rendered image (scaled when `rect` is not its size) or a
    /// flat colour (an error tile).
    public struct Layer: Equatable, Sendable {
        public enum Source: Equatable, Sendable {
            case image(RasterImage)
            case fill(Color)

            public static func == (a: Source, b: Source) -> Bool {
                switch (a, b) {
                case (.image(let x), .image(let y)): x === y
                case (.fill(let x), .fill(let y)): x == y
                default: false
                }
            }
        }

        public var source: Source
        /// Where it goes, in buffer pixels.
        public var rect: Rect

        public init(_ source: Source, rect: Rect) {
            self.source = source
            self.rect = rect
        }

        /// The same layer moved by whole pixels.
        public func offsetBy(dx: Int, dy: Int) -> Layer {
            Layer(source, rect: rect.offsetBy(Point(x: Double(dx), y: Double(dy))))
        }

        /// Whether it is drawn 1:1 at whole pixels (a plain copy).
        var isExact: Bool {
            guard case .image(let image) = source else { return rect.minX.rounded() == rect.minX }
            return rect.minX.rounded() == rect.minX && rect.minY.rounded() == rect.minY
                && rect.width == Double(image.width) && rect.height == Double(image.height)
        }
    }

    /// One page on screen: white where nothing was rendered yet, its layers on top, clipped.
    /// In buffer pixels (see `Scene.scale`).
    public struct PageItem: Equatable, Sendable {
        public var page: Int
        /// The whole page in buffer pixels (it may extend past the screen).
        public var frame: PixelBox
        /// The part that may be drawn (the viewport, or the spread's cell when zoomed).
        public var clip: PixelBox
        public var layers: [Layer]

        public init(page: Int, frame: PixelBox, clip: PixelBox, layers: [Layer] = []) {
            self.page = page
            self.frame = frame
            self.clip = clip
            self.layers = layers
        }

        var visible: PixelBox { frame.intersection(clip) }
    }

    /// A spread's drop shadow.
    public struct Shadow: Equatable, Sendable {
        public var frame: PixelBox
        public var clip: PixelBox
        public init(frame: PixelBox, clip: PixelBox) {
            self.frame = frame
            self.clip = clip
        }
    }

    /// A full-screen message card: something went wrong, or is still on its way.
    public struct Message: Equatable, Sendable {
        public var title: String
        public var detail: String
        public var isError: Bool
        public init(title: String, detail: String, isError: Bool) {
            self.title = title
            self.detail = detail
            self.isError = isError
        }
    }

    /// The reader's chrome, shown when the visitor asks for it: a title bar with where they are,
    /// and a page scrubber along the bottom.
    public struct Chrome: Equatable, Sendable {
        public var title: String
        /// E.g. "Page 3 of 9".
        public var position: String
        /// Where the current page sits in the document, 0...1.
        public var progress: Double
        /// The scrubber runs right to left (right-edge binding).
        public var isRightToLeft: Bool
        /// The text of a button at the title bar's left end that goes back (to the shelf).
        public var backLabel: String?
        /// The buttons at the left of the title bar ("Pages", "Contents", "Search"), after the back
        /// button: see `buttonBox(_:after:)`.
        public var buttons: [String]
        public init(
            title: String, position: String, progress: Double, isRightToLeft: Bool = false, backLabel: String? = nil,
            buttons: [String] = []
        ) {
            self.title = title
            self.position = position
            self.progress = progress
            self.isRightToLeft = isRightToLeft
            self.backLabel = backLabel
            self.buttons = buttons
        }

        /// The back button at the title bar's left end.
        public static func backButton(width: Int, height: Int, metrics: ChromeMetrics = .standard) -> PixelBox {
            metrics.placed(
                PixelBox(
                    x: 0, y: metrics.reachTop, width: min(width / 3, metrics.scaled(180)), height: metrics.barHeight))
        }

        /// The title bar along the top of a `width` × `height` frame.
        public static func titleBar(width: Int, height: Int, metrics: ChromeMetrics = .standard) -> PixelBox {
            PixelBox(x: 0, y: metrics.reachTop, width: width, height: metrics.barHeight)
        }

        /// The scrubber's bar along the bottom.
        public static func scrubberBar(width: Int, height: Int, metrics: ChromeMetrics = .standard) -> PixelBox {
            PixelBox(x: 0, y: metrics.reachEnd(height) - metrics.barHeight, width: width, height: metrics.barHeight)
        }

        /// The scrubber's track inside its bar: progress 0 at its left end, 1 at its right.
        public static func scrubberTrack(width: Int, height: Int, metrics: ChromeMetrics = .standard) -> PixelBox {
            let bar = scrubberBar(width: width, height: height, metrics: metrics)
            return PixelBox(x: 32, y: bar.y + bar.height / 2 - 3, width: max(0, width - 64), height: 6)
        }
    }

    /// The frame's size in surface units (what the layouts of the chrome and overlays use).
    public var width: Int
    public var height: Int
    /// Buffer pixels per surface unit. Pages, their shadows, search hits and thumbnails are
    /// placed in buffer pixels (tiles are rendered at the pixel size, so text is as sharp as
    /// MuPDF draws it there); everything else (chrome, overlays, labels, messages, the banner)
    /// is laid out in surface units and drawn at this scale with fonts of this scale.
    public var scale = DisplayScale.one
    /// The colours of everything but the pages' own (`Palette`), as the contrast in force has them.
    public var palette = Palette.normal
    public var shadows: [Shadow] = []
    public var pages: [PageItem] = []
    public var chrome: Chrome?
    public var message: Message?
    /// A one-line notice along the bottom edge (e.g. "damaged file, partly recovered").
    public var banner: String?
    /// The label of a button at the banner's right end ("More time"): see `Scene+Banner.swift`.
    public var bannerAction: String?
    /// A web link's QR code, in a card in the middle, over everything else.
    public var qrCode: QRCode?
    /// Lines of text in boxes over the pages (the shelf's titles).
    public var labels: [Label] = []
    /// One page giving way to the next (the attract loop): when set, the frame is only that.
    public var transition: Transition?
    /// A page turn drawn as a curl: when set, it draws the pages instead of `pages`.
    public var curl: Curl?
    /// The thumbnail bar and grid, the outline, search: see `Scene+Navigation.swift`.
    public var overlays = Overlays()
    /// Selected text, its handles and QR-code button: see `Scene+Selection.swift`.
    public var textSelection: TextSelection?
    /// The accessibility button and its panel: see `Scene+Accessibility.swift`.
    public var accessibility: Accessibility?
    /// The sizes of the chrome's text, bars and targets on this screen.
    public var metrics = ChromeMetrics.standard
    /// The language of the chrome's words (and their direction): the one in force when the scene
    /// is made. A change of language alone makes a new scene, drawn whole.
    public var language = Translation.language
    /// The page's text in large print, over the pages: see `Scene+LargePrint.swift`.
    public var largePrint: LargePrint?

    public init(width: Int, height: Int, scale: DisplayScale = .one) {
        self.width = width
        self.height = height
        self.scale = scale
    }

    /// Moves pages laid out in surface units (pictures made at that size: the shelf's covers)
    /// into buffer pixels at `scale`, which becomes the scene's.
    public mutating func placePages(at scale: DisplayScale) {
        self.scale = scale
        guard scale != .one else { return }
        pages = pages.map { item in
            var scaled = item
            scaled.frame = scale.pixels(item.frame)
            scaled.clip = scale.pixels(item.clip)
            scaled.layers = item.layers.map { Layer($0.source, rect: scale.pixels($0.rect)) }
            return scaled
        }
    }

    /// The buffer's size in pixels.
    public var pixelWidth: Int { scale.pixels(width) }
    public var pixelHeight: Int { scale.pixels(height) }
}
