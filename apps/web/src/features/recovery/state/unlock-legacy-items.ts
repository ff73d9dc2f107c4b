import type { NoteDto } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import {
  isWrongPassword,
  type LegacyItemKey,
  type RecoveryCryptoService,
} from '../../../workers/crypto-service';
import { deleteLegacyKey, type LegacyKey } from '../api/legacy-keys';
import { listAllFiles, listAllNotes, putFileKey, putNoteKey } from '../api/legacy-items';

export interface LegacyUnlockResult {
  /** Active notes now under the current vault key (as listed, with their re-wrapped key). */
  unlocked: NoteDto[];
  /** Notes in the trash now under the current vault key. */
  unlockedInTrash: number;
  /** Files (active or in the trash) now under the current vault key. */
  unlockedFiles: number;
  /** Items whose re-wrap could not be saved (network, server): tried again next time. */
  failed: number;
  /** The file lists could not be read: files wait for the next unlock, and no key is deleted. */
  filesUnavailable: boolean;
  /** Legacy keys deleted because nothing is left under them. */
  deletedKeys: string[];
}

export class WrongOldPasswordError extends Error {
  constructor() {
    super('Incorrect password');
    this.name = 'WrongOldPasswordError';
  }
}

/** How many key updates run at once. */
const CONCURRENCY = 4;

/**
 * Unlocks what an access reset left locked (docs/crypto-protocol.md "Reset without the recovery key, and legacy keys"): the old password opens
 * each legacy vault key it belongs to; the worker moves every item key that opens under that key
 * (and not under the current one) to the current vault key; each note (active or in the trash) and
 * each file (active or in the trash) gets its new wrapped key through PUT /notes/{id}/key and
 * PUT /files/{id}/key. A legacy key is deleted only when nothing it opens is left behind: every
 * re-wrap saved, and the file lists read (an item left under a deleted key would be lost for good).
 */
export async function unlockLegacyItems(input: {
  api: ApiClient;
  crypto: RecoveryCryptoService;
  vaultKey: CryptoKey;
  keys: LegacyKey[];
  password: string;
}): Promise<LegacyUnlockResult> {
  const { api, crypto, vaultKey, keys, password } = input;
  const { active, deleted } = await listAllNotes(api);
  // Without the file lists nothing can be deleted safely; the notes can still be moved.
  const files = await listAllFiles(api).catch(() => null);
  const activeById = new Map(active.map((n) => [n.id, n]));
  let remaining: LegacyItemKey[] = [
    ...active.map((n) => ({ kind: 'note' as const, id: n.id, wrappedKey: n.wrappedDEK })),
    ...deleted.map((n) => ({ kind: 'note' as const, id: n.id, wrappedKey: n.wrappedDEK })),
    ...(files ?? []).map((f) => ({ kind: 'file' as const, id: f.id, wrappedKey: f.wrappedKey })),
  ];
  const result: LegacyUnlockResult = {
    unlocked: [],
    unlockedInTrash: 0,
    unlockedFiles: 0,
    failed: 0,
    filesUnavailable: files === null,
    deletedKeys: [],
  };
  let opened = 0;

  for (const key of keys) {
    let moved: LegacyItemKey[];
    try {
      const answer = await crypto.rewrapLegacyItems(
        password,
        { salt: key.salt, kdfParams: key.kdfParams, wrappedVaultKey: key.wrappedVaultKey },
        vaultKey,
        remaining,
      );
      moved = answer.rewrapped;
    } catch (error) {
      // Another reset's key, under another old password: not this one.
      if (isWrongPassword(error)) continue;
      throw error;
    }
    opened++;
    const movedIds = new Set(moved.map((m) => m.id));
    remaining = remaining.filter((r) => !movedIds.has(r.id));
    let complete = files !== null;

    for (let i = 0; i < moved.length; i += CONCURRENCY) {
      const slice = moved.slice(i, i + CONCURRENCY);
      const outcomes = await Promise.allSettled(
        slice.map((m) =>
          m.kind === 'note' ? putNoteKey(api, m.id, m.wrappedKey) : putFileKey(api, m.id, m.wrappedKey),
        ),
      );
      outcomes.forEach((o, j) => {
        const m = slice[j]!;
        if (o.status === 'rejected') {
          // Even a 404 (purged since the lists were read) keeps the key: the next unlock lists
          // again and then finds nothing left, whereas guessing wrong would lose an item for good.
          result.failed++;
          complete = false;
          return;
        }
        if (m.kind === 'file') result.unlockedFiles++;
        else {
          const note = activeById.get(m.id);
          if (note) result.unlocked.push({ ...note, wrappedDEK: m.wrappedKey });
          else result.unlockedInTrash++;
        }
      });
    }
    if (complete) {
      await deleteLegacyKey(api, key.id);
      result.deletedKeys.push(key.id);
    }
  }
  if (opened === 0) throw new WrongOldPasswordError();
  return result;
}
