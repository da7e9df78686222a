internal import CPoppler

/// The one file that calls poppler (its GLib interface): a PDF's pages read into lines of text
/// with their place on the page and their font size. Nothing of poppler's or GLib's types leaves it.
enum PDFDocument {
    /// Why a PDF could not be read.
    enum Failure: Error {
        /// It is protected with a password.
        case encrypted
        /// poppler made no document of it, for this reason (its own words).
        case damaged(String)
    }

    /// A line of text on a page: where it starts and ends (points, from the page's top left), and
    /// the size of its first character's font.
    struct Line: Equatable {
        let text: String
        let left: Double
        let right: Double
        let top: Double
        let bottom: Double
        let fontSize: Double
    }

    /// The lines of each page, in poppler's reading order.
    /// The corresponding C functions are `poppler_document_new_from_bytes`, `poppler_page_get_text`,
    /// `poppler_page_get_text_layout` and `poppler_page_get_text_attributes`.
    static func pages(of bytes: [UInt8]) throws(Failure) -> [[Line]] {
        let data = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(data) }
        var error: UnsafeMutablePointer<GError>?
        guard let document = poppler_document_new_from_bytes(data, nil, &error) else {
            defer { if let error { g_error_free(error) } }
            if let error, error.pointee.domain == poppler_error_quark(), error.pointee.code == gint(POPPLER_ERROR_ENCRYPTED.rawValue) {
                throw .encrypted
            }
            throw .damaged(error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "it is not a PDF")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(document)) }
        let count = poppler_document_get_n_pages(document)
        guard count > 0 else { return [] }
        return (0..<count).map { index in
            guard let page = poppler_document_get_page(document, index) else { return [] }
            defer { g_object_unref(UnsafeMutableRawPointer(page)) }
            return lines(of: page)
        }
    }

    private static func lines(of page: OpaquePointer) -> [Line] {
        guard let textPointer = poppler_page_get_text(page) else { return [] }
        let text = Array(String(cString: textPointer).unicodeScalars)
        g_free(textPointer)
        var rectangles: UnsafeMutablePointer<PopplerRectangle>?
        var rectangleCount: guint = 0
        guard poppler_page_get_text_layout(page, &rectangles, &rectangleCount) != 0, let rectangles else { return [] }
        defer { g_free(rectangles) }
        // Font sizes by character range.
        var sizes: [(range: Range<Int>, size: Double)] = []
        if let attributes = poppler_page_get_text_attributes(page) {
            var item: UnsafeMutablePointer<GList>? = attributes
            while let current = item {
                if let attribute = current.pointee.data?.assumingMemoryBound(to: PopplerTextAttributes.self).pointee {
                    let start = Int(attribute.start_index)
                    let end = max(start, Int(attribute.end_index) + 1)
                    sizes.append((start..<end, attribute.font_size))
                }
                item = current.pointee.next
            }
            poppler_page_free_text_attributes(attributes)
        }
        var lines: [Line] = []
        var start = 0
        while start < text.count {
            var end = start
            while end < text.count, text[end] != "\n" { end += 1 }
            var first = start
            while first < end, text[first].properties.isWhitespace { first += 1 }
            var last = end - 1
            while last > first, text[last].properties.isWhitespace { last -= 1 }
            if first < end, last < Int(rectangleCount) {
                let head = rectangles[first]
                let tail = rectangles[last]
                var line = String.UnicodeScalarView()
                line.append(contentsOf: text[first...last])
                let size = sizes.first { $0.range.contains(first) }?.size ?? (head.y2 - head.y1)
                lines.append(Line(text: String(line), left: head.x1, right: tail.x2, top: head.y1, bottom: head.y2, fontSize: size))
            }
            start = end + 1
        }
        return lines
    }
}
