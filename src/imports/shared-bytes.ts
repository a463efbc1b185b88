/**
 * The bytes of an upload gathered as they arrive into memory shared with the parse thread (three
 * hostile uploads at once must not hold other requests up): each chunk is copied in on the turn it arrives, so the
 * upload's end costs no `Buffer.concat` of megabytes, and the parse thread gets the same memory, never a copy
 * (a Uint8Array over a SharedArrayBuffer is shared by postMessage, not cloned: src/imports/parse-pool.ts).
 *
 * `new SharedBytes(expected)`: room for `expected` bytes at first (e.g. the request's Content-Length, bounded by the
 * caller), growing by doubling when more come; `push(chunk)` appends; `bytes()` → a Buffer over the bytes pushed.
 */
export class SharedBytes {
  private memory: SharedArrayBuffer;
  private view: Uint8Array;
  private length = 0;

  constructor(expected: number) {
    this.memory = new SharedArrayBuffer(Math.max(1024, Math.floor(expected)));
    this.view = new Uint8Array(this.memory);
  }

  /** Appends `chunk` (copied), growing the memory when it is full. */
  push(chunk: Uint8Array): void {
    if (this.length + chunk.length > this.view.length) {
      const grown = new SharedArrayBuffer(Math.max(this.view.length * 2, this.length + chunk.length));
      const view = new Uint8Array(grown);
      view.set(this.view.subarray(0, this.length));
      this.memory = grown;
      this.view = view;
    }
    this.view.set(chunk, this.length);
    this.length += chunk.length;
  }

  /** The bytes pushed so far, as a Buffer over the shared memory (no copy). */
  bytes(): Buffer {
    return Buffer.from(this.memory, 0, this.length);
  }
}
