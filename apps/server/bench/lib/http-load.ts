import { Worker } from 'node:worker_threads';

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  token?: string;
}

export interface LoadResult {
  elapsedMs: number;
  statuses: Record<string, number>;
  /** sorted, ms */
  latencies: number[];
}

/** runs the requests against baseUrl from a worker thread with the given number of lanes */
export function runLoad(baseUrl: string, requests: LoadRequest[], concurrency: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./http-load-worker.mjs', import.meta.url), {
      workerData: { baseUrl, requests, concurrency },
    });
    worker.once('message', (m: LoadResult) => {
      resolve(m);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
