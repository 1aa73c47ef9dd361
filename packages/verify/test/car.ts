/** Test helpers: a record built by core's builder, written as a CAR (the whole record held: tests only). */

import { CarWriter } from '@ipld/car';
import { type Block, buildProposalRecord, type RecordInput } from '@plenum/core/governance/record/index';

export async function blocksOf(input: RecordInput): Promise<Block[]> {
  const blocks: Block[] = [];
  for await (const b of buildProposalRecord(input)) blocks.push(b);
  return blocks;
}

/** the blocks as a CAR whose root is the last block (the builder yields the root last) */
export async function carOf(blocks: Block[]): Promise<Uint8Array> {
  const { writer, out } = CarWriter.create([blocks.at(-1)!.cid]);
  const chunks: Uint8Array[] = [];
  const reading = (async () => {
    for await (const c of out) chunks.push(c);
  })();
  for (const b of blocks) await writer.put(b);
  await writer.close();
  await reading;
  return new Uint8Array(Buffer.concat(chunks));
}
