/** The account page's tabs, in order; `?tab=` names one (read by the server page and the client tabs). */
export const ACCOUNT_TABS = ['profile', 'preferences', 'security', 'activity', 'tokens', 'webhooks'] as const;
export type AccountTab = (typeof ACCOUNT_TABS)[number];

export const accountTab = (value: string | undefined): AccountTab =>
  (ACCOUNT_TABS as readonly string[]).includes(value ?? '') ? (value as AccountTab) : 'profile';
