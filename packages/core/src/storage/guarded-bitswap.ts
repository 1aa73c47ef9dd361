import { withBitswap } from '@helia/bitswap';
import type { CID } from 'multiformats/cid';
import type { NodePrivacy } from './block-privacy';

type BitswapInit = NonNullable<Parameters<typeof withBitswap>[1]>;
interface Mixin {
  name: string;
  start?(helia: unknown): Promise<void> | void;
  stop?(helia: unknown): Promise<void> | void;
}
interface MixinHost {
  addMixin(mixin: Mixin): void;
  blockstore: unknown;
}

const notFound = () => Object.assign(new Error('Not Found'), { name: 'NotFoundError' });

/**
 * FENCED INTERNAL (docs/internals.md, "Guarded bitswap").
 *
 * Bitswap (@helia/bitswap 4) answers peers' wants and pushes newly stored blocks to peers that want them
 * from one place: the `blockstore` of the Helia it is started with (its ledger calls `has`, then `get`).
 * `withBitswap` only exposes a mixin, so this takes that mixin and starts it with a view of Helia whose
 * blockstore says "not here" for blocks the privacy guard refuses (docs/storage.md, "Not given to other
 * peers"). Our own reads and pins keep Helia's real blockstore. Canary: the peer test in
 * apps/server/test/storage-private.test.ts (a private file does not reach a second Helia peer, a public
 * one does).
 */
export function withGuardedBitswap<H extends MixinHost>(
  helia: H,
  init: BitswapInit,
  privacy: NodePrivacy,
): H {
  const captured: Mixin[] = [];
  withBitswap({ addMixin: (m: Mixin) => captured.push(m) } as never, init);
  const [mixin] = captured;
  if (!mixin?.start) throw new Error('@helia/bitswap changed: withBitswap added no mixin to start');
  helia.addMixin({
    name: mixin.name,
    start: (started) => {
      const host = started as MixinHost;
      const blockstore = guardedStore(host.blockstore as Record<string, unknown>, privacy);
      const view = new Proxy(host, {
        get: (target, prop) => (prop === 'blockstore' ? blockstore : Reflect.get(target, prop, target)),
      });
      return mixin.start!(view);
    },
    ...(mixin.stop ? { stop: mixin.stop } : {}),
  });
  return helia;
}

function guardedStore(store: Record<string, unknown>, privacy: NodePrivacy) {
  return new Proxy(store, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop === 'has')
        return async (cid: CID, options?: unknown) =>
          privacy.refuses(cid)
            ? false
            : (value as (c: CID, o?: unknown) => Promise<boolean>).call(target, cid, options);
      if (prop === 'get')
        return (cid: CID, options?: unknown) => {
          if (privacy.refuses(cid))
            return (async function* () {
              yield* [];
              throw notFound();
            })();
          return (value as (c: CID, o?: unknown) => unknown).call(target, cid, options);
        };
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
