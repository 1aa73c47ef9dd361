import * as dagCbor from '@ipld/dag-cbor';
import * as json from 'multiformats/codecs/json';

/**
 * Codecs the embedded node knows beyond dag-pb and raw (Helia's light node has only those two): what a
 * CAR import may bring (docs/storage.md, "CAR import").
 */
export const CAR_CODECS = [dagCbor, json];
