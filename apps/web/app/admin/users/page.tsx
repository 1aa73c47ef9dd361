import { UsersTable } from '../../../components/admin/users-table';

export default function AdminUsersPage() {
  return <UsersTable />;
}
