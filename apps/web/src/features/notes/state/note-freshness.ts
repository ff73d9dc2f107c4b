/**
 * The newest `updatedAt` this page has seen for each note of one account, so that a server that
 * answers an older version of a note (a rollback: an older ciphertext of the same note under the
 * same key, which opens fine) is refused when it also rolls the date back. It is kept in memory
 * for the page's life, across sign-out, sign-in and unlock (every one of which loads the list
 * again), and holds ids and dates only, which the server knows anyway. Its limits
 * (docs/threat-model.md): a reload, another tab or another device starts with nothing seen, and
 * a server that serves the old ciphertext under a new date is not caught.
 */
export class NoteFreshness {
  private readonly newest = new Map<string, number>();

  /** Whether `updatedAt` is older than a version of note `id` seen before (an unreadable date is not). */
  isRolledBack(id: string, updatedAt: string): boolean {
    const seen = this.newest.get(id);
    const at = Date.parse(updatedAt);
    return seen !== undefined && !Number.isNaN(at) && at < seen;
  }

  /** Remembers a version shown (decrypted from the list, or saved here). */
  record(id: string, updatedAt: string): void {
    const at = Date.parse(updatedAt);
    if (Number.isNaN(at)) return;
    const seen = this.newest.get(id);
    if (seen === undefined || at > seen) this.newest.set(id, at);
  }
}

const byAccount = new Map<string, NoteFreshness>();

/** The page's NoteFreshness of one account (the same object for every notes store of that account). */
export function noteFreshnessFor(userId: string): NoteFreshness {
  let ledger = byAccount.get(userId);
  if (!ledger) {
    ledger = new NoteFreshness();
    byAccount.set(userId, ledger);
  }
  return ledger;
}
