import { Readable } from 'node:stream';

/** a client that reads nothing for this long is cut off, so its export gives its slot back */
export const EXPORT_STALL_MS = 60_000;

/**
 * The response body: text pushed chunk by chunk by the export, with backpressure. `write` resolves once
 * the socket took what is buffered (Fastify pipes this stream into the response), so at most about one
 * chunk of rows is in memory; it rejects once the client went away (Fastify destroys the body then) or
 * read nothing for EXPORT_STALL_MS.
 */
export class ExportBody extends Readable {
  private wake: (() => void) | null = null;
  readonly gone = new AbortController();

  override _read() {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void) {
    this.gone.abort(err ?? new Error('the client went away'));
    this._read();
    callback(err);
  }

  async write(text: string | Uint8Array): Promise<void> {
    this.gone.signal.throwIfAborted();
    if (this.push(text)) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.wake = resolve;
      timer = setTimeout(
        () => this.destroy(new Error('the client read nothing for too long')),
        EXPORT_STALL_MS,
      );
    }).finally(() => clearTimeout(timer));
    this.gone.signal.throwIfAborted();
  }

  finish() {
    if (!this.gone.signal.aborted) this.push(null);
  }
}
