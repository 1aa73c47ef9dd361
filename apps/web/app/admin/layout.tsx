import type { ReactNode } from 'react';
import { AdminGate } from '../../components/admin/admin-gate';
import { AdminNav } from '../../components/admin/admin-nav';
import '../../components/account/controls.css';
import '../../components/files/files.css';
import '../../components/admin/admin.css';

export const metadata = { title: 'Administration · Plenum' };

export default function AdminLayout({ children }: { children: ReactNode }) {
  return (
    <div className="stack">
      <h1>Administration</h1>
      <AdminGate>
        <AdminNav />
        {children}
      </AdminGate>
    </div>
  );
}
