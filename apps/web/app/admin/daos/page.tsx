import { DaoApprovals } from '../../../components/admin/dao-approvals';

export default function AdminDaoApprovalsPage() {
  return <DaoApprovals />;
}
