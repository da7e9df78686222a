// narrate web studio: lossless compression of a take's pieces before they are uploaded, so that
// what was kept during an outage goes up faster than real time on a slow link.
//
// It writes the same bytes as narrate's PieceCodec.encode for the same samples
// (Sources/NarrationCore/Take/PieceCodec.swift, whose comment is the format): per channel and
// block of 4096 frames, FLAC's fixed predictor of order 0–4, a constant, or verbatim samples;
// residuals Rice-coded in partitions of 128 samples. The server decodes it and checks the
// piece's CRC-32 on the decoded samples.
"use strict";

const PIECE_BLOCK_FRAMES = 4096;
const PIECE_PARTITION_SAMPLES = 128;
const PIECE_LARGEST_RICE_PARAMETER = 20;

/**
 * Compresses interleaved signed 16-bit samples of `channels` channels (1 or 2).
 * @param {Int16Array} samples whole frames, channels interleaved
 * @param {number} channels 1 or 2
 * @returns {Uint8Array} the payload
 */
function encodePiece(samples, channels) {
  if ((channels !== 1 && channels !== 2) || samples.length % channels !== 0) {
    throw new RangeError("encodePiece takes whole frames of 1 or 2 channels");
  }
  const frames = samples.length / channels;
  // Verbatim sub-blocks are the largest the encoder writes: 3 + 16 n bits each.
  const blocks = Math.ceil(frames / PIECE_BLOCK_FRAMES);
  const out = new Uint8Array(Math.ceil((3 * channels * blocks + 16 * samples.length) / 8) + 8);
  const writer = { out, at: 0, pending: 0, pendingBits: 0 };
  const channel = new Int32Array(PIECE_BLOCK_FRAMES);
  const residuals = new Int32Array(PIECE_BLOCK_FRAMES);
  for (let start = 0; start < frames; start += PIECE_BLOCK_FRAMES) {
    const count = Math.min(PIECE_BLOCK_FRAMES, frames - start);
    for (let c = 0; c < channels; c++) {
      for (let i = 0; i < count; i++) channel[i] = samples[(start + i) * channels + c];
      pieceSubBlock(channel, count, residuals, writer);
    }
  }
  if (writer.pendingBits > 0) pieceWrite(writer, 0, 8 - writer.pendingBits);
  return out.slice(0, writer.at);
}

/** Writes the low `bits` (0…16) of `value`, most significant first. */
function pieceWrite(writer, value, bits) {
  writer.pending = (writer.pending << bits) | value;
  writer.pendingBits += bits;
  while (writer.pendingBits >= 8) {
    writer.pendingBits -= 8;
    writer.out[writer.at++] = (writer.pending >>> writer.pendingBits) & 0xff;
  }
  writer.pending &= (1 << writer.pendingBits) - 1;
}

function pieceSubBlock(samples, count, residuals, writer) {
  const first = samples[0];
  let constant = true;
  for (let i = 1; i < count && constant; i++) constant = samples[i] === first;
  if (constant) {
    pieceWrite(writer, 5, 3);
    pieceWrite(writer, first & 0xffff, 16);
    return;
  }
  // The residuals of order p are the p-th differences: each order is the previous one differenced.
  residuals.set(samples.subarray(0, count));
  let bestOrder = 0;
  let bestBits = Infinity;
  for (let order = 0; order <= Math.min(4, count); order++) {
    if (order > 0) for (let i = count - 1; i >= order; i--) residuals[i] -= residuals[i - 1];
    const bits = 3 + 16 * order + pieceCodedBits(residuals, order, count);
    if (bits < bestBits) { bestBits = bits; bestOrder = order; }
  }
  if (3 + 16 * count < bestBits) {
    pieceWrite(writer, 6, 3);
    for (let i = 0; i < count; i++) pieceWrite(writer, samples[i] & 0xffff, 16);
    return;
  }
  residuals.set(samples.subarray(0, count));
  for (let order = 0; order < bestOrder; order++) {
    for (let i = count - 1; i > order; i--) residuals[i] -= residuals[i - 1];
  }
  pieceWrite(writer, bestOrder, 3);
  for (let i = 0; i < bestOrder; i++) pieceWrite(writer, samples[i] & 0xffff, 16);
  for (let partition = 0; partition < count; partition += PIECE_PARTITION_SAMPLES) {
    const start = Math.max(partition, bestOrder);
    const end = Math.min(partition + PIECE_PARTITION_SAMPLES, count);
    if (start >= end) continue;
    const k = pieceRiceParameter(residuals, start, end);
    pieceWrite(writer, k, 5);
    const mask = (1 << k) - 1;
    for (let i = start; i < end; i++) {
      const z = (residuals[i] << 1) ^ (residuals[i] >> 31);
      let zeros = z >>> k;
      while (zeros >= 16) { pieceWrite(writer, 0, 16); zeros -= 16; }
      pieceWrite(writer, 1, zeros + 1);
      if (k > 16) { pieceWrite(writer, (z & mask) >>> 16, k - 16); pieceWrite(writer, z & 0xffff, 16); } else if (k > 0) pieceWrite(writer, z & mask, k);
    }
  }
}

/** The bits of every partition's parameter and residuals, for the residuals of `order`. */
function pieceCodedBits(residuals, order, count) {
  let total = 0;
  for (let partition = 0; partition < count; partition += PIECE_PARTITION_SAMPLES) {
    const start = Math.max(partition, order);
    const end = Math.min(partition + PIECE_PARTITION_SAMPLES, count);
    if (start >= end) continue;
    total += 5 + pieceRiceBits(residuals, start, end, pieceRiceParameter(residuals, start, end));
  }
  return total;
}

/** The largest k in 0…20 with m·2^k ≤ Σz, or k − 1 when that codes the partition in fewer bits. */
function pieceRiceParameter(residuals, start, end) {
  let sum = 0;
  for (let i = start; i < end; i++) sum += ((residuals[i] << 1) ^ (residuals[i] >> 31)) >>> 0;
  const count = end - start;
  let k = 0;
  while (k < PIECE_LARGEST_RICE_PARAMETER && count * 2 ** (k + 1) <= sum) k++;
  if (k > 0 && pieceRiceBits(residuals, start, end, k - 1) < pieceRiceBits(residuals, start, end, k)) k--;
  return k;
}

function pieceRiceBits(residuals, start, end, k) {
  let bits = (end - start) * (k + 1);
  for (let i = start; i < end; i++) bits += (((residuals[i] << 1) ^ (residuals[i] >> 31)) >>> 0) >>> k;
  return bits;
}
