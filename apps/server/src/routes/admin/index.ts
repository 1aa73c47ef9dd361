import type { RouteSet } from '../../http/routes';
import { exportAuditLog } from './audit-export';
import { adminOpenApiPaths, auditExportQuerySchema } from './openapi';

/** The admin domain's plain route: the audit log export (a streamed CSV download). */
export const adminRoutes: RouteSet = {
  routes: [
    {
      method: 'GET',
      path: '/admin/audit-log.csv',
      operationId: 'admin-audit-log-export',
      access: 'admin',
      // as every admin read: a token needs the account scope (docs/accounts.md, "Token scopes")
      scope: 'account',
      query: auditExportQuerySchema,
      handler: exportAuditLog,
    },
  ],
  openapiPaths: adminOpenApiPaths,
};
