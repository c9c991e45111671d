import LecternCore

/// Where the pointer is over the window (nil: not over it): the one record of it, which the
/// parts that act on a click or the wheel read (the chrome, the navigation overlays, the shelf,
/// a new interaction controller).
///
/// A compositor sends no motion for a pointer that stays where it is, and each event goes to
/// one part only (the shelf takes every event while it shows, an overlay the motion of a drag
/// that started on it): a part that kept its own copy from the events that reached it would
/// click where the pointer was when it last saw it. So `InputRouter` tracks every event here
/// before routing it.
final class Pointer {
    private(set) var location: Point?

    /// Follows `event` (every event from the seat, before it is routed).
    func track(_ event: InputEvent) {
        switch event.kind {
        case .pointerEnter(let location), .pointerMotion(let location): self.location = location
        case .pointerLeave: location = nil
        case .capabilitiesChanged(let devices) where !devices.contains(.pointer): location = nil
        default: break
        }
    }
}
