/** What a verification found wrong, each named by its check (docs/governance.md, "The verifier"). */

export const CHECKS = [
  'block',
  'format',
  'attestation',
  'electorate',
  'ballot',
  'signature',
  'weight',
  'results',
  'status',
  'receipt',
] as const;
export type Check = (typeof CHECKS)[number];

export interface Failure {
  check: Check;
  message: string;
}

export class Failures {
  readonly list: Failure[] = [];
  add(check: Check, message: string) {
    this.list.push({ check, message });
  }
  get checks(): Set<Check> {
    return new Set(this.list.map((f) => f.check));
  }
}
