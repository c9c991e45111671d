import CLecternLinux

/// Gives free heap memory back to the system after a big transient allocation (reading every
/// page's size of a long document). Returns whether memory was released.
/// Corresponding C function: `malloc_trim(0)`.
@discardableResult
public func trimHeap() -> Bool {
    CLecternLinux_malloc_trim() == 1
}

/// The heap bytes in use: allocated small blocks plus mmapped ones (for memory benchmarks).
/// Corresponding C function: `mallinfo2`.
public func heapBytesInUse() -> Int {
    Int(CLecternLinux_heap_in_use())
}

/// Serves every block of `threshold` bytes or more with its own mmap, unmapped when freed.
///
/// glibc starts with a 128 KiB threshold and raises it to the size of each mapped block
/// freed (its dynamic threshold, up to 32 MiB). After the first few tiles the reader's
/// tiles (megabytes each, allocated on the render threads and freed on the main thread)
/// come from the heap arenas instead, where freed memory stays resident, fragmented: over
/// 15,000 random touches on a 15,000-page document resident memory grew by 169 MB and did not
/// stop (`lectern-bench soak`). Setting the threshold fixes it and turns the dynamic one off;
/// the cost is an mmap and its page faults per large block, small beside rendering a tile.
/// Corresponding C function: `mallopt(M_MMAP_THRESHOLD, threshold)`.
@discardableResult
public func mapLargeBlocks(threshold: Int = 256 * 1024) -> Bool {
    CLecternLinux_mmap_threshold(Int32(threshold)) == 1
}

/// Keeps freed memory for the next allocations, up to `bytes` at the top of each heap, and
/// serves blocks up to `bytes` from the heap rather than with an mmap each: for a process whose
/// allocations are transient and alike (the render worker: each tile's decoded images and
/// scaled rows), which would otherwise fault in fresh pages for every one.
/// Corresponding C functions: `mallopt(M_MMAP_THRESHOLD, bytes)`, `mallopt(M_TRIM_THRESHOLD, bytes)`.
@discardableResult
public func keepFreedMemory(upTo bytes: Int) -> Bool {
    CLecternLinux_mmap_threshold(Int32(bytes)) == 1 && CLecternLinux_trim_threshold(Int32(bytes)) == 1
}
