internal import CLibXML2
import NarrationCore

/// The one file that calls libxml2: the funnel every result passes through, the owner of a parsed
/// document, and a read-only view of its nodes. Nothing of libxml2's types leaves this file.
///
/// libxml2 keeps global state that must be set up once before threads parse at the same time;
/// `LibXML2.ready` does that on first use (Swift's lazy globals are initialized exactly once).
enum LibXML2 {
    /// `xmlInitParser()`, once per process. The corresponding C function is `xmlInitParser`.
    static let ready: Void = xmlInitParser()

    /// The funnel for calls that answer a pointer, NULL on failure.
    static func check<Pointee>(_ result: UnsafeMutablePointer<Pointee>?, _ call: String, _ failure: @autoclosure () -> NarrationError) throws(NarrationError) -> UnsafeMutablePointer<Pointee> {
        guard let result else { throw failure() }
        return result
    }

    /// The funnel for calls that answer a status code, negative on failure.
    static func check(_ result: CInt, _ call: String, _ failure: @autoclosure () -> NarrationError) throws(NarrationError) {
        guard result >= 0 else { throw failure() }
    }

    /// An attribute's value ("" for one without a value), read from its own text nodes, so
    /// nothing is allocated by libxml2 and nothing needs freeing.
    static func value(of attribute: UnsafeMutablePointer<xmlAttr>) -> String {
        var value = ""
        var child = attribute.pointee.children
        while let text = child {
            if let content = text.pointee.content { value += String(cString: content) }
            child = text.pointee.next
        }
        return value
    }

    /// Whether libxml2 can convert text in the character set called `name` (through iconv).
    /// The corresponding C functions are `xmlFindCharEncodingHandler` and `xmlCharEncCloseFunc`.
    static func canDecode(_ name: String, _ refusal: @autoclosure () -> NarrationError) throws(NarrationError) {
        _ = ready
        let handler = try check(xmlFindCharEncodingHandler(name), "xmlFindCharEncodingHandler", refusal())
        try check(xmlCharEncCloseFunc(handler), "xmlCharEncCloseFunc", refusal())
    }
}

/// The one owner of a parsed HTML document (`xmlDoc`), freed when the owner goes.
///
/// Freeing cannot fail (`xmlFreeDoc` returns nothing), so there is no `close()`: `deinit` frees.
struct HTMLDocument: ~Copyable {
    private let document: UnsafeMutablePointer<xmlDoc>

    /// Parses HTML with libxml2's forgiving HTML parser: it recovers from any markup error, never
    /// reaches the network and reports nothing on stderr; entities are decoded and every string in
    /// the tree is UTF-8.
    ///
    /// - Parameter encoding: the character set of `bytes`, as libxml2 (iconv) names it; libxml2
    ///   then ignores any the document declares.
    /// - Throws: `failure` when libxml2 makes no document at all (out of memory). The corresponding
    ///   C function is `htmlReadMemory`.
    init(parsing bytes: ArraySlice<UInt8>, encoding: String, failure: @autoclosure () -> NarrationError) throws(NarrationError) {
        _ = LibXML2.ready
        let options = CInt(bitPattern: HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue)
        guard let size = CInt(exactly: bytes.count) else { throw failure() }
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                htmlReadMemory(characters.baseAddress, size, nil, encoding, options)
            }
        }
        document = try LibXML2.check(parsed, "htmlReadMemory", failure())
    }

    deinit { xmlFreeDoc(document) }

    /// Calls `body` with the document's root element (nil for a document without one) while the
    /// document is certainly alive; the nodes must not escape `body`.
    func withRootElement<Result>(_ body: (HTMLNode?) -> Result) -> Result {
        body(xmlDocGetRootElement(document).map(HTMLNode.init))
    }
}

/// A read-only view of one node of an `HTMLDocument`, valid only inside `withRootElement`.
struct HTMLNode: Hashable {
    fileprivate let node: UnsafeMutablePointer<xmlNode>

    /// The node's lowercase element name, or nil when it is not an element.
    var elementName: String? {
        guard node.pointee.type == XML_ELEMENT_NODE, let name = node.pointee.name else { return nil }
        return String(cString: name)
    }

    /// The text of a text or CDATA node, or nil for any other node.
    var text: String? {
        guard node.pointee.type == XML_TEXT_NODE || node.pointee.type == XML_CDATA_SECTION_NODE,
              let content = node.pointee.content else { return nil }
        return String(cString: content)
    }

    /// The text of every text and CDATA node inside the element, in document order (nil when
    /// there is none). Iterative, so no nesting is too deep.
    var textContent: String? {
        var text = ""
        var current = node.pointee.children
        while let child = current {
            if child.pointee.type == XML_TEXT_NODE || child.pointee.type == XML_CDATA_SECTION_NODE, let content = child.pointee.content {
                text += String(cString: content)
            }
            if child.pointee.type == XML_ELEMENT_NODE, let first = child.pointee.children { current = first; continue }
            var next = child
            while next.pointee.next == nil, let parent = next.pointee.parent, parent != node { next = parent }
            current = next.pointee.next
        }
        return text.isEmpty ? nil : text
    }

    var firstChild: HTMLNode? { node.pointee.children.map(HTMLNode.init) }
    var nextSibling: HTMLNode? { node.pointee.next.map(HTMLNode.init) }
    var previousSibling: HTMLNode? { node.pointee.prev.map(HTMLNode.init) }
    var parent: HTMLNode? { node.pointee.parent.map(HTMLNode.init) }

    /// The topmost node above this one (the document), or nil for that node itself.
    var root: HTMLNode? {
        var top = node.pointee.parent
        while let above = top?.pointee.parent { top = above }
        return top.map(HTMLNode.init)
    }

    /// Whether the element has any attribute at all: most have none, and then no attribute needs looking up.
    var hasAttributes: Bool { node.pointee.type == XML_ELEMENT_NODE && node.pointee.properties != nil }

    /// Calls `body` with each attribute's lowercase name and its value ("" for one without a value).
    /// Read from the attributes' own text nodes, so nothing is allocated and nothing needs freeing.
    func forEachAttribute(_ body: (String, String) -> Void) {
        guard node.pointee.type == XML_ELEMENT_NODE else { return }
        var attribute = node.pointee.properties
        while let current = attribute {
            if let name = current.pointee.name { body(String(cString: name), LibXML2.value(of: current)) }
            attribute = current.pointee.next
        }
    }
}

/// The one owner of a parsed XML document (`xmlDoc`), read strictly: a document that is not
/// well-formed is refused, never recovered. Used for files other programs may have written, so
/// it reaches no network, expands no external entity and prints nothing.
struct XMLDocumentOwner: ~Copyable {
    private let document: UnsafeMutablePointer<xmlDoc>

    /// - Throws: `XMLReader.Failure` with libxml2's reason and line. The corresponding C function
    ///   is `xmlReadMemory`.
    init(parsing bytes: [UInt8]) throws(XMLReader.Failure) {
        _ = LibXML2.ready
        let options = CInt(bitPattern: XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue)
        guard let size = CInt(exactly: bytes.count) else { throw XMLReader.Failure(reason: "it is too large to read") }
        xmlResetLastError()
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in xmlReadMemory(characters.baseAddress, size, nil, nil, options) }
        }
        guard let parsed else {
            var reason = "it is not well-formed XML"
            if let error = xmlGetLastError(), let message = error.pointee.message {
                let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
                reason += " (line \(error.pointee.line): \(text))"
            }
            throw XMLReader.Failure(reason: reason)
        }
        document = parsed
    }

    deinit { xmlFreeDoc(document) }

    /// Calls `body` with a view of the root element (nil for a document without one) while the
    /// document is certainly alive, for reading mixed content in order; the nodes must not escape.
    func withRootNode<Result>(_ body: (HTMLNode?) -> Result) -> Result {
        body(xmlDocGetRootElement(document).map(HTMLNode.init))
    }

    /// The root element as pure values, or nil for a document without one.
    func rootElement() -> XMLReader.Element? {
        xmlDocGetRootElement(document).map(Self.element)
    }

    /// An element, its attributes, its direct text and its child elements, copied out of the tree.
    private static func element(_ node: UnsafeMutablePointer<xmlNode>) -> XMLReader.Element {
        var attributes: [String: String] = [:]
        var attribute = node.pointee.properties
        while let current = attribute {
            if let name = current.pointee.name { attributes[String(cString: name)] = LibXML2.value(of: current) }
            attribute = current.pointee.next
        }
        var text = ""
        var children: [XMLReader.Element] = []
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE: children.append(element(current))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE: if let content = current.pointee.content { text += String(cString: content) }
            default: break
            }
            child = current.pointee.next
        }
        return XMLReader.Element(
            name: node.pointee.name.map { String(cString: $0) } ?? "", namespace: node.pointee.ns?.pointee.href.map { String(cString: $0) },
            attributes: attributes, text: text, children: children)
    }
}
