import { DaoDirectory } from '../../components/governance/dao-directory';

export const metadata = { title: 'DAOs · Plenum' };

export default function DaosPage() {
  return <DaoDirectory />;
}
