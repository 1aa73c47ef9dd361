/** The two formats of GET /votes/proposal/{proposalId}/export (docs/governance.md, "Exporting the votes"). */
export const VOTE_EXPORT_FORMATS = [
  { format: 'csv', label: 'CSV' },
  { format: 'json', label: 'JSON' },
] as const;

export type VoteExportFormat = (typeof VOTE_EXPORT_FORMATS)[number]['format'];

/** the API URL of a proposal's votes as a download, built like the raw file URLs (lib/files/pins.ts) */
export const voteExportUrl = (apiUrl: string, proposalId: string, format: VoteExportFormat) =>
  `${apiUrl}/votes/proposal/${encodeURIComponent(proposalId)}/export?format=${format}`;

/** the file name the API gives it (Content-Disposition), also the link's `download` name */
export const voteExportFilename = (proposalId: string, format: VoteExportFormat) =>
  `proposal-${proposalId}-votes.${format}`;
