import type { FsBlockstore } from 'blockstore-fs';
import type { CID } from 'multiformats/cid';
import { type BlockGuard, blockKey } from './block-guard';

type Opts = { signal?: AbortSignal };
type InputPair = { cid: CID; bytes: Parameters<FsBlockstore['put']>[1] };
type Pair = { cid: CID; bytes: ReturnType<FsBlockstore['get']> };

/**
 * The embedded node's blockstore as Helia sees it: blockstore-fs, with every call touching its block in
 * the GC guard first (block-guard.ts) and new bytes counted for the GC watermark. Helia checks `has`
 * before it puts, so an import that finds a block already here touches it too.
 */
export class GuardedBlockstore {
  constructor(
    private readonly inner: FsBlockstore,
    private readonly guard: BlockGuard,
    private readonly onWrite: (bytes: number) => void,
  ) {}

  private async enter(cid: CID) {
    await this.guard.touch(blockKey(cid))?.catch(() => {});
  }

  async put(cid: CID, bytes: InputPair['bytes'], options?: Opts): Promise<CID> {
    await this.enter(cid);
    const out = await this.inner.put(cid, bytes, options);
    if (bytes instanceof Uint8Array) this.onWrite(bytes.length);
    return out;
  }

  async *putMany(source: Iterable<InputPair> | AsyncIterable<InputPair>, options?: Opts) {
    for await (const { cid, bytes } of source) yield await this.put(cid, bytes, options);
  }

  async *get(cid: CID, options?: Opts): AsyncGenerator<Uint8Array> {
    await this.enter(cid);
    yield* this.inner.get(cid, options);
  }

  async *getMany(source: Iterable<CID> | AsyncIterable<CID>, options?: Opts): AsyncGenerator<Pair> {
    for await (const cid of source) {
      await this.enter(cid);
      yield { cid, bytes: this.inner.get(cid, options) };
    }
  }

  async has(cid: CID, options?: Opts): Promise<boolean> {
    await this.enter(cid);
    return this.inner.has(cid, options);
  }

  delete(cid: CID, options?: Opts): Promise<void> {
    return this.inner.delete(cid, options);
  }

  deleteMany(source: Iterable<CID> | AsyncIterable<CID>, options?: Opts) {
    return this.inner.deleteMany(source, options);
  }

  getAll(options?: Opts) {
    return this.inner.getAll(options);
  }
}
