// The votes suite's bound (docs/operations.md, "Benchmarks"): the least a server must do per vote on this
// machine, run as its own process like the real server. Plain node:http, no framework: it parses the same
// JSON body, group-commits the same rows into the same PostgreSQL (one multi-row INSERT into votes and one
// tally upsert into proposal_tallies per batch, in one transaction; up to 3 batches of up to 1,000 votes in
// flight, as the real batcher) and answers 201 once the batch committed. No authentication, no checks, no
// events. Plain JavaScript, so it runs without a loader.
// Env: DATABASE_URL, DATABASE_POOL_SIZE (20). Prints `listening <port>` on stdout once ready.
import http from 'node:http';
import postgres from 'postgres';

const sql = postgres(process.env.DATABASE_URL, {
  max: Number(process.env.DATABASE_POOL_SIZE ?? 20),
  onnotice: () => {},
});
const MAX_IN_FLIGHT = 3;
const MAX_BATCH = 1_000;

/** @type {{ vote: any, done: (ok: boolean) => void }[]} */
let queue = [];
let inFlight = 0;

function flush() {
  while (inFlight < MAX_IN_FLIGHT && queue.length) {
    const batch = queue.slice(0, MAX_BATCH);
    queue = queue.slice(batch.length);
    inFlight++;
    commit(batch)
      .then(
        () => {
          for (const p of batch) p.done(true);
        },
        () => {
          for (const p of batch) p.done(false);
        },
      )
      .finally(() => {
        inFlight--;
        flush();
      });
  }
}

async function commit(batch) {
  const { proposalId, daoId } = batch[0].vote;
  const now = new Date();
  const at = now.toISOString();
  const second = Math.floor(now.getTime() / 1000);
  const tally = new Map();
  for (const { vote } of batch) tally.set(vote.choice, (tally.get(vote.choice) ?? 0) + 1);
  const options = [...tally.keys()].sort();
  await sql.begin(async (tx) => {
    await tx`
      insert into votes (proposal_id, dao_id, voter_address, choice, weight, comment, order_key, created_at,
        updated_at)
      select ${proposalId}::uuid, ${daoId}::uuid, v.voter, v.choice, 1, '', ${second}::bigint, ${at}::timestamptz,
        ${at}::timestamptz
      from unnest(${batch.map((p) => p.vote.voterAddress)}::text[], ${batch.map((p) => p.vote.choice)}::text[])
        as v(voter, choice)`;
    await tx`
      insert into proposal_tallies (proposal_id, option, shard, votes, weight, updated_at)
      select ${proposalId}::uuid, o.option, ${Math.floor(Math.random() * 8)}::smallint, o.votes::bigint,
        o.votes::numeric, ${at}::timestamptz
      from unnest(${options}::text[], ${options.map((o) => String(tally.get(o)))}::text[]) as o(option, votes)
      on conflict (proposal_id, option, shard) do update
        set votes = proposal_tallies.votes + excluded.votes, weight = proposal_tallies.weight + excluded.weight,
            updated_at = excluded.updated_at`;
  });
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let vote;
    try {
      vote = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(400).end();
      return;
    }
    queue.push({
      vote,
      done: (ok) => {
        const body = ok ? JSON.stringify({ voterAddress: vote.voterAddress, choice: vote.choice }) : '{}';
        res.writeHead(ok ? 201 : 500, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        });
        res.end(body);
      },
    });
    flush();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void sql.end({ timeout: 5 }).then(() => process.exit(0));
});
