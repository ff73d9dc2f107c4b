import { ExportSection, ImportSection } from '../../features/notes/backup/components/backup-sections';
import { SettingsPage } from '../../features/settings/components/settings-page';

/** /settings, with the notes' export and import leading the Data & Privacy tab. */
export function SettingsRoute() {
  return (
    <SettingsPage
      dataSections={
        <>
          <ExportSection />
          <ImportSection />
        </>
      }
    />
  );
}
