import type { EventEnvelope, GovernanceEventType } from '../governance/event-log';

/** What a subscriber wants: every field that is set must match (absent = any). */
export interface EventFilter {
  events?: readonly GovernanceEventType[] | undefined;
  daoId?: string | undefined;
  proposalId?: string | undefined;
}

export function matchesFilter(e: EventEnvelope, f: EventFilter): boolean {
  if (f.events && !f.events.includes(e.type)) return false;
  if (f.daoId && e.daoId !== f.daoId) return false;
  if (f.proposalId && e.proposalId !== f.proposalId) return false;
  return true;
}
