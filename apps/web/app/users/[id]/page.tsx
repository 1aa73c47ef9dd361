import { PublicProfile } from '../../../components/account/public-profile';

export const metadata = { title: 'Profile · Plenum' };

export default async function UserProfilePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <PublicProfile id={id} />;
}
