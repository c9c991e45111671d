import LecternLinux
import LecternRender

/// Several tiles asked in one request (`DocumentRequest.renderBatch`), most urgent first, and
/// answered one by one as each is drawn: a `DocumentResponse.drawn` per tile, in order (a
/// `failed` instead ends the batch early). In the worker each tile is drawn into the channel's
/// buffer at its own offset (a render cookie, then the pixels), so the reader copies one out
/// while the worker draws the next, and cancels one by writing its cookie: a tile cancelled
/// before its turn is skipped without drawing.
public struct TileBatch: Sendable, Equatable {
    /// One tile of a batch: drawn `stride` bytes a row at `offset` in the batch's memory.
    public struct Tile: Sendable, Equatable {
        public var key: TileKey
        public var stride: Int
        public var offset: Int

        /// The bytes it takes from `offset` on: the cookie's header, then its rows.
        public var size: Int { SharedTileBuffer.pixelOffset + stride * key.rect.height }
    }

    public var tiles: [Tile]

    /// The most tiles one batch holds: a render thread waits for a batch's last tile at most
    /// this many renders after its first, and what it asks is fixed meanwhile.
    public static let maximumTiles = 4

    /// The memory a batch's tiles take together at most: four full grid tiles (the worker
    /// channel's buffer is this size; a bigger tile goes alone, in memory of its own).
    public static let maximumBytes =
        maximumTiles * (SharedTileBuffer.pixelOffset + TileGrid.gridTileSize * TileGrid.gridTileSize * 4)

    /// The tiles of `keys`, from the first on, that fit one batch, each after the one before
    /// (rounded up to a cache line). Empty when the first does not fit (or is outside its page).
    public init(packing keys: ArraySlice<TileKey>) {
        tiles = []
        var offset = 0
        for key in keys.prefix(Self.maximumTiles) {
            let rect = key.rect
            guard rect.width > 0, rect.height > 0 else { break }
            let tile = Tile(key: key, stride: rect.width * 4, offset: offset)
            guard offset + tile.size <= Self.maximumBytes else { break }
            tiles.append(tile)
            offset += (tile.size + 63) & ~63
        }
    }

    init(tiles: [Tile]) { self.tiles = tiles }

    func encode(into writer: inout WireWriter) {
        writer.put(tiles.count)
        for tile in tiles {
            writer.put(tile.key)
            writer.put(tile.stride)
            writer.put(tile.offset)
        }
    }

    static func decode(_ reader: inout WireReader) throws(WireError) -> TileBatch {
        let count = try reader.count()
        guard count <= maximumTiles else { throw WireError("a batch of \(count) tiles") }
        var tiles: [Tile] = []
        for _ in 0..<count {
            tiles.append(Tile(key: try reader.tileKey(), stride: try reader.int(), offset: try reader.int()))
        }
        return TileBatch(tiles: tiles)
    }
}
