import LecternCore
import LecternRender
import Testing

@Suite("Tile keys")
struct TileKeyTests {
    @Test("keys that differ in any field hash apart; equal keys hash alike")
    func hashing() {
        let contrasts = [
            Contrast.normal, Contrast(.invert), Contrast(.invert, recolorsImages: true), Contrast(.high),
            Contrast(.yellowOnBlack), Contrast(.yellowOnBlack, recolorsImages: true),
        ]
        var keys: [TileKey] = []
        for page in [0, 1, 2, 14_999] {
            for (width, height) in [(1872, 2423), (1873, 2423), (1872, 2424), (936, 1211)] {
                for contrast in contrasts {
                    keys.append(
                        TileKey(page: page, pageWidth: width, pageHeight: height, kind: .preview, contrast: contrast))
                    for column in 0..<8 {
                        for row in 0..<10 {
                            keys.append(
                                TileKey(
                                    page: page, pageWidth: width, pageHeight: height,
                                    kind: .tile(column: column, row: row), contrast: contrast))
                        }
                    }
                }
            }
        }
        #expect(Set(keys).count == keys.count)
        // Each field alone tells two keys apart: no two keys share a hash value.
        #expect(Set(keys.map(\.hashValue)).count == keys.count)
        // A key made again from the same fields hashes as the first.
        #expect(
            keys.allSatisfy {
                TileKey(
                    page: $0.page, pageWidth: $0.pageWidth, pageHeight: $0.pageHeight, kind: $0.kind,
                    contrast: $0.contrast
                )
                .hashValue == $0.hashValue
            })
    }
}
