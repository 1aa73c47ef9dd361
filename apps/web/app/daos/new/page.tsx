import { CreateDaoForm } from '../../../components/governance/create-dao-form';
import '../../../components/governance/governance.css';

export const metadata = { title: 'Create a DAO · Plenum' };

export default function NewDaoPage() {
  return (
    <div className="stack gov">
      <h1>Create a DAO</h1>
      <CreateDaoForm />
    </div>
  );
}
