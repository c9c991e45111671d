import CLecternLinux

/// Gives free heap memory back to the system after a big transient allocation (reading every
/// page's size of a long document). Returns whether memory was released.
/// Corresponding C function: `malloc_trim(0)`.
@discardableResult
public func trimHeap() -> Bool {
    CLecternLinux_malloc_trim() == 1
}
