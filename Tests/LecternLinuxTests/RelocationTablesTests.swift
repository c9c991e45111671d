import LecternLinux
import Testing

/// The relocation table's pages let go after start (`lectern`'s main does it): in this test
/// program, which is position-independent as `lectern` is, so has a table of its own.
@Suite("Relocation tables")
struct RelocationTablesTests {
    @Test("its pages are let go, and a read maps the same bytes again")
    func release() throws {
        let pages = try #require(RelocationTables.pages)
        try #require(pages.count > 0)
        // Read: every page of it mapped in this process.
        let before = Array(pages)
        #expect(try RelocationTables.residentBytes() == pages.count)

        #expect(try RelocationTables.release() == pages.count)
        #expect(try RelocationTables.residentBytes() == 0)

        // The file's pages come back as they were (a private anonymous page would come back
        // zeroed).
        #expect(Array(pages) == before)
        #expect(try RelocationTables.residentBytes() == pages.count)
    }
}
