import type { Proposal } from '../governance/types';

/** An ISO time → a datetime-local value in the browser's zone, to the minute (the input's precision). */
export function isoToLocal(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** a proposal's voting duration in hours, as the form shows it */
export const durationHours = (p: Pick<Proposal, 'startTime' | 'endTime'>) =>
  (Date.parse(p.endTime) - Date.parse(p.startTime)) / 3_600_000;

type Editable = {
  title: string;
  description: string;
  proposalData: Record<string, unknown>;
  votingOptions?: string[] | undefined;
  votingSystem: Proposal['votingSystem'];
  votingDurationHours: number | undefined;
  /** the form's datetime-local text */
  startLocal: string;
};

/**
 * PATCH /proposals/{proposalId}'s body from an edit form (docs/governance.md, "Editing a
 * proposal"): only what differs from the proposal, so an untouched start (shown to the minute) is not sent
 * back rounded. Null when nothing changed.
 */
export function proposalPatch(p: Proposal, form: Editable, toIso: (local: string) => string | undefined) {
  const patch: {
    title?: string;
    description?: string;
    proposalData?: Record<string, unknown>;
    votingOptions?: string[];
    votingSystem?: Proposal['votingSystem'];
    votingDurationHours?: number;
    startTime?: string;
  } = {};
  if (form.title !== p.title) patch.title = form.title;
  if (form.description !== p.description) patch.description = form.description;
  if (JSON.stringify(form.proposalData) !== JSON.stringify(p.proposalData))
    patch.proposalData = form.proposalData;
  if (form.votingSystem !== p.votingSystem) patch.votingSystem = form.votingSystem;
  if (form.votingOptions && form.votingOptions.join('\n') !== p.votingOptions.join('\n'))
    patch.votingOptions = form.votingOptions;
  if (form.votingDurationHours !== undefined && Math.abs(form.votingDurationHours - durationHours(p)) > 1e-9)
    patch.votingDurationHours = form.votingDurationHours;
  if (form.startLocal && form.startLocal !== isoToLocal(p.startTime)) {
    const iso = toIso(form.startLocal);
    if (iso) patch.startTime = iso;
  }
  return Object.keys(patch).length > 0 ? patch : null;
}
