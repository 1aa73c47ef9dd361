import { describe, expect, it } from 'vitest';
import { VOTE_EXPORT_FORMATS, voteExportFilename, voteExportUrl } from './vote-export';

describe('voteExportUrl', () => {
  it('points at the API export path with the format, the id encoded', () => {
    const id = '3f1c2a4e-9b7d-4c1e-8a2b-0d9e8f7a6b5c';
    expect(VOTE_EXPORT_FORMATS.map((f) => voteExportUrl('http://api.example:4000', id, f.format))).toEqual([
      `http://api.example:4000/votes/proposal/${id}/export?format=csv`,
      `http://api.example:4000/votes/proposal/${id}/export?format=json`,
    ]);
    expect(voteExportUrl('http://x', 'a/b?c', 'csv')).toBe(
      'http://x/votes/proposal/a%2Fb%3Fc/export?format=csv',
    );
    expect(voteExportFilename(id, 'json')).toBe(`proposal-${id}-votes.json`);
  });
});
