import { auditExportQuery } from '@plenum/validators';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { errorResponse as error } from '../../http/openapi-errors';

/** the export's query: the audit log's filters (no paging: every matching row), from before to */
export const auditExportQuerySchema = auditExportQuery;

/** The admin domain's plain route: the audit log as a streamed CSV download. */
export const adminOpenApiPaths: ZodOpenApiPathsObject = {
  '/admin/audit-log.csv': {
    get: {
      tags: ['admin'],
      summary:
        'The audit log as a CSV download, newest first, with the filters of GET /admin/audit-log (streamed)',
      description:
        'Columns: createdAt, action, actorId, actorEmail, targetType, targetId, targetEmail, targetName, ' +
        'reason, details (JSON text). CSV: RFC 4180 with a header row and CRLF line ends; a cell starting ' +
        "with =, +, -, @ (or their fullwidth forms), whitespace or a control character gets a leading apostrophe ('), " +
        'against formula injection. The rows written when the export starts (docs/users.md, "Administration"). ' +
        'Admins only.',
      responses: {
        '200': {
          description: 'The rows; Content-Disposition: attachment; filename="audit-log-{YYYY-MM-DD}.csv"',
          content: {
            'text/csv': { schema: z.string().meta({ description: 'RFC 4180 text with a header row' }) },
          },
        },
        '400': error('A filter is not valid: a bad date, or from after to (VALIDATION_FAILED)'),
        '401': error('Not signed in'),
        '403': error('Not an admin (ADMIN_ONLY), or a token without the account scope (INSUFFICIENT_SCOPE)'),
        '429': error('The rate limit; see Retry-After'),
      },
    },
  },
};
