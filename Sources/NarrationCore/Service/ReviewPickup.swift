/// A note as the volunteer's pickup list shows it: the note, and where to pick it up.
public struct ReviewPickup: Sendable, Equatable {
    public let note: ReviewNote
    public let target: PickupTarget

    public init(note: ReviewNote, target: PickupTarget) {
        self.note = note
        self.target = target
    }
}
