import { VOTE_EXPORT_FORMATS } from '@plenum/core';
import { proposalIdInput } from '@plenum/validators';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { errorResponse as error } from '../../http/openapi-errors';

const exportedVote = z
  .object({
    voteId: z.uuid(),
    voter: z.string().meta({ description: 'the voter’s address (EIP-55)' }),
    choice: z.string(),
    weight: z.string().meta({ description: 'decimal string, exact: ownWeight + delegatedWeight' }),
    ownWeight: z.string().meta({ description: 'the voter’s own weight in the frozen electorate' }),
    delegatedWeight: z.string().meta({
      description:
        'the weight of its frozen delegators without a counted vote (docs/governance.md, "Counting")',
    }),
    comment: z.string(),
    time: z.string().meta({ format: 'date-time', description: 'when the vote was cast (ISO 8601, UTC)' }),
    signature: z.string().nullable().meta({ description: 'EIP-712 signature of a signed vote' }),
    signedTimestamp: z.number().int().nullable().meta({ description: 'the signed Unix-seconds timestamp' }),
  })
  .meta({ id: 'ExportedVote' });

export const exportParams = proposalIdInput;
export const exportQuery = z.strictObject({
  format: z.enum(VOTE_EXPORT_FORMATS, { error: `must be one of: ${VOTE_EXPORT_FORMATS.join(', ')}` }),
});

/** The governance domain's plain route: the votes of a proposal as a streamed download. */
export const governanceOpenApiPaths: ZodOpenApiPathsObject = {
  '/votes/proposal/{proposalId}/export': {
    get: {
      tags: ['governance: votes'],
      summary: 'Every vote of a proposal as a CSV or JSON download, oldest first (streamed)',
      description:
        'Columns: voteId, voter, choice, weight, ownWeight, delegatedWeight, comment, time, signature, ' +
        'signedTimestamp. CSV: RFC 4180 ' +
        'with a header row and CRLF line ends; a cell starting with =, +, -, @ (or their fullwidth forms), ' +
        "whitespace or a control character gets a leading apostrophe ('), against formula injection. " +
        'JSON: one array of objects. The votes counted when the export starts (docs/governance.md, ' +
        '"Exporting the votes"). At most EXPORT_MAX_CONCURRENT exports at once per instance and ' +
        'EXPORT_MAX_PER_CLIENT per client: 429 EXPORTS_BUSY beyond.',
      responses: {
        '200': {
          description:
            'The votes; Content-Disposition: attachment; filename="proposal-{proposalId}-votes.{format}"',
          content: {
            'text/csv': { schema: z.string().meta({ description: 'RFC 4180 text with a header row' }) },
            'application/json': { schema: z.array(exportedVote) },
          },
        },
        '400': error(
          'The proposal id is not a UUID, or format is missing or not csv/json (VALIDATION_FAILED)',
        ),
        '404': error('No such proposal'),
        '409': error(
          'The DAO hides results until voting ends and the proposal is still open (RESULTS_HIDDEN)',
        ),
        '429': error(
          'Too many exports at once on this instance or from this client (EXPORTS_BUSY), or the rate limit; see Retry-After',
        ),
      },
    },
  },
  '/proposals/{proposalId}/record.car': {
    get: {
      tags: ['governance: proposals'],
      summary: "A closed proposal's whole record as one CAR file (streamed)",
      description:
        'CARv1 whose one root is the record CID of GET /proposals/{proposalId}/record; every block is ' +
        'dag-cbor with a CIDv1 (sha2-256). Recount it offline with `npm run verify -- <file.car>`, or import ' +
        'it into any IPFS node (`ipfs dag import`). The field-by-field format is in docs/governance.md, ' +
        '"The proposal record". It counts as an export: at most EXPORT_MAX_CONCURRENT at once per instance ' +
        'and EXPORT_MAX_PER_CLIENT per client.',
      responses: {
        '200': {
          description:
            'The record; Content-Disposition: attachment; filename="proposal-{proposalId}-record.car"; ' +
            'ETag: the record CID',
          content: {
            'application/vnd.ipld.car': {
              schema: z.string().meta({ format: 'binary', description: 'CARv1 bytes' }),
            },
          },
        },
        '400': error('The proposal id is not a UUID (VALIDATION_FAILED)'),
        '404': error('No such proposal'),
        '409': error('The proposal is still open, or its record is being made (RECORD_NOT_READY)'),
        '429': error(
          'Too many exports at once on this instance or from this client (EXPORTS_BUSY), or the rate limit; see Retry-After',
        ),
      },
    },
  },
};
