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
