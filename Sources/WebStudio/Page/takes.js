// narrate web studio: takes from this computer's microphone, kept in the browser until the
// server has them.
//
// Every take is written to the browser's own storage as it is captured, in pieces of 50 ms,
// and sent to the server numbered by frame (Protocol.md, "Takes a page uploads"). The
// server says how much of it is on its disk for certain (`state.uploads[].durable`), which the
// page shows; its pieces are deleted here only once the take is committed ("done"), because a
// reading service may run on several servers: when the one receiving the take dies, the take
// goes on through another, which has none of it and asks for it from its start. After any
// break (a dropped connection, a sleeping laptop, a reload, a crashed tab, the server
// restarting) the page asks the server where to go on from ("resume") and sends the rest.
// Recording never waits for the network: a take's length is what the microphone gave.
//
// Storage is IndexedDB: every engine volunteers use (Chromium, WebKit, Firefox) offers it to a
// page's own script with no worker, where the Origin Private File System's synchronous files
// need one. Where a browser refuses IndexedDB (some private windows), takes are kept in the
// page's memory instead: they survive a dropped connection but not a reload, and the page
// says so.
"use strict";

const TAKE_PIECE_SECONDS = 0.05;      // a piece stored in the browser: each worklet batch, so a reload loses none
const UPLOAD_BUFFER_LIMIT = 256 * 1024; // bytes queued on the socket before the page waits
const ASK_AGAIN_MS = 1500;            // a take the server did not answer about is asked again

/** CRC-32 (IEEE, as zlib's): the checksum a piece carries (TakePiece.swift computes the same). */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[i] = c >>> 0;
  }
  return table;
})();

function crc32(bytes) {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = CRC_TABLE[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** A new take's name: 128 random bits as 32 hexadecimal digits. */
function newTakeKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The binary message of one piece (TakePiece.swift): "NRP2", the key's 16 bytes, the first frame,
 * the frames, the CRC-32 of the samples, and the samples compressed without loss by
 * piece-codec.js (about 0.4 to 0.55 of their bytes on speech); "NRP1" with the samples as they
 * are where the encoder is missing.
 */
function pieceMessage(key, firstFrame, samples, channels) {
  const compressed = typeof encodePiece === "function";
  const payload = compressed ? encodePiece(new Int16Array(samples.buffer.slice(samples.byteOffset, samples.byteOffset + samples.length)), channels) : samples;
  const header = compressed ? 32 : 28;
  const message = new Uint8Array(header + payload.length);
  message.set([0x4e, 0x52, 0x50, compressed ? 0x32 : 0x31], 0);
  for (let i = 0; i < 16; i++) message[4 + i] = parseInt(key.substr(2 * i, 2), 16);
  const view = new DataView(message.buffer);
  view.setUint32(20, firstFrame, true);
  if (compressed) view.setUint32(24, samples.length / (2 * channels), true);
  view.setUint32(compressed ? 28 : 24, crc32(samples), true);
  message.set(payload, header);
  return message.buffer;
}

// ---------------------------------------------------------------------------------------------
// Storage: IndexedDB, or the page's memory where a browser refuses it

const takeStore = {
  db: null,
  memory: null, // {takes: Map, pieces: Map take -> [piece]} when IndexedDB is refused

  async open() {
    try {
      this.db = await new Promise((resolve, reject) => {
        const request = indexedDB.open("narrate-takes", 1);
        request.onupgradeneeded = () => {
          request.result.createObjectStore("takes", { keyPath: "take" });
          request.result.createObjectStore("pieces", { keyPath: ["take", "offset"] });
        };
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
        request.onblocked = () => reject(new Error("blocked"));
      });
    } catch {
      this.memory = { takes: new Map(), pieces: new Map() };
    }
    return !this.memory;
  },

  /** Runs one transaction over `names`; resolves when it is committed. */
  transaction(names, body) {
    return new Promise((resolve, reject) => {
      let tx;
      try { tx = this.db.transaction(names, "readwrite", { durability: "strict" }); } catch { tx = this.db.transaction(names, "readwrite"); }
      const result = body(tx);
      tx.oncomplete = () => resolve(result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  },

  async takes() {
    if (this.memory) return [...this.memory.takes.values()].map((t) => Object.assign({}, t));
    return new Promise((resolve, reject) => {
      const request = this.db.transaction("takes").objectStore("takes").getAll();
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  },

  /** Stores takes' records (their frames so far) and pieces together, in one transaction. */
  async putBatch(records, pieces) {
    if (this.memory) {
      for (const record of records) this.memory.takes.set(record.take, Object.assign({}, record));
      for (const piece of pieces) {
        const list = this.memory.pieces.get(piece.take) || [];
        list.push(piece);
        this.memory.pieces.set(piece.take, list);
      }
      return;
    }
    await this.transaction(["takes", "pieces"], (tx) => {
      for (const record of records) tx.objectStore("takes").put(record);
      for (const piece of pieces) tx.objectStore("pieces").put(piece);
    });
  },

  /** The take's pieces that end after `fromFrame`, in order. A take's pieces stay until it is
   * committed, so only those from the one holding `fromFrame` on are read. */
  async pieces(take, fromFrame) {
    let list;
    if (this.memory) {
      list = (this.memory.pieces.get(take) || []).slice();
    } else {
      list = await new Promise((resolve, reject) => {
        const store = this.db.transaction("pieces").objectStore("pieces");
        // The last piece beginning at or before `fromFrame` (it may hold it), then all after it.
        const holding = store.openCursor(IDBKeyRange.bound([take, 0], [take, fromFrame]), "prev");
        holding.onsuccess = () => {
          const first = holding.result ? holding.result.value.offset : fromFrame;
          const request = store.getAll(IDBKeyRange.bound([take, first], [take, Number.MAX_SAFE_INTEGER]));
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        };
        holding.onerror = () => reject(holding.error);
      });
    }
    return list.filter((p) => p.offset + p.frames > fromFrame).sort((a, b) => a.offset - b.offset);
  },

  /** Forgets a take the server has whole. */
  async remove(take) {
    if (this.memory) {
      this.memory.takes.delete(take);
      this.memory.pieces.delete(take);
      return;
    }
    await this.transaction(["takes", "pieces"], (tx) => {
      tx.objectStore("takes").delete(take);
      tx.objectStore("pieces").delete(IDBKeyRange.bound([take, 0], [take, Number.MAX_SAFE_INTEGER]));
    });
  },
};

// ---------------------------------------------------------------------------------------------
// The takes of this page's article, and their upload

/** What a take captured since its last stored piece, as one piece (its batches joined). */
function pendingPiece(take) {
  const pending = take.pending;
  const samples = new Uint8Array(pending.bytes);
  let at = 0;
  for (const part of pending.parts) { samples.set(part, at); at += part.length; }
  return { take: take.take, offset: pending.offset, frames: samples.length / take.frameBytes, samples };
}

const uploads = {
  ready: false,
  persistent: true,   // false: kept in memory only (the status line says so)
  room: null,         // {usage, quota} of the browser's storage for this site, when the engine tells
  article: null,      // the article whose takes this page sends
  takes: new Map(),   // take -> {take, article, number, frames, ended, durable, startedAt, server, sentTo, askedAt, stopSent, pending}
  capturing: null,    // the take being captured now; its `pending` ({offset, parts, bytes}) is what is not yet stored
  writing: Promise.resolve(), // stores run one after another, in order
  batch: null,        // {records, pieces, written}: what the next write stores (see store)
  committing: null,   // the batch being written now
  pumping: false,
  endedLengths: [],   // the frames of each take this page stopped, newest last (what the microphone gave)
  hooks: { socket: () => null, send: () => false, render: () => {} },

  /** Opens the store and picks up the takes of `article` a closed or crashed page left. */
  async start(article, hooks) {
    this.hooks = hooks;
    this.persistent = await takeStore.open();
    await this.keepWhatTheLastPageHanded();
    this.ready = true;
    // A take is kept here until the server commits it (about 5 MB a minute): how full the
    // browser's storage is is looked at now and every 30 s, for the status line to warn.
    await this.checkRoom();
    setInterval(() => this.checkRoom(), 30000);
    if (article) await this.useArticle(article);
    // A reload or a closed tab may come between the microphone and the store's commit: what
    // is not yet committed is put in this tab's sessionStorage, which is written at once and
    // read by the page that loads next (a reload). A crashed tab loses at most that moment.
    window.addEventListener("pagehide", () => this.handOver());
  },

  /** Asks the engine how much of its storage for this site is used (nothing where it cannot say). */
  async checkRoom() {
    try {
      const estimate = navigator.storage && navigator.storage.estimate ? await navigator.storage.estimate() : null;
      this.room = estimate && estimate.quota > 0 ? { usage: estimate.usage || 0, quota: estimate.quota } : null;
    } catch { this.room = null; }
    this.hooks.render();
  },

  /** Whether the browser's storage for takes is at least 80 % full. */
  nearlyFull() {
    return !!this.room && this.room.usage >= 0.8 * this.room.quota;
  },

  /** Everything captured and not yet known to be committed to the store, as [record, pieces]. */
  notCommitted() {
    const records = new Map();
    const pieces = [];
    for (const batch of [this.committing, this.batch]) {
      if (!batch) continue;
      for (const record of batch.records.values()) records.set(record.take, record);
      pieces.push(...batch.pieces);
    }
    const take = this.capturing;
    if (take && take.pending && take.pending.bytes > 0) pieces.push(pendingPiece(take));
    if (take) records.set(take.take, {
      take: take.take, article: take.article, number: take.number, frames: take.frames, ended: true, durable: take.durable,
      startedAt: take.startedAt, sampleRate: take.sampleRate, channels: take.channels,
    });
    return { records: [...records.values()], pieces };
  },

  /** The page goes: what the store has not committed is written to sessionStorage, at once. */
  handOver() {
    if (!this.ready || takeStore.memory) return;
    const { records, pieces } = this.notCommitted();
    if (pieces.length === 0 && records.length === 0) return;
    const encoded = pieces.map((piece) => {
      let text = "";
      for (let i = 0; i < piece.samples.length; i += 0x8000) text += String.fromCharCode.apply(null, piece.samples.subarray(i, i + 0x8000));
      return { take: piece.take, offset: piece.offset, frames: piece.frames, samples: btoa(text) };
    });
    try {
      sessionStorage.setItem("narrate-takes-not-committed", JSON.stringify({ records, pieces: encoded }));
    } catch { /* full or refused: the store's commit may still finish */ }
  },

  /** On load: what the page before handed over (a reload) goes into the store first. */
  async keepWhatTheLastPageHanded() {
    let handed = null;
    try {
      handed = JSON.parse(sessionStorage.getItem("narrate-takes-not-committed") || "null");
    } catch { handed = null; }
    if (!handed || !Array.isArray(handed.records) || !Array.isArray(handed.pieces)) return;
    const pieces = handed.pieces.map((piece) => {
      const text = atob(piece.samples);
      const samples = new Uint8Array(text.length);
      for (let i = 0; i < text.length; i++) samples[i] = text.charCodeAt(i);
      return { take: piece.take, offset: piece.offset, frames: piece.frames, samples };
    });
    // A record says how far its take's stored pieces go: never less than the store has already.
    const stored = new Map((await takeStore.takes()).map((record) => [record.take, record]));
    const records = handed.records.map((record) => {
      const before = stored.get(record.take);
      const ends = pieces.filter((p) => p.take === record.take).map((p) => p.offset + p.frames);
      const frames = Math.max(before ? before.frames : 0, ...ends, 0);
      return Object.assign({}, before || record, { frames, ended: true });
    });
    try {
      await takeStore.putBatch(records, pieces);
      sessionStorage.removeItem("narrate-takes-not-committed");
    } catch { /* kept in sessionStorage for the next load */ }
  },

  async useArticle(article) {
    if (!this.ready || this.article === article) return;
    this.article = article;
    for (const record of await takeStore.takes()) {
      if (record.article !== article || this.takes.has(record.take)) continue;
      // A take whose page ended while it recorded ends where its last stored piece ends.
      record.ended = true;
      this.takes.set(record.take, Object.assign(record, { server: "unknown", sentTo: 0, askedAt: 0, stopSent: false }));
    }
    this.pump();
  },

  /** The takes not yet wholly on the server, oldest first. */
  unfinished() {
    return [...this.takes.values()].filter((t) => t.server !== "done").sort((a, b) => a.startedAt - b.startedAt);
  },

  /** Whether a take older than the one capturing has not reached the server yet. */
  hasBacklog() {
    return this.unfinished().some((t) => t !== this.capturing);
  },

  /** Starts keeping a new take; `number` is what the page calls it ("Take 4"). */
  begin(format, number) {
    const record = {
      take: newTakeKey(), article: this.article, number, frames: 0, ended: false, durable: 0, startedAt: Date.now(),
      sampleRate: format.sampleRate, channels: format.channels,
    };
    // What was captured and not yet stored belongs to its take: the take before may still be
    // storing its last piece when this one starts.
    const take = Object.assign({}, record, {
      server: "unknown", sentTo: 0, askedAt: 0, stopSent: false, frameBytes: 2 * format.channels, pending: { offset: 0, parts: [], bytes: 0 },
    });
    this.takes.set(take.take, take);
    this.capturing = take;
    this.store(take, null);
    return take;
  },

  /** What the worklet captured: kept, sent at once when the server is up to date. */
  capture(buffer) {
    const take = this.capturing;
    if (!take) return;
    const bytes = new Uint8Array(buffer);
    const offset = take.frames;
    const frames = bytes.length / take.frameBytes;
    take.frames += frames;
    take.pending.parts.push(bytes);
    take.pending.bytes += bytes.length;
    if (take.pending.bytes >= TAKE_PIECE_SECONDS * take.sampleRate * take.frameBytes) this.flush(take);
    const socket = this.hooks.socket();
    if (take.server === "receiving" && take.sentTo === offset && socket && socket.bufferedAmount < UPLOAD_BUFFER_LIMIT) {
      socket.send(pieceMessage(take.take, offset, bytes, take.channels));
      take.sentTo = offset + frames;
    } else {
      this.pump();
    }
  },

  /** Stores what was captured since the last piece. */
  flush(take) {
    if (!take.pending || take.pending.bytes === 0) return this.writing;
    const piece = pendingPiece(take);
    take.pending = { offset: piece.offset + piece.frames, parts: [], bytes: 0 };
    return this.store(take, piece);
  },

  /**
   * Stores a take's record and, when given, a piece of it. What is stored while a write is under
   * way goes into the next write, all of it in one transaction: a slow disk (each commit is made
   * durable) makes fewer, bigger writes, never a queue that falls further behind the microphone.
   * Resolves when what was given is stored.
   */
  store(take, piece) {
    const record = {
      take: take.take, article: take.article, number: take.number, frames: piece ? piece.offset + piece.frames : take.frames,
      ended: take.ended, durable: take.durable, startedAt: take.startedAt, sampleRate: take.sampleRate, channels: take.channels,
    };
    if (!this.batch) {
      const batch = { records: new Map(), pieces: [] };
      this.batch = batch;
      this.writing = this.writing.then(async () => {
        if (this.batch === batch) this.batch = null; // what comes now goes into the next write
        this.committing = batch;
        await takeStore.putBatch([...batch.records.values()], batch.pieces);
        if (this.committing === batch) this.committing = null;
      }).catch((error) => {
        this.storeProblem = `The browser could not keep the take on this computer (${error && error.name}): it still goes to the server as it is recorded.`;
        this.hooks.render();
      });
      batch.written = this.writing;
    }
    this.batch.records.set(record.take, record);
    if (piece) this.batch.pieces.push(piece);
    return this.batch.written;
  },

  /** The take stopped: its last piece is stored; the server is told its length. */
  async end() {
    const take = this.capturing;
    if (!take) return null;
    this.capturing = null;
    take.ended = true;
    this.endedLengths = this.endedLengths.slice(-9).concat([take.frames]);
    await this.flush(take);
    await this.store(take, null);
    take.pending = null;
    if (take.server === "receiving" && this.hooks.send({ type: "stop", take: take.take, frames: take.frames })) take.stopSent = true;
    this.pump();
    return take;
  },

  /** Drops a take the server would not start (it said why): nothing of it is kept. */
  async discard(take) {
    if (this.capturing === take) this.capturing = null;
    take.pending = null;
    this.takes.delete(take.take);
    await this.writing;
    await takeStore.remove(take.take);
  },

  /** The server's answer about one take (Protocol.md: {"type":"upload"}). */
  answer(message) {
    const take = this.takes.get(message.take);
    if (!take) return;
    take.problem = message.problem || null;
    if (message.state === "receiving") {
      take.server = "receiving";
      take.sentTo = Math.min(message.received || 0, take.frames);
      if (take.ended && !take.stopSent && this.hooks.send({ type: "stop", take: take.take, frames: take.frames })) take.stopSent = true;
    } else if (message.state === "done") {
      take.server = "done";
      if (this.capturing === take) this.hooks.serverEndedTake();
      this.takes.delete(take.take);
      this.writing = this.writing.then(() => takeStore.remove(take.take)).catch(() => {});
    } else if (message.state === "waiting") {
      if (take.server === "starting") return this.hooks.serverRefusedStart(take, message.problem);
      take.server = "waiting";
      take.askedAt = Date.now();
    } else if (message.state === "refused") {
      if (take.server === "starting") return this.hooks.serverRefusedStart(take, message.problem, true);
      take.server = "refused";
    }
    this.pump();
  },

  /** The studio's state: how much of each take the server holds on disk for certain (the
   * pieces stay here until the take is committed: another server may need them all). */
  observe(state) {
    const onServer = new Map((state.uploads || []).map((u) => [u.take, u]));
    for (const take of this.takes.values()) {
      const upload = onServer.get(take.take);
      if (upload) {
        take.onServer = upload.received;
        take.durable = Math.min(upload.durable, take.frames);
      } else if (take.ended && take.durable >= take.frames && take.server !== "done") {
        // Every frame was on the server's disk and the take is no longer listed: committed.
        take.server = "done";
        this.takes.delete(take.take);
        this.writing = this.writing.then(() => takeStore.remove(take.take)).catch(() => {});
      } else if (take.server === "receiving" && take.ended && take.stopSent) {
        take.server = "unknown"; // committed, most likely: asking makes sure
        take.askedAt = 0;
      }
    }
    this.pump();
  },

  /** The connection dropped: every take is asked about again when it is back. */
  disconnected() {
    for (const take of this.takes.values()) if (take.server !== "done" && take.server !== "refused") { take.server = "unknown"; take.askedAt = 0; take.stopSent = false; }
  },

  /** Sends what the server lacks of the oldest take not yet there (one take at a time). */
  async pump() {
    if (this.pumping || !this.ready) return;
    const socket = this.hooks.socket();
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    this.pumping = true;
    try {
      const take = this.unfinished().find((t) => t.server !== "refused");
      if (!take) return;
      if (take.server === "unknown" || take.server === "waiting") {
        if (Date.now() - take.askedAt < ASK_AGAIN_MS) return;
        take.askedAt = Date.now();
        this.hooks.send({ type: "resume", take: take.take, frames: take.ended ? take.frames : undefined });
        return;
      }
      if (take.server !== "receiving") return;
      await this.writing; // what the server lacks is read back from the store
      const pieces = await takeStore.pieces(take.take, take.sentTo);
      for (const piece of pieces) {
        if (take.server !== "receiving" || socket.readyState !== WebSocket.OPEN) return;
        if (piece.offset > take.sentTo) break; // not stored yet: sent live or next time
        while (socket.bufferedAmount >= UPLOAD_BUFFER_LIMIT) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          if (socket.readyState !== WebSocket.OPEN) return;
        }
        socket.send(pieceMessage(take.take, piece.offset, piece.samples, take.channels));
        take.sentTo = Math.max(take.sentTo, piece.offset + piece.frames);
      }
      // The captured part not yet stored.
      if (take === this.capturing && take.pending && take.pending.bytes > 0 && take.pending.offset <= take.sentTo) {
        this.flush(take);
      }
      if (take.ended && take.sentTo >= take.frames && !take.stopSent && this.hooks.send({ type: "stop", take: take.take, frames: take.frames })) {
        take.stopSent = true;
      }
    } finally {
      this.pumping = false;
    }
  },

  /** Seconds captured but not yet on the server's disk, over every take of the article. */
  waitingSeconds() {
    let seconds = 0;
    for (const take of this.takes.values()) if (take.server !== "done") seconds += Math.max(0, take.frames - take.durable) / take.sampleRate;
    return seconds;
  },
};

// Every 250 ms the upload is nudged on: a take the server did not answer about is asked again,
// a backlog goes on after the socket drained.
setInterval(() => uploads.pump(), 250);
