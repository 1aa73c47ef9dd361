import { serializeUser } from '../accounts/serialize';
import type { Services } from '../services';
import { type Actor, assertOwnerOrAdmin, loadLiveUser } from './access';

/** GET /users/{id}: the full record for the owner or an admin; 404 before 403 (ids are random UUIDs). */
export async function getUser(svc: Services, params: { actor: Actor; id: string }) {
  const user = await loadLiveUser(svc.db, params.id);
  assertOwnerOrAdmin(params.actor, user.id);
  return serializeUser(user);
}
