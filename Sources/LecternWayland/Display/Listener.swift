/// A listener table (`wl_*_listener`, `xdg_*_listener`) at a stable heap address for as long
/// as this object lives: keep it as long as the proxy it listens to.
final class Listener<Table> {
    let pointer: UnsafeMutablePointer<Table>

    init(_ table: Table) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: table)
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}
