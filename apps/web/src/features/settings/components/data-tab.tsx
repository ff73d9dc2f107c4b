import { ExportSection, ImportSection } from '../../backup/components/backup-sections';
import { DeleteAccountSection } from './delete-account-section';
import { MalwareCheckSection } from './malware-check-section';
import './settings.css';

export function DataTab() {
  return (
    <div className="settings-stack">
      <ExportSection />
      <ImportSection />
      <MalwareCheckSection />
      <DeleteAccountSection />
    </div>
  );
}
