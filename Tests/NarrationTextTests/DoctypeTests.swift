import Foundation
import NarrationCore
import NarrationText
import Testing

@Suite("Document type declarations")
struct DoctypeTests {
    /// A DOCTYPE with an internal subset: declarations in brackets, one holding "]" and ">" in quotes.
    static let subset = """
        <!DOCTYPE html [
          <!ENTITY publisher "Valley Gazette">
          <!-- a comment with ] and > inside -->
          <!ENTITY odd "a ] b > c">
        ]>
        """

    @Test("an HTML page's internal subset is not read: no \"]>\" paragraph", arguments: ["page.html", "page.xhtml", "page"])
    func htmlSubset(name: String) throws {
        let folder = try TextFolder()
        let page = Self.subset + "\n<html><body><h1>Floods</h1><p>The river rose.</p></body></html>"
        #expect(try folder.read(name, page) == [heading("Floods"), paragraph("The river rose.")])
    }

    @Test("after an XML declaration and a comment, and in upper case, the subset goes too")
    func declarationFirst() throws {
        let folder = try TextFolder()
        let page = "<?xml version=\"1.0\"?>\n<!-- saved -->\n<!DOCTYPE HTML PUBLIC \"-//W3C//DTD XHTML 1.0//EN\" \"x.dtd\" [<!ENTITY a \"b\">]>"
            + "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>Text</p></body></html>"
        #expect(try folder.read("page.xhtml", page) == [paragraph("Text")])
    }

    @Test("a subset that never ends takes the rest with it: nothing to read")
    func unterminated() throws {
        let folder = try TextFolder()
        let path = try folder.write("broken.html", "<!DOCTYPE html [ <!ENTITY a \"b\"> <p>Never</p>")
        let error = thrown { () throws(NarrationError) in try ScriptReader.read(fileAt: path) }
        #expect(error?.message == "\"broken.html\" has no text to read.")
    }

    @Test("the XML reader (a destination's feed) reads past an internal subset to the elements' text")
    func xmlSubset() throws {
        let feed = Self.subset.replacingOccurrences(of: "html", with: "rss") + "<rss><channel><title>Readings</title></channel></rss>"
        let root = try XMLReader.read(Array(feed.utf8))
        #expect(root.name == "rss")
        #expect(root.child("channel")?.child("title")?.text == "Readings")
        #expect(root.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }
}
