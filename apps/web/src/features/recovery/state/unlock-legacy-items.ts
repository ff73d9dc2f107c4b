import type { NoteDto } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import {
  isWrongPassword,
  type LegacyItemKey,
  type RecoveryCryptoService,
} from '../../../workers/crypto-service';
import { deleteLegacyKey, type LegacyKey } from '../api/legacy-keys';
import { listAllFiles, listAllNotes, putRewrappedNote } from '../api/legacy-items';

export interface LegacyUnlockResult {
  /** Active notes now under the current vault key (the answers of the updates). */
  unlocked: NoteDto[];
  /** Notes in the trash that the old key opens: the notes API updates active notes only. */
  lockedInTrash: number;
  /** Files that the old key opens: the files API has no call to replace a file's wrapped key. */
  lockedFiles: number;
  /** Notes whose update failed (network, server): tried again next time. */
  failed: number;
  /** Legacy keys deleted because nothing is left under them. */
  deletedKeys: string[];
}

export class WrongOldPasswordError extends Error {
  constructor() {
    super('Incorrect password');
    this.name = 'WrongOldPasswordError';
  }
}

/** How many note updates run at once. */
const CONCURRENCY = 4;

/**
 * Unlocks what an access reset left locked (crypto-protocol "Recovery"): the old password opens
 * each legacy vault key it belongs to, the worker moves every item key that key opens under the
 * current vault key, the notes are saved with their re-wrapped key, and a legacy key is deleted only
 * when nothing it opens is left behind (a trashed note or a file would otherwise be lost for good).
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
  // Without the file list nothing can be deleted safely; the notes can still be moved.
  const files = await listAllFiles(api).catch(() => null);
  const notesById = new Map(active.map((n) => [n.id, n]));
  const trashIds = new Set(deleted.map((n) => n.id));
  let remaining: LegacyItemKey[] = [
    ...active.map((n) => ({ kind: 'note' as const, id: n.id, wrappedKey: n.wrappedDEK })),
    ...deleted.map((n) => ({ kind: 'note' as const, id: n.id, wrappedKey: n.wrappedDEK })),
    ...(files ?? []).map((f) => ({ kind: 'file' as const, id: f.id, wrappedKey: f.wrappedKey })),
  ];
  const result: LegacyUnlockResult = {
    unlocked: [],
    lockedInTrash: 0,
    lockedFiles: 0,
    failed: 0,
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

    const activeMoves = moved.filter((m) => m.kind === 'note' && !trashIds.has(m.id) && notesById.has(m.id));
    for (const m of moved) {
      if (m.kind === 'file') {
        result.lockedFiles++;
        complete = false;
      } else if (trashIds.has(m.id)) {
        result.lockedInTrash++;
        complete = false;
      }
    }
    for (let i = 0; i < activeMoves.length; i += CONCURRENCY) {
      const outcomes = await Promise.allSettled(
        activeMoves
          .slice(i, i + CONCURRENCY)
          .map((m) => putRewrappedNote(api, notesById.get(m.id)!, m.wrappedKey)),
      );
      for (const o of outcomes) {
        if (o.status === 'fulfilled') result.unlocked.push(o.value);
        else {
          result.failed++;
          complete = false;
        }
      }
    }
    if (complete) {
      await deleteLegacyKey(api, key.id);
      result.deletedKeys.push(key.id);
    }
  }
  if (opened === 0) throw new WrongOldPasswordError();
  return result;
}
