/// Reads the few values narrate needs from S3's XML answers: an error's `Code` and `Message`, a
/// multipart upload's `UploadId`, the `Part`s of ListParts.
///
/// S3's answers are small and flat, with no element nested in one of the same name. This reader
/// takes the text between `<Name>` and `</Name>` and decodes XML's entities; anything it cannot
/// make sense of reads as absent. It is written here rather than taken from Foundation's
/// `XMLParser` (FoundationXML, which brings libxml2 at run time) so that it stays pure, small and
/// can be fuzzed with the rest of the core.
public struct S3XML: Sendable, Equatable {
    public let text: String

    public init(_ text: String) { self.text = text }

    /// The decoded text of the first `<name>` element, if there is one.
    public func value(of name: String) -> String? {
        elements(named: name).first.map { Self.decodeEntities($0.text) }
    }

    /// Every `<name>` element's content, in order, each readable in turn.
    public func elements(named name: String) -> [S3XML] {
        var results: [S3XML] = []
        var rest = Substring(text)
        while let open = rest.range(of: "<\(name)") {
            let afterName = rest[open.upperBound...]
            guard let next = afterName.first else { break }
            guard next == ">" || next == " " || next == "/" else {
                rest = afterName
                continue
            }
            guard let tagEnd = afterName.firstIndex(of: ">") else { break }
            if tagEnd > afterName.startIndex, afterName[afterName.index(before: tagEnd)] == "/" {  // <Name/>
                results.append(S3XML(""))
                rest = afterName[afterName.index(after: tagEnd)...]
                continue
            }
            let content = afterName[afterName.index(after: tagEnd)...]
            guard let close = content.range(of: "</\(name)>") else { break }
            results.append(S3XML(String(content[..<close.lowerBound])))
            rest = content[close.upperBound...]
        }
        return results
    }

    /// `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` and numeric references; an unknown one stays as written.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let entity = rest[ampersand...]
            guard let semicolon = entity.prefix(12).firstIndex(of: ";") else {
                result.append("&")
                rest = rest[rest.index(after: ampersand)...]
                continue
            }
            let name = entity[entity.index(after: ampersand)..<semicolon]
            if let decoded = decode(entity: name) {
                result.append(decoded)
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result.append("&")
                rest = rest[rest.index(after: ampersand)...]
            }
        }
        return result + rest
    }

    private static func decode(entity name: Substring) -> Character? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard name.first == "#" else { return nil }
            let digits = name.dropFirst()
            let value = digits.first == "x" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            return value.flatMap(Unicode.Scalar.init).map(Character.init)
        }
    }
}
