/** A row of the admin users list, as the list query returns it (shared by the table and its side panel). */
export type Status = 'pending_verification' | 'active' | 'suspended';
export type Role = 'user' | 'admin';
export interface UserRow {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  status: Status;
  role: Role;
  emailVerified: boolean;
  createdAt: string;
  lastLoginAt: string | null;
}
