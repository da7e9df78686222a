import Foundation

/// Reads an XML document that another program may have written (a destination's feed.xml) into
/// plain values, through libxml2 (`XMLDocumentOwner`).
///
/// Foundation's `XMLParser` was the first choice, but on Linux it traps on some damaged
/// documents (seen in `_NSXMLParserStartElementNs` when fuzzing feeds), and nothing read from
/// outside may crash narrate; libxml2 itself refuses them with a reason.
public enum XMLReader {
    /// An element: its local name, its namespace's URI, its attributes by local name, the text
    /// directly inside it, and its child elements in order.
    public struct Element: Sendable, Equatable {
        public let name: String
        public let namespace: String?
        public let attributes: [String: String]
        public let text: String
        public let children: [Element]

        /// The first child element called `name` in `namespace` (nil: no namespace).
        public func child(_ name: String, in namespace: String? = nil) -> Element? {
            children.first { $0.name == name && $0.namespace == namespace }
        }

        /// Every child element called `name` in `namespace`.
        public func children(_ name: String, in namespace: String? = nil) -> [Element] {
            children.filter { $0.name == name && $0.namespace == namespace }
        }
    }

    /// Why a document could not be read.
    public struct Failure: Error, Sendable, Equatable {
        public let reason: String
    }

    /// The document's root element.
    /// - Throws: `Failure` for a document that is not well-formed XML or has no root element.
    public static func read(_ bytes: [UInt8]) throws(Failure) -> Element {
        let document = try XMLDocumentOwner(parsing: bytes)
        guard let root = document.rootElement() else { throw Failure(reason: "it holds no element") }
        return root
    }
}
