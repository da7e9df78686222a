/// How a stretch of the studio screen looks; the terminal layer maps these to colours and
/// attributes (or to nothing, without colour).
public enum StudioStyle: Sendable, Equatable {
    case plain
    case heading
    case dim
    /// The selected chunk.
    case selected
    case recording
    case playing
    case meterGreen, meterYellow, meterRed
    /// Something went wrong or needs attention.
    case problem
    /// A key name in the footer or help.
    case key
}

/// A stretch of text in one style.
public struct StyledText: Sendable, Equatable {
    public var text: String
    public var style: StudioStyle

    public init(_ text: String, _ style: StudioStyle = .plain) {
        self.text = text
        self.style = style
    }
}

/// A rendered screen: exactly `height` lines, each exactly `width` columns wide.
public struct StudioFrame: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let lines: [[StyledText]]

    /// Builds a frame from lines of any length: each is cut or padded to `width`, and lines are
    /// added or dropped to make `height`.
    public init(width: Int, height: Int, lines: [[StyledText]]) {
        self.width = width
        self.height = height
        var fitted = lines.prefix(height).map { Self.fit($0, to: width) }
        while fitted.count < height { fitted.append([StyledText(String(repeating: " ", count: width))]) }
        self.lines = fitted
    }

    /// The screen's text, one line per row, without styles: what a snapshot test compares.
    public var text: String {
        lines.map { line in line.map(\.text).joined() }.joined(separator: "\n")
    }

    private static func fit(_ line: [StyledText], to width: Int) -> [StyledText] {
        var result: [StyledText] = []
        var used = 0
        for span in line where used < width {
            let columns = span.text.terminalColumns
            if used + columns <= width {
                result.append(span)
                used += columns
            } else {
                result.append(StyledText(span.text.fitted(to: width - used), span.style))
                used = width
            }
        }
        if used < width {
            let padding = String(repeating: " ", count: width - used)
            if let last = result.last, last.style == .selected {
                result.append(StyledText(padding, .selected))  // the highlight runs the whole width
            } else {
                result.append(StyledText(padding))
            }
        }
        return result
    }
}
