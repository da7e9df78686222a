import NarrationCore
import Testing

@Suite("config.toml")
struct SettingsTests {
    @Test("defaults, a custom profile based on a built-in one, and comments")
    func parses() throws {
        let text = """
            # Narration settings
            narrator = "Zoë Ng"   # shown in the tags
            publication = 'Daily Post'
            device = "plughw:CARD=USB"
            profile = "org"
            destination = "/mnt/share/narrations"

            [profiles.org]
            base = "podcast"
            bitrate = 96
            loudness = -18.5
            room_tone_head = 0.5
            """
        let settings = try Settings(parsing: text, file: "config.toml")
        #expect(settings.narrator == "Zoë Ng" && settings.publication == "Daily Post" && settings.device == "plughw:CARD=USB")
        #expect(settings.destination == "/mnt/share/narrations")
        let profile = try settings.deliveryProfile(named: settings.profile)
        #expect(profile.name == "org" && profile.format == .mp3 && profile.mp3 == .constant(kbps: 96))
        #expect(profile.mastering.loudnessTarget == .fixed(-18.5))
        #expect(profile.mastering.roomToneHeadSeconds == 0.5)
        #expect(profile.mastering.peakCeiling == DeliveryProfile.podcast.mastering.peakCeiling)
        #expect(profile.rules.contains(.loudness(.fixed(-18.5), tolerance: 1)))
        #expect(try settings.deliveryProfile(named: "acx") == .acx)
        #expect(Settings() == (try Settings(parsing: "", file: "empty.toml")))
    }

    @Test("no_clipping and max_silence add rules to a profile, and false or 0 take them away")
    func ruleSettings() throws {
        let text = """
            [profiles.strict]
            base = "archive"
            no_clipping = true
            max_silence = 4.5

            [profiles.loose]
            base = "acx"
            no_clipping = false
            max_silence = 0
            """
        let settings = try Settings(parsing: text, file: "config.toml")
        let strict = try settings.deliveryProfile(named: "strict")
        #expect(strict.rules == [.noClipping, .silencesAtMost(4.5)])
        let loose = try settings.deliveryProfile(named: "loose")
        #expect(loose.rules == DeliveryProfile.acx.rules.filter { $0 != .noClipping })
        #expect(throws: NarrationError(.usage, "config.toml, line 2: no_clipping in [profiles.x] must be true or false.")) {
            try Settings(parsing: "[profiles.x]\nno_clipping = 1", file: "config.toml")
        }
    }

    @Test("mistakes are named with the file and line, and the fix", arguments: [
        ("narrator = Ann", "config.toml, line 1: Ann is not a value narrate understands (a string in quotes, a number, true or false). Fix the line or remove it."),
        ("narator = \"Ann\"", "config.toml, line 1: unknown setting \"narator\" (known: destination, destinations, device, language, narrator, profile, profiles, publication, service)."),
        ("[profiles.x]\nbitrat = 64", "config.toml, line 2: unknown setting \"bitrat\" in [profiles.x] (known: base, bitrate, carries, format, join_fade, loudness, max_pause, max_silence, no_clipping, peak_ceiling, rms, room_tone_head, room_tone_tail, vbr)."),
        ("[profiles.x]\nloudness = 5", "config.toml, line 2: loudness in [profiles.x] must be a number from -40.0 to 0.0."),
        ("narrator = \"Ann\"\nnarrator = \"Bo\"", "config.toml, line 2: narrator is set twice. Fix the line or remove it."),
        ("profile = \"nope\"", "There is no profile \"nope\". Use one of archive, librivox, acx, podcast, mobile, telephone."),
        ("narrator = \"unclosed", "config.toml, line 1: a string is not closed. Fix the line or remove it."),
        ("tags = {a = 1}", "config.toml, line 1: {a = 1} is not a value narrate understands (a string in quotes, a number, true or false). Fix the line or remove it."),
    ])
    func mistakes(text: String, message: String) {
        #expect(throws: NarrationError(.usage, message)) { try Settings(parsing: text, file: "config.toml") }
    }

    @Test("random text never traps the parser")
    func randomText() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["narrator", "=", "\"", "'", "[", "]", ".", "#", "\\", "\n", " ", "profiles", "x", "1", "-2.5", "true", "\u{0}", "é", "🎙️"]
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...30, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            if let parsed = try? ConfigParser.parse(text, file: "fuzz.toml") {
                #expect(parsed.keys.allSatisfy { !$0.isEmpty })
            }
            _ = try? Settings(parsing: text, file: "fuzz.toml")
        }
    }

    @Test("an Opus profile's bitrate: 6 to 256 kbit/s from config.toml, Opus's speech default without one, never its base's MP3 rate")
    func opusBitrate() throws {
        let text = """
            [profiles.phone]
            base = "mobile"
            bitrate = 24

            [profiles.opus]
            base = "podcast"
            format = "opus"

            [profiles.mp3]
            base = "podcast"
            bitrate = 96
            """
        let settings = try Settings(parsing: text, file: "config.toml")
        let phone = try settings.deliveryProfile(named: "phone")
        #expect(phone.format == .opus && phone.opusKbps == 24)
        let opus = try settings.deliveryProfile(named: "opus")
        #expect(opus.format == .opus && opus.opusKbps == nil && opus.mastering == DeliveryProfile.podcast.mastering)
        #expect(try settings.deliveryProfile(named: "mp3").opusKbps == nil)
        #expect(DeliveryProfile.mobile.opusKbps == nil)
        #expect(OpusBitrate.speechDefault(channels: 1) == 32 && OpusBitrate.speechDefault(channels: 2) == 48)
        #expect(throws: NarrationError(.usage, "config.toml, line 3: bitrate in [profiles.x] must be a number from 6.0 to 256.0.")) {
            try Settings(parsing: "[profiles.x]\nbase = \"mobile\"\nbitrate = 320", file: "config.toml")
        }
        #expect(throws: NarrationError(.usage, "config.toml, line 3: bitrate in [profiles.x] must be a number from 32.0 to 320.0.")) {
            try Settings(parsing: "[profiles.x]\nbase = \"podcast\"\nbitrate = 16", file: "config.toml")
        }
        #expect(throws: NarrationError(.usage, "config.toml, line 3: vbr in [profiles.x] applies to MP3 only; this profile's format is opus (give bitrate instead).")) {
            try Settings(parsing: "[profiles.x]\nformat = \"opus\"\nvbr = 2", file: "config.toml")
        }
        #expect(throws: NarrationError(.usage, "300 kbit/s is not an Ogg Opus bitrate. Use 6 to 256.")) { try OpusBitrate.validate(300) }
        try OpusBitrate.validate(6)
        try OpusBitrate.validate(256)
    }

    @Test("the telephone and mobile profiles: their formats, rules and the file an article becomes", arguments: [
        (AudioFormat(sampleRate: 44_100, channels: 2, bitsPerSample: 24), "telephone", AudioFormat(sampleRate: 8_000, channels: 1, bitsPerSample: 16)),
        (AudioFormat(sampleRate: 48_000, channels: 1, bitsPerSample: 16), "telephone", AudioFormat(sampleRate: 8_000, channels: 1, bitsPerSample: 16)),
        (AudioFormat(sampleRate: 44_100, channels: 2, bitsPerSample: 24), "mobile", AudioFormat(sampleRate: 48_000, channels: 2, bitsPerSample: 24)),
        (AudioFormat(sampleRate: 16_000, channels: 1, bitsPerSample: 16), "mobile", AudioFormat(sampleRate: 48_000, channels: 1, bitsPerSample: 16)),
        (AudioFormat(sampleRate: 48_000, channels: 2, bitsPerSample: 24), "librivox", AudioFormat(sampleRate: 44_100, channels: 1, bitsPerSample: 24)),
        (AudioFormat(sampleRate: 22_050, channels: 2, bitsPerSample: 16), "archive", AudioFormat(sampleRate: 22_050, channels: 2, bitsPerSample: 16)),
    ])
    func phoneProfiles(article: AudioFormat, name: String, file: AudioFormat) throws {
        let profile = try DeliveryProfile.named(name.uppercased())
        #expect(profile.format.fileFormat(for: article, profile: profile) == file)
    }

    @Test("telephone is WAV with 8 kHz, mono, 16-bit and peak rules; mobile is Opus with chapters at podcast loudness")
    func phoneProfileRules() throws {
        let telephone = try DeliveryProfile.named("telephone")
        #expect(telephone.format == .wav)
        #expect(telephone.rules == [.sampleRate(8_000), .channels(1), .bitsPerSample(16), .truePeakAtMost(Decibels(-1))])
        #expect(telephone.mastering.loudnessTarget == .fixed(-19) && telephone.mastering.peakCeiling == Decibels(-2))
        let mobile = try DeliveryProfile.named("mobile")
        #expect(mobile.format == .opus && mobile.format.holdsChapters)
        #expect(mobile.mastering.loudnessTarget == .podcast && mobile.rules.contains(.truePeakAtMost(Decibels(-1))))
        #expect(DeliveryProfile.all.map(\.name) == ["archive", "librivox", "acx", "podcast", "mobile", "telephone"])
        #expect(ExportFormat.allCases.filter(\.holdsChapters) == [.mp3, .flac, .opus])
    }
}
