import { ExportSection } from '../../features/notes/backup/components/export-section';
import { ImportSection } from '../../features/notes/backup/components/import-section';
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
