import { MAX_PROPOSAL_DATA_BYTES } from '@plenum/validators';

export type JsonCheck =
  | { ok: true; value: Record<string, unknown>; bytes: number }
  | {
      ok: false;
      code: 'syntax' | 'notObject' | 'tooLarge';
      message: string;
      detail?: string;
      bytes?: number;
    };

/** The proposal's JSON data as typed: empty means {}; it must be a JSON object of at most 64 KiB. */
export function checkProposalJson(text: string): JsonCheck {
  if (text.trim() === '') return { ok: true, value: {}, bytes: 2 };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const detail = (err as Error).message;
    return { ok: false, code: 'syntax', message: `Not valid JSON: ${detail}`, detail };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, code: 'notObject', message: 'Must be a JSON object, like {"budget": 1200}' };
  const bytes = new TextEncoder().encode(JSON.stringify(value)).length;
  if (bytes > MAX_PROPOSAL_DATA_BYTES)
    return {
      ok: false,
      code: 'tooLarge',
      message: `Too large: ${bytes} bytes of at most ${MAX_PROPOSAL_DATA_BYTES}`,
      bytes,
    };
  return { ok: true, value: value as Record<string, unknown>, bytes };
}
