import { writeAudit } from '../../audit/write-audit';
import type { Services } from '../../services';
import { notFound } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { quotaLimitOf, storageUsage, writeQuotaOf } from '../../storage/quota';
import { lockLiveUser } from '../access';

/**
 * PUT /admin/users/{id}/storage-quota (docs/storage.md, "Quotas"): the user's own limit in bytes (0 =
 * unlimited) or null for STORAGE_QUOTA_BYTES again; audited with the limit before and after. Lowering a
 * limit below what the user stores removes nothing: their next upload or pin is refused.
 */
export async function setStorageQuota(
  svc: Services,
  params: { adminId: string; id: string; limitBytes: number | null },
) {
  if (!isUuid(params.id)) throw notFound('User not found');
  const now = svc.clock.now();
  await svc.db.transaction(async (tx) => {
    const user = await lockLiveUser(tx, params.id);
    const from = await quotaLimitOf(svc, tx, user.id);
    await writeQuotaOf(tx, { userId: user.id, limitBytes: params.limitBytes, at: now });
    await writeAudit(tx, {
      actorId: params.adminId,
      action: 'user.storage_quota',
      targetId: user.id,
      details: {
        from,
        to: params.limitBytes ?? svc.config.storage.quotaBytes,
        default: params.limitBytes === null,
      },
      at: now,
    });
  });
  return storageUsage(svc, { userId: params.id });
}
