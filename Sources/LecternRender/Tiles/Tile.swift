import LecternCore

/// One cached piece of a rendered page: a tile of the grid laid over the page at one zoom,
/// or the low-resolution image of the whole page shown until the tiles arrive.
///
/// The zoom bucket is the page's width in pixels: every size a page is shown at settles on
/// an integer width, and tiles rendered for exactly that width are drawn 1:1 (sharp).
public struct TileKey: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// The whole page at a small size.
        case preview
        /// The tile in `column`, `row` of the page's grid.
        case tile(column: Int, row: Int)
    }

    public var page: Int
    /// The size in pixels of the whole page this piece belongs to.
    public var pageWidth: Int
    public var pageHeight: Int
    public var kind: Kind
    /// The colours it is drawn in: a contrast mode renders tiles of its own.
    public var contrast: Contrast

    public init(page: Int, pageWidth: Int, pageHeight: Int, kind: Kind, contrast: Contrast = .normal) {
        self.page = page
        self.pageWidth = pageWidth
        self.pageHeight = pageHeight
        self.kind = kind
        self.contrast = contrast
    }

    /// The key of a tile of `grid`.
    public init(page: Int, grid: TileGrid, column: Int, row: Int, contrast: Contrast = .normal) {
        self.init(
            page: page, pageWidth: grid.pageWidth, pageHeight: grid.pageHeight, kind: .tile(column: column, row: row),
            contrast: contrast)
    }

    /// The rectangle this piece covers, in page pixels.
    public var rect: PixelBox {
        switch kind {
        case .preview: PixelBox(x: 0, y: 0, width: pageWidth, height: pageHeight)
        case .tile(let column, let row):
            TileGrid(pageWidth: pageWidth, pageHeight: pageHeight).rect(column: column, row: row)
        }
    }

    /// Two words, not the six fields one by one (eight of the hasher's rounds where two do):
    /// a frame hashes each key it shows two or three times, and a fitted page at 1920×1080 is
    /// eighty tiles. Equal keys hash the same (every field is in a word); keys that differ only
    /// beyond the words' bits (a page or a tile past 2^32 or 2^16) merely share a bucket.
    public func hash(into hasher: inout Hasher) {
        let tile: UInt64
        switch kind {
        case .preview: tile = 0xFFFF_FFFF
        case .tile(let column, let row):
            tile = UInt64(UInt16(truncatingIfNeeded: column)) << 16 | UInt64(UInt16(truncatingIfNeeded: row))
        }
        let colours: UInt64
        switch contrast.mode {
        case .normal: colours = 0
        case .invert: colours = 1
        case .high: colours = 2
        case .yellowOnBlack: colours = 3
        }
        hasher.combine(UInt64(UInt32(truncatingIfNeeded: page)) << 32 | tile)
        hasher.combine(
            UInt64(UInt32(truncatingIfNeeded: pageWidth)) << 32 | UInt64(UInt32(truncatingIfNeeded: pageHeight))
                ^ (colours << 1 | (contrast.recolorsImages ? 1 : 0)) << 60)
    }

    /// What the cache charges for this piece once rendered (BGRA, no row padding).
    public var byteCount: Int {
        let rect = rect
        return rect.width * rect.height * 4
    }

    public var description: String {
        let colours = contrast == .normal ? "" : " in \(contrast)"
        switch kind {
        case .preview: return "page \(page + 1) preview \(pageWidth)x\(pageHeight)\(colours)"
        case .tile(let column, let row):
            return "page \(page + 1) @\(pageWidth)x\(pageHeight) tile \(column),\(row)\(colours)"
        }
    }
}

/// The tile grid over a page drawn `pageWidth` × `pageHeight` pixels.
public struct TileGrid: Equatable, Sendable {
    /// The side of a full tile in pixels, for pages bigger than `singleTileArea`.
    public static let gridTileSize = 256
    /// Pages of at most this many pixels are one tile: a page fitted on screen is one render
    /// (MuPDF decodes a page's images once, not once per tile, and runs its display list once),
    /// while a zoomed-in page is cut into tiles so only what is visible is drawn.
    public static let singleTileArea = 2_200_000

    /// The side of this grid's tiles.
    public var tileSize: Int {
        pageWidth * pageHeight <= Self.singleTileArea ? max(pageWidth, pageHeight) : Self.gridTileSize
    }

    public var pageWidth: Int
    public var pageHeight: Int

    public init(pageWidth: Int, pageHeight: Int) {
        self.pageWidth = max(1, pageWidth)
        self.pageHeight = max(1, pageHeight)
    }

    /// The grid for a page shown in `frame` (view pixels): whole pixels, the height following
    /// the width so the page keeps its aspect ratio.
    public init(frameWidth: Double, frameHeight: Double) {
        let width = Int(min(max(1, frameWidth.rounded()), 1_000_000))
        let height = frameWidth > 0 ? (frameHeight * Double(width) / frameWidth).rounded() : 1
        self.init(pageWidth: width, pageHeight: Int(min(max(1, height), 1_000_000)))
    }

    public var columns: Int { (pageWidth + tileSize - 1) / tileSize }
    public var rows: Int { (pageHeight + tileSize - 1) / tileSize }

    /// The rectangle of a tile in page pixels (edge tiles are smaller).
    public func rect(column: Int, row: Int) -> PixelBox {
        let x = column * tileSize, y = row * tileSize
        return PixelBox(
            x: x, y: y, width: min(tileSize, pageWidth - x), height: min(tileSize, pageHeight - y))
    }

    /// The tiles covering `area` (page pixels), row by row.
    public func tiles(covering area: PixelBox) -> [(column: Int, row: Int)] {
        let clipped = area.intersection(PixelBox(x: 0, y: 0, width: pageWidth, height: pageHeight))
        guard !clipped.isEmpty else { return [] }
        let c0 = clipped.x / tileSize, c1 = (clipped.maxX - 1) / tileSize
        let r0 = clipped.y / tileSize, r1 = (clipped.maxY - 1) / tileSize
        // Labelled as returned: an array of `(Int, Int)` returned as `(column:, row:)` was cast
        // element by element at run time (a pan's plan asks for this on every page it shows).
        var result: [(column: Int, row: Int)] = []
        result.reserveCapacity((c1 - c0 + 1) * (r1 - r0 + 1))
        for row in r0...r1 { for column in c0...c1 { result.append((column: column, row: row)) } }
        return result
    }

    /// The width of a page's preview: small enough to render in a few milliseconds, big
    /// enough to read the layout of the page while the sharp tiles are on their way.
    public var previewSize: (width: Int, height: Int) {
        let longest = 320.0
        let scale = min(1, longest / Double(max(pageWidth, pageHeight)))
        return (max(1, Int((Double(pageWidth) * scale).rounded())), max(1, Int((Double(pageHeight) * scale).rounded())))
    }
}

/// What a render produced for a tile.
public enum TileContent: Sendable {
    /// The pixels; `isDamaged` when MuPDF skipped damaged content while drawing them.
    case image(RasterImage, isDamaged: Bool)
    /// The render failed; shown as an error tile (never retried while cached).
    case failed(String)

    /// What the cache charges for it.
    public var byteCount: Int {
        switch self {
        case .image(let image, _): image.stride * image.height
        case .failed(let message): 64 + message.utf8.count
        }
    }
}
