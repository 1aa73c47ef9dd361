import { type Database, schema } from '@plenum/db';
import { drizzle } from 'drizzle-orm/postgres-js';
import type { Sql } from 'postgres';

export interface CapturedQuery {
  query: string;
  params: unknown[];
}

/**
 * A Drizzle database on `sql` that records every statement it runs: calling a core function (the one an
 * endpoint calls) through it yields exactly the SQL that endpoint sends, ready for EXPLAIN.
 */
export function capturingDb(sql: Sql): { db: Database; take(): CapturedQuery[] } {
  let captured: CapturedQuery[] = [];
  const db = drizzle(sql, {
    schema,
    logger: { logQuery: (query, params) => captured.push({ query, params }) },
  }) as unknown as Database;
  return {
    db,
    take() {
      const out = captured;
      captured = [];
      return out;
    },
  };
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  Plans?: PlanNode[];
}

export interface ExplainedQuery {
  query: string;
  /** `Seq Scan on <table>` for every table of at least `largeRows` rows that the plan reads in full */
  seqScans: string[];
  /** how the plan reads each table: `Index Scan using … on votes`, … */
  access: string[];
  executionMs: number;
}

/** EXPLAIN (ANALYZE, FORMAT JSON) of each query with its parameters; `large`: tables that must not be scanned */
export async function explain(
  sql: Sql,
  queries: CapturedQuery[],
  large: Set<string>,
): Promise<ExplainedQuery[]> {
  const out: ExplainedQuery[] = [];
  for (const q of queries) {
    const [row] = await sql.unsafe(`explain (analyze, format json) ${q.query}`, q.params as never[]);
    const plan = (row!['QUERY PLAN'] as { Plan: PlanNode; 'Execution Time': number }[])[0]!;
    const seqScans: string[] = [];
    const access: string[] = [];
    const walk = (n: PlanNode) => {
      if (n['Relation Name']) {
        access.push(
          `${n['Node Type']}${n['Index Name'] ? ` using ${n['Index Name']}` : ''} on ${n['Relation Name']}`,
        );
        if (n['Node Type'] === 'Seq Scan' && large.has(n['Relation Name']))
          seqScans.push(`Seq Scan on ${n['Relation Name']}`);
      }
      for (const c of n.Plans ?? []) walk(c);
    };
    walk(plan.Plan);
    out.push({ query: q.query, seqScans, access, executionMs: plan['Execution Time'] });
  }
  return out;
}

/** tables with at least `rows` rows (by the statistics ANALYZE left) */
export async function largeTables(sql: Sql, rows: number): Promise<Set<string>> {
  const r = await sql<{ relname: string }[]>`
    select relname from pg_class
    where relkind = 'r' and relnamespace = 'public'::regnamespace and reltuples >= ${rows}`;
  return new Set(r.map((x) => x.relname));
}
