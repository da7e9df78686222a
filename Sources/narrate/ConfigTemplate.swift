/// The config.toml that `narrate config init` writes: every section and key narrate reads, each
/// commented out with an example value and its default, so that the file changes nothing until a
/// line is uncommented, and every example line, uncommented, is one narrate accepts.
///
/// A line that starts `# ` followed by `key = value` or `[table]` is an example; a line that
/// starts `## ` is an explanation. Tests uncomment the examples and read the file with narrate's
/// own parser, so a key added to `Settings` without a line here, or an example narrate would
/// refuse, fails them.
enum ConfigTemplate {
    static let text = """
        ## narrate's settings. Every line below is commented out: narrate uses its defaults until
        ## you remove the "# " in front of a setting. Lines starting "##" explain the one below.
        ## `narrate config` shows every setting in use and where it came from; `man narrate`
        ## (CONFIGURATION) and the coordinator's guide describe each one.
        ## A mistake (an unknown key, a value of the wrong type or out of range) is one sentence
        ## naming this file and its line, and no command runs until it is fixed.

        ## Who reads, and for whom: the credit every new article gets. Default: empty.
        # narrator = "Ann Lee"
        # publication = "Daily Post"

        ## The ALSA device to record from (`narrate devices` lists them). Default: "default".
        # device = "default"

        ## The language articles are read in, a BCP 47 tag: English takes are also checked by
        ## speech recognition, others by their speaking rate only. Default: "en".
        # language = "en"

        ## The delivery profile export, queue and submit use: a built-in one (archive, librivox,
        ## acx, podcast, mobile, telephone) or one of [profiles.NAME] below. Default: "archive".
        # profile = "archive"

        ## Where submit sends an article when it is not told: a name from [destinations.NAME]
        ## below, a folder, or s3://BUCKET/PREFIX. Default: none (submit is then told where).
        # destination = "archive"

        ## A delivery profile of your own, [profiles.NAME], based on a built-in one. Every key is
        ## optional; each one left out is the base profile's.
        # [profiles.org]
        ## The built-in profile it starts from. Default: "archive".
        # base = "podcast"
        ## "mp3", "wav", "flac", "ogg" or "opus". Default: the base's.
        # format = "mp3"
        ## kbit/s: MP3's 32 to 320, or Ogg Opus's 6 to 256 with format = "opus".
        # bitrate = 96
        ## MP3 variable bitrate quality instead, 0 (best) to 9; not with format = "opus".
        # vbr = 4
        ## Integrated loudness target in LUFS, -40 to 0 (replaces an RMS target).
        # loudness = -18
        ## RMS target in dBFS, -40 to 0, instead of a loudness target.
        # rms = -20
        ## The limiter's true-peak ceiling in dB, -20 to 0.
        # peak_ceiling = -2
        ## Seconds of room tone at the head and tail, 0 to 10 (0: none).
        # room_tone_head = 0.75
        # room_tone_tail = 2
        ## The longest pause kept at a chunk's edges, in seconds, 0.1 to 60.
        # max_pause = 2
        ## The fade at each join between chunks, in seconds, 0 to 0.5 (0: none).
        # join_fade = 0.005
        ## Rules every file must pass: no clipping; no silence longer than this many seconds
        ## (0 to 600; 0 removes the rule).
        # no_clipping = true
        # max_silence = 5
        ## What a delivery carries besides the audio and its sidecar: "transcript", "feed",
        ## "epub", "daisy". Default: the base's (["audio"] for the built-in profiles).
        # carries = ["audio", "transcript", "feed"]

        ## A destination, [destinations.NAME]: a folder, or S3-compatible object storage (AWS,
        ## MinIO, Ceph, SeaweedFS, R2, B2). Give its NAME to `submit --to` or to destination above.
        # [destinations.archive]
        ## s3://BUCKET/PREFIX, or a folder's full path. Required.
        # url = "s3://radio-archive/narrations"
        ## For object storage only: the server, default AWS's for the region.
        # endpoint = "https://s3.eu-central-1.amazonaws.com"
        ## Default: "us-east-1".
        # region = "eu-central-1"
        ## Bucket in the path rather than the host name: true for most self-hosted servers.
        ## Default: false.
        # path_style = false
        ## The key pair, in AWS's credentials format, when it is not in the environment
        ## (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY). The file must be yours and chmod 600.
        ## Default: AWS_SHARED_CREDENTIALS_FILE, else ~/.aws/credentials.
        # credentials_file = "~/.config/narrate/credentials"
        ## The section of that file. Default: AWS_PROFILE, else "default".
        # credentials_profile = "default"
        ## Podcast feeds, for folders and object storage alike (a profile that carries "feed"):
        ## where listeners fetch what url holds (default: links relative to the feed), and the
        ## feed's title ({publication} is replaced), cover image, language and author.
        # public_url = "https://cdn.example.org/narrations"
        # feed_title = "{publication}, read aloud"
        # feed_image = "https://cdn.example.org/cover.jpg"
        # feed_language = "en"
        # feed_author = "Talking News Leeds"

        ## A folder destination takes url and the feed settings only.
        # [destinations.share]
        # url = "/mnt/share/narrations"

        ## A reading service with accounts (`narrate accounts`).
        # [service]
        ## The address people reach the service at, the start of every invitation link that
        ## `narrate accounts add` prints. Default: http://127.0.0.1:8765 (this computer only).
        # address = "https://narrate.example.org"
        ## Whether a proof-listener hears each finished article (Ready for review) before
        ## listeners do; false publishes it when the volunteer sends it. Default: true.
        # review = false
        ## Several hosts sharing one service keep the catalog in PostgreSQL instead of the data
        ## folder's catalog.sqlite. The password is never in the address: it comes from
        ## NARRATE_CATALOG_PASSWORD, else from a file only you can read (chmod 600), else none
        ## (a server reached through its Unix socket may not ask for one).
        # catalog = "postgresql://narrate@db.example.org:5432/narrate"
        # catalog_password_file = "/etc/narrate/catalog-password"
        ## Where the hosts keep a copy of every take, so that none exists only on a host that
        ## can die: one of [destinations] below, an s3://BUCKET/PREFIX address, or a folder
        ## every host mounts. Each take is copied and checked within seconds of being kept.
        # recordings = "recordings"

        """
}
