/**
 * npm run verify -- <file.car | cid | url> [--gateway URL] [--key HEX] [--receipt FILE | --receipt LEAF --proof FILE]
 * Prints a verdict and exits 0 when the record verifies, 1 when any check fails, 2 on a usage error
 * (docs/governance.md, "The verifier").
 */

import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CID } from '@plenum/core/governance/record/index';
import { type VerifyOptions, verifyRecord } from './verify';

const USAGE =
  'usage: npm run verify -- <file.car | cid | url> [--gateway URL] [--key HEX] [--receipt FILE | --receipt LEAF --proof FILE]\n' +
  '  --receipt FILE: the JSON of GET /votes/{voteId}/receipt ({ leaf, proof, ... })';

async function main(argv: string[]): Promise<number> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse(argv);
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const [target] = args.positionals;
  if (!target || args.positionals.length > 1 || (args.values.proof && !args.values.receipt)) {
    console.error(USAGE);
    return 2;
  }
  const options: VerifyOptions = {};
  if (args.values.key) options.key = new Uint8Array(Buffer.from(args.values.key.replace(/^0x/, ''), 'hex'));
  if (args.values.receipt) {
    try {
      options.receipt = args.values.proof
        ? { leaf: args.values.receipt, proof: (await readJson(args.values.proof)) as never }
        : receiptOf(await readJson(args.values.receipt));
    } catch (err) {
      console.error(`the receipt could not be read: ${(err as Error).message}\n${USAGE}`);
      return 2;
    }
  }
  let car: Uint8Array;
  if (/^https?:\/\//i.test(target)) {
    // a record's download link (GET /proposals/{proposalId}/record.car): the server is not trusted either
    const res = await fetch(target, { headers: { accept: 'application/vnd.ipld.car' } });
    if (!res.ok) {
      console.error(`${target} answered ${res.status}`);
      return 1;
    }
    car = new Uint8Array(await res.arrayBuffer());
  } else if (isCid(target)) {
    const gateway = args.values.gateway ?? 'http://127.0.0.1:8080';
    // the trustless gateway protocol: the whole DAG as a CAR; every block is checked here anyway
    const res = await fetch(new URL(`/ipfs/${target}?format=car`, gateway), {
      headers: { accept: 'application/vnd.ipld.car' },
    });
    if (!res.ok) {
      console.error(`the gateway answered ${res.status} for ${target}`);
      return 1;
    }
    car = new Uint8Array(await res.arrayBuffer());
    options.expectedRoot = target;
  } else {
    // `npm run` starts in the repository's root: a relative path is the caller's (INIT_CWD)
    car = new Uint8Array(await readFile(resolve(process.env.INIT_CWD ?? process.cwd(), target)));
  }

  const v = await verifyRecord(car, options);
  console.log(`record ${v.recordCid ?? '?'}: proposal ${v.proposalId ?? '?'}, ${v.status ?? '?'}`);
  console.log(
    `  ${v.blocks} blocks; ${v.ballots.counted} counted ballots (${v.ballots.signed} signed, ${v.ballots.session} ` +
      `session), ${v.ballots.replaced} replaced`,
  );
  if (v.attestationKey)
    console.log(
      `  attested by ${v.attestationKey}${options.key ? ' (the expected key)' : ' (not pinned: pass --key)'}; ` +
        `session ballots carry weight ${v.ballots.sessionWeight} on the server's word`,
    );
  if (v.ok) {
    console.log(`VERIFIED${options.receipt ? ', the receipt is in the record' : ''}`);
    return 0;
  }
  console.log(`FAILED: ${v.failures.length} problem${v.failures.length === 1 ? '' : 's'}`);
  for (const f of v.failures) console.log(`  ${f.check}: ${f.message}`);
  return 1;
}

const readJson = async (file: string): Promise<unknown> =>
  JSON.parse(await readFile(resolve(process.env.INIT_CWD ?? process.cwd(), file), 'utf8'));

/** a receipt file: what GET /votes/{voteId}/receipt answers */
function receiptOf(json: unknown): NonNullable<VerifyOptions['receipt']> {
  const r = json as { leaf?: unknown; proof?: unknown };
  if (!r || typeof r.leaf !== 'string' || !Array.isArray(r.proof))
    throw new Error('expected the JSON of GET /votes/{voteId}/receipt, with leaf and proof');
  return { leaf: r.leaf, proof: r.proof as never };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      gateway: { type: 'string' },
      key: { type: 'string' },
      receipt: { type: 'string' },
      proof: { type: 'string' },
    },
  });
}

function isCid(s: string): boolean {
  try {
    CID.parse(s);
    return true;
  } catch {
    return false;
  }
}

process.exitCode = await main(process.argv.slice(2));
