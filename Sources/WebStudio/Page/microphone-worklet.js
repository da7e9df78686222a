// narrate web studio: the browser microphone's audio worklet.
//
// Runs on the browser's audio thread. While a take runs (between "start" and "stop" from the
// page) it turns the microphone's Float32 samples into little-endian signed 16-bit PCM,
// interleaves the channels, and posts one ArrayBuffer to the page about every 50 ms. The page
// sends each buffer to the studio as a binary WebSocket frame.
//
// Messages from the page:  {type: "start"}  begin a take with an empty batch
//                          {type: "stop"}   post the partial batch, then {type: "stopped"}

const BATCH_SECONDS = 0.05; // well under Protocol.md's limit of 100 ms per message

class MicrophoneProcessor extends AudioWorkletProcessor {
  constructor(options) {
    super();
    this.channels = Math.max(1, options.processorOptions.channels | 0);
    // sampleRate is a global of the audio worklet scope: the AudioContext's rate.
    this.batchFrames = Math.max(128, Math.round(sampleRate * BATCH_SECONDS));
    this.active = false;
    this.begin();
    this.port.onmessage = (event) => {
      if (event.data.type === "start") {
        this.begin();
        this.active = true;
      } else if (event.data.type === "stop") {
        if (this.active) this.post();
        this.active = false;
        this.port.postMessage({ type: "stopped" });
      }
    };
  }

  /** Starts an empty batch. */
  begin() {
    this.batch = new DataView(new ArrayBuffer(this.batchFrames * this.channels * 2));
    this.frames = 0;
  }

  /** Posts the frames collected so far (the whole buffer, or a copy of its filled part). */
  post() {
    if (this.frames === 0) return;
    const bytes = this.frames * this.channels * 2;
    const buffer = bytes === this.batch.byteLength ? this.batch.buffer : this.batch.buffer.slice(0, bytes);
    this.port.postMessage(buffer, [buffer]);
    this.begin();
  }

  process(inputs) {
    if (!this.active) return true;
    const input = inputs[0] || [];
    // A quantum is 128 frames; with no input connected (yet) the take gets silence.
    const length = input.length > 0 ? input[0].length : 128;
    for (let i = 0; i < length; i++) {
      for (let c = 0; c < this.channels; c++) {
        // A mono microphone feeding a stereo format: its one channel goes to both.
        const source = input.length > 0 ? input[Math.min(c, input.length - 1)] : null;
        let value = source ? source[i] : 0;
        value = value > 1 ? 1 : value < -1 ? -1 : value || 0; // clamp (and NaN to 0)
        const sample = value < 0 ? Math.round(value * 32768) : Math.round(value * 32767);
        this.batch.setInt16((this.frames * this.channels + c) * 2, sample, true); // little-endian
      }
      this.frames += 1;
      if (this.frames === this.batchFrames) this.post();
    }
    return true;
  }
}

registerProcessor("narrate-microphone", MicrophoneProcessor);
