import { FilesView } from '../../components/files/files-view';

export const metadata = { title: 'Files · Plenum' };

export default function FilesPage() {
  return (
    <div className="stack">
      <h1>Files</h1>
      <FilesView />
    </div>
  );
}
