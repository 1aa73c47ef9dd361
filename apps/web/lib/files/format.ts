/** 1536 → "1.5 KB" (decimal units, as file managers show) */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '—';
  if (n < 1000) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = -1;
  do {
    v /= 1000;
    i++;
  } while (v >= 1000 && i < units.length - 1);
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

/** bafy…abcd: enough to recognise a CID in a narrow column */
export const shortCid = (cid: string) => (cid.length > 20 ? `${cid.slice(0, 10)}…${cid.slice(-6)}` : cid);
