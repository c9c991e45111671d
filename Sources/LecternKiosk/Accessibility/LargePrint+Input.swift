import LecternCore

extension LargePrint {
    /// Handles `event` while the column is on screen: scrolls it (a drag, the wheel, Up, Down,
    /// Page Up, Page Down, Home, End) or turns the page (Left, Right, a tap in a page-turn zone).
    /// Returns whether it took the event. While the page itself shows (no text), it takes only
    /// Left and Right: the rest pans and zooms the page as usual.
    func handle(_ event: InputEvent, reader: Reader) -> Bool {
        guard isOn, !showsBook, shown != nil || showsNoText else { return false }
        if showsNoText {
            guard case .key(let key, _) = event.kind, key == .left || key == .right else { return false }
        }
        switch event.kind {
        case .key(let key, _):
            return handle(key, reader: reader)
        case .scroll(let delta, _):
            scroll(by: delta.y)
        case .touchDown(let id, let location):
            drag = (id, location, location, false)
        case .touchMotion(let id, let location) where drag?.id == id:
            move(to: location)
        case .touchUp(let id) where drag?.id == id:
            release(reader: reader)
        case .pointerButton(.left, true):
            guard let location = pointer.location else { return false }
            drag = (-1, location, location, false)
        case .pointerMotion(let location) where drag?.id == -1:
            move(to: location)
        case .pointerButton(.left, false) where drag?.id == -1:
            release(reader: reader)
        case .touchCancel:
            drag = nil
        case .touchMotion, .touchUp, .touchFrame, .pointerButton:
            return true
        default:
            return false
        }
        return true
    }

    private func handle(_ key: Key, reader: Reader) -> Bool {
        let page = Double(screen.height) * 0.9
        let line = Double(shown?.column.lineAdvance ?? 40) * 2
        switch key {
        case .up: scroll(by: -line)
        case .down: scroll(by: line)
        case .pageUp: scroll(by: -page)
        case .pageDown: scroll(by: page)
        case .home: scroll(by: -offset)
        case .end: scroll(by: maximumOffset)
        case .left: turn(by: reader.view.configuration.pageBinding.isRightToLeft ? 1 : -1, reader: reader)
        case .right: turn(by: reader.view.configuration.pageBinding.isRightToLeft ? -1 : 1, reader: reader)
        default: return false
        }
        return true
    }

    /// Scrolls the column by `distance` surface units (down the text when positive).
    func scroll(by distance: Double) {
        offset = min(max(0, offset + distance), maximumOffset)
        frame.request()
    }

    private func move(to location: Point) {
        guard var current = drag else { return }
        scroll(by: current.last.y - location.y)
        current.last = location
        if abs(location.x - current.start.x) > 12 || abs(location.y - current.start.y) > 12 { current.moved = true }
        drag = current
    }

    /// A drag ended: a tap (it hardly moved) on a link follows it, in a page-turn zone turns the
    /// page; between them it shows or hides the chrome.
    private func release(reader: Reader) {
        defer { drag = nil }
        guard let drag, !drag.moved else { return }
        if let link = linkBoxes().first(where: { $0.box.contains(drag.start) }),
            let links = shown.flatMap({ reader.pageText[$0.key.page]?.links }), links.indices.contains(link.index)
        {
            follow?(links[link.index].target)
            return
        }
        let zone = Double(screen.width) * policy.edgeWidth
        if drag.start.x < zone {
            turn(by: reader.view.configuration.pageBinding.isRightToLeft ? 1 : -1, reader: reader)
        } else if drag.start.x > Double(screen.width) - zone {
            turn(by: reader.view.configuration.pageBinding.isRightToLeft ? -1 : 1, reader: reader)
        } else if policy.chrome == .onTap {
            chrome.isVisible.toggle()
        }
    }

    /// Where the links of the column are on screen (surface units), with their index on the page.
    func linkBoxes() -> [(box: Rect, index: Int)] {
        guard let column = shown?.column else { return [] }
        let top = Double(margin) - offset
        return column.links.map { link in
            let box = Rect(
                x: Double(left + link.x), y: top + Double(column.lines[link.line].top), width: Double(link.width),
                height: Double(column.lineAdvance))
            return (box, link.index)
        }
    }

    /// Shows the large print of the page `by` pages on, from its top.
    func turn(by pages: Int, reader: Reader) {
        let page = reader.view.dominantPage() + pages
        guard (0..<reader.view.pages.count).contains(page) else { return }
        try? reader.view.goToPage(page)
        frame.request()
    }
}

extension LargePrint {
    /// What large print shows (nil: it is off).
    var status: KioskStatus.LargePrintStatus? {
        guard isOn else { return nil }
        let lines = lastScene?.lines ?? []
        return KioskStatus.LargePrintStatus(
            pixelSize: lastScene?.pixelSize ?? 0, capitalHeight: shown?.column.capitalHeight ?? 0,
            lines: lines.map(\.text),
            marked: lines.flatMap { line in
                let characters = Array(line.text)
                return line.marks.map { String(characters[$0]) }
            },
            spoken: lines.compactMap { line in line.spoken.map { String(Array(line.text)[$0]) } },
            links: linkBoxes().map { PixelBox(enclosing: $0.box) }, offset: offset, maximumOffset: maximumOffset,
            showsPage: showsNoText)
    }
}
