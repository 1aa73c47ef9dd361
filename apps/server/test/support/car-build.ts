import { CarWriter } from '@ipld/car';
import type { CID } from 'multiformats/cid';

/** A CARv1 with these roots and blocks, written by @ipld/car (blocks as given: a test may tamper). */
export async function buildCar(roots: CID[], blocks: { cid: CID; bytes: Uint8Array }[]): Promise<Buffer> {
  const { writer, out } = CarWriter.create(roots);
  const chunks: Uint8Array[] = [];
  const collected = (async () => {
    for await (const c of out) chunks.push(c);
  })();
  for (const b of blocks) await writer.put(b);
  await writer.close();
  await collected;
  return Buffer.concat(chunks);
}

/** POST /ipfs/car with the CAR as the body; `query` e.g. `?visibility=private` */
export async function postCar(
  baseUrl: string,
  token: string,
  car: Uint8Array,
  type = 'application/vnd.ipld.car',
  query = '',
) {
  const res = await fetch(`${baseUrl}/ipfs/car${query}`, {
    method: 'POST',
    body: new Uint8Array(car),
    headers: { authorization: `Bearer ${token}`, 'content-type': type },
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, body };
}
