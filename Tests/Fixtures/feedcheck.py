"""Reads a podcast feed as real clients do and prints what they found, as JSON.

usage: feedcheck.py FEED_URL CHAPTERS_SCHEMA

- feedparser (what most feed readers use) parses the feed; each item's enclosure, resolved
  against the feed's address as a client does, is downloaded and hashed;
- podcastparser (gPodder's) parses it too; it resolves enclosure addresses itself;
- each podcast:chapters file is downloaded and validated against the Podcasting 2.0 JSON
  chapters format (jsonschema), its start times checked to ascend;
- each podcast:transcript is downloaded and its first line and cue times read.
Runs under Debian's python3 (python3-feedparser, python3-podcastparser, python3-jsonschema).
"""
import hashlib
import json
import re
import sys
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ElementTree

import feedparser
import jsonschema
import podcastparser

PODCAST = "{https://podcastindex.org/namespace/1.0}"


def fetch(url):
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.read(), answer.headers.get("Content-Type", "")


def cue_times(text):
    """Start and end of each cue in seconds: WebVTT 00:00:01.000, SubRip 00:00:01,000."""
    times = []
    for start, end in re.findall(r"(\d\d:\d\d:\d\d[.,]\d\d\d) --> (\d\d:\d\d:\d\d[.,]\d\d\d)", text):
        def seconds(value):
            hours, minutes, rest = value.replace(",", ".").split(":")
            return round(int(hours) * 3600 + int(minutes) * 60 + float(rest), 3)
        times.append([seconds(start), seconds(end)])
    return times


def main():
    feed_url, schema_path = sys.argv[1], sys.argv[2]
    schema = json.load(open(schema_path, encoding="utf-8"))
    raw, feed_type = fetch(feed_url)

    parsed = feedparser.parse(raw, response_headers={"content-location": feed_url, "content-type": feed_type or "application/xml"})
    result = {
        "feed_bytes": len(raw),
        "feed_type": feed_type,
        "feedparser": {
            "bozo": bool(parsed.bozo),
            "bozo_exception": str(parsed.get("bozo_exception", "")),
            "title": parsed.feed.get("title"),
            "language": parsed.feed.get("language"),
            "author": parsed.feed.get("author"),
            "items": [],
        },
    }
    for entry in parsed.entries:
        enclosure = entry.enclosures[0]
        url = urllib.parse.urljoin(feed_url, enclosure.href)
        body, content_type = fetch(url)
        result["feedparser"]["items"].append({
            "guid": entry.get("id"),
            "title": entry.get("title"),
            "description": entry.get("summary"),
            "published": entry.get("published"),
            "author": entry.get("author"),
            "duration": entry.get("itunes_duration"),
            "enclosure": {"url": url, "length": int(enclosure.get("length", -1)), "type": enclosure.get("type"),
                          "bytes": len(body), "sha256": hashlib.sha256(body).hexdigest()},
        })

    episodes = podcastparser.parse(feed_url, urllib.request.urlopen(feed_url, timeout=30))
    result["podcastparser"] = {
        "title": episodes.get("title"),
        "episodes": [{
            "guid": episode.get("guid"),
            "title": episode.get("title"),
            "total_time": episode.get("total_time"),
            "enclosures": [{"url": e["url"], "file_size": e["file_size"], "mime_type": e["mime_type"],
                            "sha256": hashlib.sha256(fetch(e["url"])[0]).hexdigest()} for e in episode.get("enclosures", [])],
        } for episode in episodes.get("episodes", [])],
    }

    # The Podcasting 2.0 tags, which the two parsers leave out, read from the XML itself.
    root = ElementTree.fromstring(raw)
    podcast_items = {}
    for item in root.iter("item"):
        guid = item.findtext("guid")
        entry = {"chapters": None, "transcripts": []}
        chapters = item.find(PODCAST + "chapters")
        if chapters is not None:
            url = urllib.parse.urljoin(feed_url, chapters.get("url"))
            body, content_type = fetch(url)
            document = json.loads(body)
            errors = sorted(error.message for error in jsonschema.Draft7Validator(schema).iter_errors(document))
            starts = [chapter["startTime"] for chapter in document.get("chapters", [])]
            entry["chapters"] = {"url": url, "type": chapters.get("type"), "errors": errors,
                                 "ascending": starts == sorted(starts), "document": document}
        for transcript in item.findall(PODCAST + "transcript"):
            url = urllib.parse.urljoin(feed_url, transcript.get("url"))
            text = fetch(url)[0].decode("utf-8")
            entry["transcripts"].append({"url": url, "type": transcript.get("type"), "language": transcript.get("language"),
                                         "first_line": text.split("\n", 1)[0], "cues": cue_times(text), "text": text})
        person = item.find(PODCAST + "person")
        entry["person"] = None if person is None else {"role": person.get("role"), "name": person.text}
        podcast_items[guid] = entry
    result["podcast"] = podcast_items
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
