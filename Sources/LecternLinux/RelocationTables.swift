import CLecternLinux
import Glibc

/// The program's relocation table: in `lectern` 63,000 relative relocations (1.5 MB), which the
/// dynamic linker reads once at start to fix up the program's pointers and nothing reads again.
/// Its pages stay mapped, counted in the resident memory of the reader and of the render worker
/// forked from it, until they are let go (`release()`).
public enum RelocationTables {
    /// The table's whole pages, where letting them go only drops them: in a segment mapped
    /// without write permission (no page of it was copied on write), in a program without text
    /// relocations. Nil when there are none.
    public static var pages: UnsafeRawBufferPointer? {
        var start: UInt = 0, end: UInt = 0
        guard CLecternLinux_relocation_pages(&start, &end) == 1, let base = UnsafeRawPointer(bitPattern: start) else {
            return nil
        }
        return UnsafeRawBufferPointer(start: base, count: Int(end - start))
    }

    /// Lets go of the table's pages (`madvise(MADV_DONTNEED)`): they stay in the page cache, are
    /// no longer this process's, and would be mapped from the file again if anything read them.
    /// - Returns: the bytes let go (0: no table whose pages can be).
    @discardableResult
    public static func release() throws(SystemError) -> Int {
        guard let pages, let base = pages.baseAddress else { return 0 }
        guard madvise(UnsafeMutableRawPointer(mutating: base), pages.count, MADV_DONTNEED) == 0 else {
            throw SystemError("madvise(MADV_DONTNEED)")
        }
        return pages.count
    }

    /// The bytes of the table's pages mapped in this process now (`/proc/self/pagemap`: bit 63
    /// of a page's entry; `mincore` would say whether the file's page is cached, not whether it
    /// is mapped here).
    public static func residentBytes() throws(SystemError) -> Int {
        guard let pages, let base = pages.baseAddress else { return 0 }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let file = try ReadOnlyFile(path: "/proc/self/pagemap")
        let first = UInt(bitPattern: base) / UInt(pageSize)
        let count = pages.count / pageSize
        let entries = try file.read(count: count * 8, at: Int64(first * 8))
        guard entries.count == count * 8 else { throw SystemError("read /proc/self/pagemap", errno: EIO) }
        var mapped = 0
        for index in 0..<count where entries[index * 8 + 7] & 0x80 != 0 { mapped += pageSize }
        return mapped
    }
}
