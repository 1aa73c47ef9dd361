import { AuditLog } from '../../../components/admin/audit-log';

export default function AdminAuditPage() {
  return <AuditLog />;
}
