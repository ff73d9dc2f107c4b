import { filesChanged } from '../../features/files/api/invalidate';
import { existingFilesStore } from '../../features/files/state/files-registry';
import { notesChanged } from '../../features/notes/api/invalidate';
import { VaultPage } from '../../features/notes/components/vault-page';
import { useNotesStore } from '../../features/notes/state/use-notes';
import { LegacyKeysBanner } from '../../features/recovery/components/legacy-keys-banner';
import type { LegacyUnlockResult } from '../../features/recovery/state/unlock-legacy-items';
import { useQueryCache } from '../../lib/query';
import { useSessionStore } from '../../lib/session/session-context';

/** /vault: the notes, with the notice about items locked since an access reset above them. */
export function VaultRoute() {
  return <VaultPage banner={<VaultLegacyKeysBanner />} />;
}

/**
 * The legacy-keys notice, wired to what it unlocks: the re-wrapped notes decrypt again under the
 * current key and take their place in the list; the trash and the files (active and trashed) are
 * fetched again where shown.
 */
function VaultLegacyKeysBanner() {
  const cache = useQueryCache();
  const store = useNotesStore();
  const session = useSessionStore();
  const onUnlocked = async (result: LegacyUnlockResult) => {
    await Promise.all(result.unlocked.map((note) => store?.insertSealed(note)));
    notesChanged(cache, { trash: result.unlockedInTrash > 0 });
    if (result.unlockedFiles > 0) {
      filesChanged(cache);
      void existingFilesStore(session)?.refresh();
    }
  };
  return <LegacyKeysBanner onUnlocked={onUnlocked} />;
}
