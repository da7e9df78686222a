import Foundation
import Hummingbird
import Narration
import NarrationCore
import NarrationText

/// What the desk's routes take from a request, each checked before use: the listing's query,
/// a new article, an assignment and a change. A check that fails is one sentence with its
/// HTTP status (`DeskRefusalAnswer`, or `usage` for 400).

/// A refusal of a request before the desk is asked: its status and sentence.
struct DeskRefusalAnswer: Error {
    let status: Int
    let sentence: String

    /// Outside text for a sentence: at most 40 characters, control characters shown as "?".
    static func shown(_ text: String) -> String {
        let visible = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) })
        return visible.count > 40 ? String(visible.prefix(39)) + "…" : visible
    }
}

/// `GET /api/desk?publication=&state=&volunteer=&dueBefore=&late=true&page=N`.
struct DeskQuery {
    var filter = DeskFilter()
    var late = false
    /// 1 for the first page.
    var page = 1

    /// - Throws: `usage` naming the parameter and what it takes.
    init(_ parameters: Parameters) throws(NarrationError) {
        if let publication = parameters.get("publication"), !publication.isEmpty {
            guard publication.count <= DeskRoutes.publicationLength else {
                throw .usage("A publication's name has at most \(DeskRoutes.publicationLength) characters: give a shorter one to filter by.")
            }
            filter.publication = publication
        }
        if let state = parameters.get("state"), !state.isEmpty { filter.state = try DeskState(naming: state) }
        if let volunteer = parameters.get("volunteer"), !volunteer.isEmpty { filter.volunteer = try AccountName(volunteer) }
        if let dueBefore = parameters.get("dueBefore"), !dueBefore.isEmpty {
            let time = try DeskTime(dueBefore)
            // A day alone is due at its end: "before 2026-12-03" takes in what is due at the end of the 2nd.
            filter.dueBefore = time.hasTime ? time.instant : time.instant.addingTimeInterval(-24 * 3600)
        }
        switch parameters.get("late") {
        case nil, "", "false": late = false
        case "true": late = true
        case let other?: throw .usage("The late filter is true or false, not \"\(DeskRefusalAnswer.shown(other))\".")
        }
        if let page = parameters.get("page") {
            guard page.count <= 7, page.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(page), (1...DeskRoutes.pageLimit).contains(number) else {
                throw .usage("The page is a whole number from 1 to \(DeskRoutes.pageLimit), not \"\(DeskRefusalAnswer.shown(String(page.prefix(40))))\".")
            }
            self.page = number
        }
    }
}

/// `POST /api/desk`: a new article, with its text pasted (`text`), a text file's text uploaded
/// (`text` and `textName`, a .txt, .md or .html file's name), or a document uploaded whole
/// (`file`, its bytes in base64, and `textName`, a .docx, .odt or .pdf file's name).
struct DeskArticleForm: Decodable {
    var title: String
    var publication: String?
    var section: String?
    var deadline: String?
    var listenUntil: String?
    var priority: String?
    var text: String?
    var textName: String?
    var file: String?

    /// The article for `DeskService.add` and its text with the format to read it in.
    /// - Throws: 400 for a title, publication, day or priority the desk does not take, or a
    ///   document that did not arrive as base64; 413 for a text over 2 MB or a document over
    ///   3 MB; 415 for an uploaded file that is not .txt, .md, .html, .docx, .odt or .pdf.
    func checked() throws(DeskRefusalAnswer) -> (new: DeskService.NewArticle, text: (bytes: [UInt8], format: ScriptFormat, name: String)?) {
        func bad(_ sentence: String) -> DeskRefusalAnswer { DeskRefusalAnswer(status: 400, sentence: sentence) }
        guard title.count <= DeskRoutes.titleLength else {
            throw bad("A title may have at most \(DeskRoutes.titleLength) characters; this one has \(title.count).")
        }
        let publication = publication ?? ""
        guard publication.count <= DeskRoutes.publicationLength else {
            throw bad("A publication's name may have at most \(DeskRoutes.publicationLength) characters; this one has \(publication.count).")
        }
        let new: DeskService.NewArticle
        do throws(NarrationError) {
            try DeskEntry.checkSection(section ?? "")
            new = DeskService.NewArticle(
                title: title, publication: publication, section: section ?? "", deadline: try Self.day(deadline, "deadline"),
                listenUntil: try Self.day(listenUntil, "listen until"), priority: try DeskPriority(naming: priority ?? "normal"))
        } catch {
            throw bad(error.message)
        }
        if let file, !file.isEmpty { return (new, try Self.document(file, named: textName ?? "")) }
        guard let text, !text.isEmpty else { return (new, nil) }
        guard text.utf8.count <= WebStudioServer.textLimit else { throw DeskRefusalAnswer(status: 413, sentence: DeskRoutes.tooBig) }
        let bytes = Array(text.utf8)
        guard let textName, !textName.isEmpty else { return (new, (bytes, .from(content: bytes), "pasted text")) }
        let name = String(textName.prefix(200))
        guard let format = ScriptFormat.from(fileName: name), DeskRoutes.uploadFormats.contains(format) else {
            throw DeskRefusalAnswer(status: 415, sentence: Self.notReadable(name))
        }
        return (new, (bytes, format, name))
    }

    /// A Word, OpenDocument or PDF file uploaded whole: its bytes, read by its name's format.
    static func document(_ base64: String, named textName: String) throws(DeskRefusalAnswer) -> (bytes: [UInt8], format: ScriptFormat, name: String) {
        let name = String(textName.prefix(200))
        guard let format = ScriptFormat.from(fileName: name), DeskRoutes.documentFormats.contains(format) else {
            throw DeskRefusalAnswer(status: 415, sentence: Self.notReadable(name.isEmpty ? "the file" : name))
        }
        // Checked before decoding: base64 is 4 characters for every 3 bytes.
        guard base64.utf8.count <= (DeskRoutes.documentLimit + 2) / 3 * 4 else {
            throw DeskRefusalAnswer(status: 413, sentence: DeskRoutes.documentTooBig)
        }
        guard let data = Data(base64Encoded: base64), data.count <= DeskRoutes.documentLimit else {
            throw DeskRefusalAnswer(status: 400, sentence: "\"\(DeskRefusalAnswer.shown(name))\" did not arrive whole: choose the file again.")
        }
        return (Array(data), format, name)
    }

    static func notReadable(_ name: String) -> String {
        "\"\(DeskRefusalAnswer.shown(name))\" is not a file the desk page reads: upload a .txt, .md, .html, .docx, .odt or .pdf file, or paste the text."
    }

    /// A deadline or "listen until" as the form gives it; "" for none.
    static func day(_ text: String?, _ what: String) throws(NarrationError) -> DeskTime? {
        guard let text, !text.isEmpty else { return nil }
        do throws(NarrationError) {
            return try DeskTime(text)
        } catch {
            throw .usage("The \(what) \(error.message.prefix(1).lowercased())\(error.message.dropFirst())")
        }
    }
}

/// `POST /api/desk/ID/assign`: `{"account": NAME}`.
struct AssignForm: Decodable {
    var account: String
}

/// `POST /api/desk/ID/change`: the details to change; a field left out stays as it is; a
/// deadline or listen until of "" or "none" is removed.
struct ChangeForm: Decodable {
    var section: String?
    var deadline: String?
    var listenUntil: String?
    var priority: String?

    /// - Throws: `usage` for nothing to change, a section, day or priority the desk does not take.
    func checked() throws(NarrationError) -> DeskService.Change {
        guard section != nil || deadline != nil || listenUntil != nil || priority != nil else {
            throw .usage("Say what to change: the section, the deadline, the listen until or the priority.")
        }
        return DeskService.Change(
            section: section, deadline: try Self.removable(deadline, "deadline"), listenUntil: try Self.removable(listenUntil, "listen until"),
            priority: try priority.map { (text) throws(NarrationError) in try DeskPriority(naming: text) })
    }

    private static func removable(_ text: String?, _ what: String) throws(NarrationError) -> DeskTime?? {
        guard let text else { return nil }
        if text.isEmpty || text == "none" { return .some(nil) }
        return .some(try DeskArticleForm.day(text, what))
    }
}
