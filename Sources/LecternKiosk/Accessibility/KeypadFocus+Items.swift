import LecternCore
import LecternRender

extension KeypadFocus {
    /// The items of `level`, in the order the focus goes through them.
    func items(for level: FocusLevel) -> [FocusItem] {
        let (width, height) = (screen.width, screen.height)
        func button(_ label: String, _ box: PixelBox) -> FocusItem {
            FocusItem(kind: .button, label: label, rect: Rect(box))
        }
        switch level {
        case .page:
            guard let reader = current.reader, reader.view.layout.spreadCount > 0 else { return [] }
            // Large print covers the page: its items are the column's paragraphs and links.
            let largePrint = panel.accessibility.largePrint
            let page =
                largePrint.coversPage
                ? largePrint.focusItems { index, words in
                    let links = reader.pageText[reader.view.dominantPage()]?.links ?? []
                    return links.indices.contains(index)
                        ? Self.label(of: links[index].target, words: words, in: reader) : words
                } : pageItems(of: reader)
            return page + chromeButtons(of: reader) + accessibilityItems()
        case .search:
            return [
                button(
                    tr("Search field: type what to find"),
                    Scene.SearchBar.field(width: width, height: height, metrics: screen.metrics)),
                button(
                    tr("Previous result"),
                    Scene.SearchBar.previousButton(width: width, height: height, metrics: screen.metrics)),
                button(
                    tr("Next result"), Scene.SearchBar.nextButton(width: width, height: height, metrics: screen.metrics)
                ),
                button(
                    tr("Close search"),
                    Scene.SearchBar.closeButton(width: width, height: height, metrics: screen.metrics)),
            ] + (navigation.search.isEditing ? Self.keys(of: navigation.search.keyboardPart.layout) : [])
        case .outline:
            guard let reader = current.reader else { return [] }
            let outline = navigation.outline
            return outline.rows(for: reader).enumerated().map { row, entry in
                var label = entry.page.isEmpty ? entry.title : tr("%s, page %s", entry.title, entry.page)
                if let isOpen = entry.isOpen {
                    label = isOpen ? tr("%s, open: 4 closes it", label) : tr("%s, closed: 6 opens it", label)
                }
                return button(label, outline.rowBox(row))
            }
        case .grid:
            let close = button(
                tr("Close all pages"),
                Scene.ThumbnailSheet.closeButton(width: width, height: height, metrics: screen.metrics))
            guard let reader = current.reader else { return [close] }
            return [close]
                + navigation.grid.cells(for: reader).map {
                    button(
                        $0.label.contains("–" as Character) ? tr("Pages %s", $0.label) : tr("Page %s", $0.label), $0.box
                    )
                }
        case .editing:
            let done = button(
                tr("Done"), Scene.AnnotationBar.doneButton(width: width, height: height, metrics: screen.metrics))
            guard let editing = annotations.editing else { return [done] }
            guard case .typing = editing.kind else {
                // A choice field's list: its options, then Done.
                return editing.annotation.options.enumerated().map { index, option in
                    button(option, Scene.AnnotationBar.option(index, width: width, metrics: screen.metrics))
                } + [done]
            }
            return [done] + Self.keys(of: annotations.keyboard.layout)
        case .shelf:
            // A cover that says the document cannot be opened is said so.
            return shelf.covers.map {
                button($0.failure == nil ? $0.title : tr("%s: this document cannot be opened", $0.title), $0.box)
            }
        }
    }

    /// The paragraphs, links, fields and figures of the spread's pages, each page in reading order.
    private func pageItems(of reader: Reader) -> [FocusItem] {
        let spread = reader.view.destinationSpread
        return reader.view.spreads.pageRange(forSpread: spread).flatMap { page -> [FocusItem] in
            guard let text = reader.pageText[page] else { return [] }
            let toDisplay = reader.view.pages[page].pageToDisplay
            let blocks = ReadingOrder.blocks(of: text.spokenCharacters, toDisplay: toDisplay)
            let links = text.links.map { link in
                let words = Self.text(in: link.rect, of: text.characters)
                return FocusItem(
                    kind: .link, label: Self.label(of: link.target, words: words, in: reader), rect: link.rect)
            }
            let fields = text.annotations.filter(\.isFormField).map { field in
                FocusItem(
                    kind: .field, label: FocusPhrases.field(field, saysValue: saysFieldValues()), rect: field.rect)
            }
            // The other annotations a tap selects (notes, boxes, shapes; not links' or pop-ups').
            let notes = text.annotations.filter {
                !$0.isFormField && $0.isInteractive && !["Link", "Popup", "Widget"].contains($0.subtype)
            }.map { note in
                let label =
                    note.contents.isEmpty
                    ? tr("%s note", note.subtype) : tr("%s note: %s", note.subtype, note.contents)
                return FocusItem(kind: .annotation, label: label, rect: note.rect)
            }
            return PageFigures.items(
                onPage: page, text: text, blocks: blocks, extras: links + fields + notes, toDisplay: toDisplay)
        }
    }

    /// What is said for a link to `target` on `words`: "Link to page 3: the index".
    private static func label(of target: LinkTarget, words: String, in reader: Reader) -> String {
        let destination =
            switch target {
            case .page(let page):
                tr("Link to page %s", Translation.language.label(reader.document.label(forPage: page) ?? "\(page + 1)"))
            case .uri(let address): tr("Web link, %s", address)
            }
        return words.isEmpty ? destination : tr("%s: %s", destination, words)
    }

    /// The title bar's buttons: back to the shelf (when there is one), then Pages, Contents, Search;
    /// none where the policy never shows the chrome.
    private func chromeButtons(of reader: Reader) -> [FocusItem] {
        guard policy.chrome != .never else { return [] }
        let leading =
            chrome.hasBack
            ? Scene.Chrome.backButton(width: screen.width, height: screen.height, metrics: screen.metrics.leftToRight)
                .maxX : 0
        var items: [FocusItem] = []
        if chrome.hasBack {
            items.append(
                FocusItem(
                    kind: .button, label: Self.shelfLabel,
                    rect: Rect(
                        Scene.Chrome.backButton(width: screen.width, height: screen.height, metrics: screen.metrics))))
        }
        for (index, label) in navigation.buttons(for: reader).enumerated() {
            items.append(
                FocusItem(
                    kind: .button, label: label,
                    rect: Rect(Scene.Chrome.buttonBox(index, after: leading, metrics: screen.metrics))))
        }
        return items
    }

    /// The accessibility button, then the rows of its panel when it is open.
    private func accessibilityItems() -> [FocusItem] {
        guard let scene = panel.scene else { return [] }
        let height = screen.height
        let label =
            panel.isOpen
            ? tr("Close the accessibility panel") : tr("Accessibility: read aloud, contrast, large print, more time")
        var items = [FocusItem(kind: .button, label: label, rect: Rect(scene.buttonBox(height: height)))]
        if let rows = scene.rows {
            items += zip(rows, scene.rowBoxes(height: height)).map {
                FocusItem(kind: .button, label: $0, rect: Rect($1))
            }
        }
        return items
    }

    /// The on-screen keyboard's keys, as said: "q", "space", "delete", "hide the keyboard".
    private static func keys(of layout: OnScreenKeyboardLayout) -> [FocusItem] {
        layout.keys.map { key in
            let label =
                switch key.action {
                case .character(" "): tr("space")
                case .character(let character): String(character)
                case .backspace: tr("delete")
                case .done: tr("hide the keyboard")
                }
            return FocusItem(kind: .button, label: label, rect: key.frame)
        }
    }

    /// The words of `characters` whose centres lie in `rect`.
    private static func text(in rect: Rect, of characters: PageCharacters) -> String {
        let inside = characters.characters.filter { rect.contains($0.rect.center) }
        let text = String(String.UnicodeScalarView(inside.compactMap { Unicode.Scalar($0.scalar) }))
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    // MARK: Activating

    /// Select: follows a link or starts filling a field as a tap would (the policy's conditions
    /// apply), presses a button, shows a paragraph as a QR code and says it again.
    func activate() {
        guard let focused else { return move(by: 1) }
        switch focused.kind {
        case .text:
            // The keys' way to what a long press and the QR-code button do: the paragraph's text
            // as a QR code to take on a phone (where the policy lets text be selected).
            if let reader = current.reader, let page = focused.page, let controller = interactions(),
                controller.selectText.canActivate(
                    at: reader.view.convert(focused.rect.center, from: .page(page), to: .view), in: .view),
                let code = QRCode(focused.label)
            {
                chrome.showNotice(
                    Self.paragraphQRNotice, seconds: Double(policy.qrSeconds), qrCode: code, isSaid: false)
                say(.say(focused.label + " " + Self.paragraphQRNotice))
            } else {
                say(.say(focused.label))
            }
        case .figure:
            say(.say(focused.label))
        case .link where focused.page == nil:
            // A link of the large print column: tapped there.
            guard let reader = current.reader else { return }
            panel.accessibility.largePrint.tap(at: focused.rect.center, reader: reader, time: loop.clock.now)
        case .link, .field:
            guard let reader = current.reader, let page = focused.page, let controller = interactions() else { return }
            let point = reader.view.convert(focused.rect.center, from: .page(page), to: .view)
            let component: AnyInteractionComponent =
                focused.kind == .link ? controller.openLinkAnnotation : controller.editAnnotation
            guard component.canActivate(at: point, in: .view) else {
                return say(
                    .say(focused.kind == .link ? tr("This link cannot be followed here.") : tr("This field is locked."))
                )
            }
            if focused.kind == .link {
                controller.tryToOpenLinkAnnotation(at: point, in: .view)
            } else {
                controller.tryToEditAnnotation(at: point, in: .view)
            }
        case .annotation:
            // Selected as a tap would; the keys then move it (`Annotations.handleSelected`).
            guard let reader = current.reader, let page = focused.page, let controller = interactions() else { return }
            let point = reader.view.convert(focused.rect.center, from: .page(page), to: .view)
            guard controller.tryToSelectAnnotation(at: point, in: .view) else {
                return say(.say(tr("This note cannot be selected here.")))
            }
            say(.say(Self.selectedNoteHelp))
        case .button:
            if level == .page, focused.label == Self.shelfLabel {
                chrome.onBack?()
            } else {
                tap(at: focused.rect.center)
            }
        }
        arrive()
    }

    /// A tap at `point` (surface units) on what is there: the shelf or the overlays and chrome buttons.
    private func tap(at point: Point) {
        let now = loop.clock.now
        let id = Self.keypadTouch
        if level == .shelf {
            opensDocument = true
            _ = shelf.handle(InputEvent(.touchDown(id: id, location: point), time: now))
            _ = shelf.handle(InputEvent(.touchUp(id: id), time: now))
            return
        }
        if panel.covers(point) {
            _ = panel.handle(InputEvent(.touchDown(id: id, location: point), time: now))
            _ = panel.handle(InputEvent(.touchUp(id: id), time: now))
            return
        }
        guard let reader = current.reader else { return }
        _ = navigation.handle(InputEvent(.touchDown(id: id, location: point), time: now), reader: reader)
        _ = navigation.handle(InputEvent(.touchUp(id: id), time: now), reader: reader)
    }

    /// What is said when Select selected a note.
    static var selectedNoteHelp: String {
        tr("Selected. 8, 2, 4 and 6 or the arrows move it; plus and minus make it larger or smaller; 5 puts it down.")
    }

    /// What shows (and is said) with a paragraph's QR code.
    static var paragraphQRNotice: String { tr("Its QR code is on the screen: scan it to take the text with a phone.") }

    /// The touch id of the keypad's taps (no finger has it).
    static let keypadTouch = -7
}

extension Rect {
    init(_ box: PixelBox) {
        self.init(x: Double(box.x), y: Double(box.y), width: Double(box.width), height: Double(box.height))
    }
}
