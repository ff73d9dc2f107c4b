import { ExportSection, ImportSection } from '../../backup/components/backup-sections';
import { SettingsSection } from './settings-section';

const LATER = 'Coming in a later release';

export function DataTab() {
  return (
    <div className="settings-stack">
      <ExportSection />
      <ImportSection />
      <SettingsSection
        title="Danger zone"
        tone="danger"
        upcoming={LATER}
        description="Deleting your account removes your notes, files, sessions and codes for good."
      />
    </div>
  );
}
