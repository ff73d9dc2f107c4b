import type { KdfParams } from '@vault/crypto';
import type {
  DecryptOutcome,
  EncryptedBackupEnvelope,
  NotePlain,
  SealedNote,
  SealedNoteFields,
} from './notes-messages';
import type { NotesApi } from './notes-ops';
import { WorkerClient, localClient, type RpcClient } from './worker-rpc';

/** What the notes screens ask of the crypto: everything runs in notes.worker.ts when it can. */
export interface NotesCrypto {
  /** Decrypts one batch; each note succeeds or fails on its own. */
  decryptBatch(key: CryptoKey, notes: readonly SealedNote[]): Promise<DecryptOutcome[]>;
  /** A new note; without `noteId` a fresh UUID v4 is made (the answer's `id`). */
  encrypt(key: CryptoKey, noteId: string | undefined, plain: NotePlain): Promise<SealedNoteFields>;
  update(key: CryptoKey, note: SealedNote, plain: NotePlain): Promise<SealedNoteFields>;
  sealBackup(password: string, json: string, kdfParams?: KdfParams): Promise<EncryptedBackupEnvelope>;
  openBackup(password: string, envelope: unknown): Promise<string>;
}

/** Only what the worker needs of a note crosses the boundary (no timestamps, no flags beyond isEncrypted). */
const sealedOnly = (n: SealedNote): SealedNote => ({
  id: n.id,
  title: n.title,
  content: n.content,
  tags: [...n.tags],
  wrappedDEK: n.wrappedDEK,
  isEncrypted: n.isEncrypted,
});

/** Below this many notes per worker a batch is not split (a message round trip is not free). */
const MIN_SLICE = 25;

/**
 * The operations as calls to notesApi. Decryption is spread over every lane (each batch is split
 * into contiguous slices, one per lane, and the answers are joined back in order); everything
 * else goes to the first lane.
 */
abstract class RpcNotesCrypto implements NotesCrypto {
  constructor(private readonly lanes: readonly RpcClient<NotesApi>[]) {}

  private get first(): RpcClient<NotesApi> {
    return this.lanes[0]!;
  }

  async decryptBatch(key: CryptoKey, notes: readonly SealedNote[]): Promise<DecryptOutcome[]> {
    const sealed = notes.map(sealedOnly);
    const slices = Math.max(1, Math.min(this.lanes.length, Math.floor(sealed.length / MIN_SLICE)));
    const size = Math.ceil(sealed.length / slices);
    const answers = await Promise.all(
      Array.from({ length: slices }, (_, i) =>
        this.lanes[i]!.call('decryptBatch', key, sealed.slice(i * size, (i + 1) * size)),
      ),
    );
    return answers.flat();
  }

  encrypt(key: CryptoKey, noteId: string | undefined, plain: NotePlain): Promise<SealedNoteFields> {
    return this.first.call('encrypt', key, noteId, plain);
  }

  update(key: CryptoKey, note: SealedNote, plain: NotePlain): Promise<SealedNoteFields> {
    return this.first.call('update', key, sealedOnly(note), plain);
  }

  sealBackup(password: string, json: string, kdfParams?: KdfParams): Promise<EncryptedBackupEnvelope> {
    return this.first.call('sealBackup', password, json, kdfParams);
  }

  openBackup(password: string, envelope: unknown): Promise<string> {
    return this.first.call('openBackup', password, envelope);
  }
}

/** Decryption workers: one per spare core, at least 2 and at most 4. */
function defaultWorkerCount(): number {
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2;
  return Math.min(4, Math.max(2, cores - 1));
}

function notesWorker(name: string): WorkerClient<NotesApi> {
  return new WorkerClient<NotesApi>({
    start: () => new Worker(new URL('./notes.worker.ts', import.meta.url), { type: 'module', name }),
  });
}

/**
 * Talks to notes.worker.ts, over a small pool of workers since decrypting a large vault is
 * CPU-bound (see RpcNotesCrypto). The workers start on first use.
 */
export class WorkerNotesCrypto extends RpcNotesCrypto {
  private readonly workers: WorkerClient<NotesApi>[];

  constructor(workerCount: number = defaultWorkerCount()) {
    const count = Math.max(1, Math.floor(workerCount));
    const workers = Array.from({ length: count }, (_, i) =>
      notesWorker(i === 0 ? 'vault-notes' : `vault-notes-${i + 1}`),
    );
    super(workers);
    this.workers = workers;
  }

  terminate(): void {
    for (const w of this.workers) w.terminate();
  }
}

/**
 * The same operations on the calling thread (localClient: failures look exactly alike). Loaded
 * lazily: the main bundle does not carry the crypto code. Used where no Worker exists (jsdom
 * tests) and by tests that want the real crypto in-thread.
 */
export class InlineNotesCrypto extends RpcNotesCrypto {
  constructor() {
    super([localClient(async () => (await import('./notes-ops')).notesApi)]);
  }
}

let shared: NotesCrypto | null = null;

/** The app's notes crypto: the worker in browsers, in-thread where Workers do not exist. */
export function defaultNotesCrypto(): NotesCrypto {
  if (!shared) shared = typeof Worker === 'undefined' ? new InlineNotesCrypto() : new WorkerNotesCrypto();
  return shared;
}
