import Narration
import NarrationCore
import Studio

/// The takes pages upload into one studio session (Protocol.md, "Takes a page uploads"): a take
/// is named by its page before it starts, ends at the length its page gave, resumes after any
/// break (a dropped connection, a reload, a server restart) and takes numbered pieces, each
/// written once. Every piece and message is checked against the take's key, article and account.
///
/// Used only on the session's thread (`StudioHost`'s run loop), which owns the `Studio`; what it
/// tells a page goes out through `tell`.
struct PageTakeUploads: Sendable {
    typealias PageID = StudioHost.PageID

    let library: NarrationLibrary
    /// In a reading service, the account of a page (nil in the personal studio).
    let accountName: @Sendable (PageID) -> String?
    /// Sends one page one message.
    let tell: @Sendable (PageID, String) -> Void

    /// Who uploads a take begun by `page`: the key, and in a reading service the page's account.
    private func tag(_ key: TakeUploadKey, from page: PageID) -> TakeUploadTag {
        TakeUploadTag(key: key, account: accountName(page))
    }

    /// Tells one page where its upload stands: `state` is "receiving" (send on from frame
    /// `received`), "done" (the take is on the server: forget it), "waiting" (the studio is busy:
    /// ask again later) or "refused" (never send it here; `problem` says why).
    private func tellUpload(_ page: PageID, _ key: TakeUploadKey, _ state: String, received: Int? = nil, problem: String? = nil) {
        var fields: [String: AnyEncodable] = ["type": AnyEncodable("upload"), "take": AnyEncodable(key.rawValue), "state": AnyEncodable(state)]
        if let received { fields["received"] = AnyEncodable(received) }
        if let problem { fields["problem"] = AnyEncodable(problem) }
        tell(page, PageState.encode(fields))
    }

    /// A key or punch that starts a take the page uploads: the take is named before `starting`
    /// performs the page's message.
    /// - Returns: whether the take started.
    func begin(_ key: TakeUploadKey, on studio: Studio, from page: PageID, starting: () -> Void) -> Bool {
        // A key that starts a take is a toggle to the studio: with a take under way (one the page
        // has not seen yet, an upload of its own resumed a moment ago) it would stop that one.
        // (A pre-roll is no take: the punch that follows it is the one take that may start.)
        guard !studio.state.isRecording, !studio.state.isWorking else {
            tellUpload(page, key, "waiting", problem: StudioHost.busy)
            return false
        }
        studio.nameNextBrowserTake(tag(key, from: page))
        starting()
        studio.nameNextBrowserTake(nil)
        guard studio.browserTakeUpload?.key == key else {
            // Busy (another take, work): the page may keep a new take for later; else it was refused.
            tellUpload(page, key, studio.state.isRecording || studio.state.isWorking ? "waiting" : "refused", problem: studio.state.notice?.text)
            return false
        }
        tellUpload(page, key, "receiving", received: 0)
        return true
    }

    /// The page stopped the take `key` after `frames` frames: it ends there once they are all in.
    func stop(_ key: TakeUploadKey, frames: Int, on studio: Studio, from page: PageID) {
        guard let live = studio.browserTakeUpload, live.key == key else {
            _ = resume(key, frames: frames, on: studio, from: page)
            return
        }
        guard live == tag(key, from: page) else { return tellUpload(page, key, "refused", problem: Self.notYourTake) }
        if !studio.endBrowserTake(atFrame: frames) {
            tellUpload(page, key, "refused", problem: Self.otherLength)
        }
    }

    private static let notYetKept = "That take could not be kept just now: try again in a moment."
    private static let otherLength = "The page gave its take another length than it gave before: reload the page."
    private static let notYourTake = "That take is not one this page may send: reload the page."

    /// A page holds pieces of the take `key` not yet on the server: the take under way goes on
    /// with them, one set aside is resumed, one the server never heard of (begun while the
    /// network was away) starts now as a new take at the end; one on the server already is done.
    /// - Returns: whether `page` now sends the take under way.
    func resume(_ key: TakeUploadKey, frames: Int?, on studio: Studio, from page: PageID) -> Bool {
        let tag = tag(key, from: page)
        if let live = studio.browserTakeUpload, live.key == key {
            guard live == tag else {
                tellUpload(page, key, "refused", problem: Self.notYourTake)
                return false
            }
            if let frames, !studio.endBrowserTake(atFrame: frames) {
                tellUpload(page, key, "refused", problem: Self.otherLength)
                return false
            }
            tellUpload(page, key, "receiving", received: studio.streamedInput?.receivedFrames ?? 0)
            return true
        }
        let record: TakeUploadRecord?
        do throws(NarrationError) {
            record = try library.takeUpload(key)
        } catch {
            tellUpload(page, key, "waiting", problem: error.message)
            return false
        }
        if let record {
            guard record.article == studio.openArticle?.id, record.account == tag.account else {
                tellUpload(page, key, "refused", problem: Self.notYourTake)
                return false
            }
            guard record.stage == .uploading else {
                tellUpload(page, key, "done")
                return false
            }
            do throws(NarrationError) {
                try studio.resumeBrowserTake(tag)
            } catch {
                tellUpload(page, key, "waiting", problem: error.message)
                return false
            }
        } else {
            // Begun while the server could not be told: it becomes a new take at the end.
            guard !StudioHost.isBusy(studio), studio.openArticle != nil else {
                tellUpload(page, key, "waiting", problem: StudioHost.busy)
                return false
            }
            studio.microphone = .browser
            studio.nameNextBrowserTake(tag)
            studio.perform(.toggleRecording)
            studio.nameNextBrowserTake(nil)
            guard studio.browserTakeUpload?.key == key else {
                tellUpload(page, key, StudioHost.isBusy(studio) ? "waiting" : "refused", problem: studio.state.notice?.text)
                return false
            }
        }
        if let frames, !studio.endBrowserTake(atFrame: frames) {
            tellUpload(page, key, "refused", problem: Self.otherLength)
        }
        tellUpload(page, key, "receiving", received: studio.streamedInput?.receivedFrames ?? 0)
        return true
    }

    /// Keeps what arrived of the take `key`, set aside while its page was away, because the
    /// volunteer says its page will not send the rest (it is on another device, or lost): the
    /// take becomes a recovered chunk, as recovery would make it after `uploadPatience`. Only
    /// the account that recorded it may, and not while it records or the studio is busy.
    func keep(_ key: TakeUploadKey, on studio: Studio, from page: PageID) {
        guard studio.browserTakeUpload?.key != key else {
            return tellUpload(page, key, "refused", problem: "That take is still recording: stop it, and it is kept whole.")
        }
        guard !StudioHost.isBusy(studio), let article = studio.openArticle else { return tellUpload(page, key, "waiting", problem: StudioHost.busy) }
        do throws(NarrationError) {
            guard let record = try library.takeUpload(key), record.article == article.id, record.account == accountName(page) else {
                return tellUpload(page, key, "refused", problem: Self.notYourTake)
            }
            guard record.stage == .uploading else { return tellUpload(page, key, "done") }
            guard let sentence = try library.keepWhatArrived(key) else {
                // Still held (its recording is being set aside) or nothing to keep: say so, never "done".
                let left = try library.takeUpload(key)?.stage == .uploading
                return tellUpload(page, key, left ? "waiting" : "done", problem: left ? Self.notYetKept : nil)
            }
            studio.reloadAfterOutsideChange()
            studio.perform(.explain(sentence))
            tellUpload(page, key, "done")
        } catch {
            tellUpload(page, key, "refused", problem: error.message)
        }
    }

    /// A numbered piece of a take: taken into the take under way when it is this page's
    /// account's; a gap or a damaged piece tells the page where to go on from.
    func receive(_ bytes: [UInt8], on studio: Studio, from page: PageID) {
        guard let article = studio.openArticle else { return }
        let piece: TakePiece
        do throws(NarrationError) {
            piece = try TakePiece(bytes, channels: article.format.channels)
        } catch {
            tell(page, PageState.encode(["type": "error", "text": error.message]))
            if bytes.count >= 20 {
                let key = TakeUploadKey(bytes: bytes[4..<20])
                if studio.browserTakeUpload?.key == key { tellUpload(page, key, "receiving", received: studio.streamedInput?.receivedFrames ?? 0) }
            }
            return
        }
        guard let live = studio.browserTakeUpload, live.key == piece.key, let stream = studio.streamedInput else {
            // Not the take under way (set aside, or done): the page asks with "resume".
            return tellUpload(page, piece.key, "waiting")
        }
        guard live == tag(piece.key, from: page) else { return tellUpload(page, piece.key, "refused", problem: Self.notYourTake) }
        switch stream.receive(piece.samples, at: piece.firstFrame) {
        case .taken, .duplicate: break
        case .gap(let expected): tellUpload(page, piece.key, "receiving", received: expected)
        case .pastTheEnd(let received): tellUpload(page, piece.key, "refused", received: received, problem: "The page sent audio past the end it gave its take: reload the page.")
        }
    }
}
