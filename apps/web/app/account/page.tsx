import { AccountSettings } from '../../components/account/account-settings';
import { AccountView } from '../../components/account-view';

export default function AccountPage() {
  return (
    <div className="stack">
      <h1>Your account</h1>
      <AccountView />
      <AccountSettings />
    </div>
  );
}
