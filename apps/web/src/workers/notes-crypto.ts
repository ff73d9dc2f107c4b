import type { KdfParams } from '@vault/crypto';
import { CryptoOperationError } from './crypto-service';
import type {
  DecryptOutcome,
  EncryptedBackupEnvelope,
  NotePlain,
  NotesWorkerRequest,
  NotesWorkerResponse,
  NotesWorkerResult,
  SealedNote,
  SealedNoteFields,
} from './notes-messages';

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

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type Pending = { resolve: (r: NotesWorkerResult) => void; reject: (e: Error) => void };

/** Only what the worker needs of a note crosses the boundary (no timestamps, no flags beyond isEncrypted). */
const sealedOnly = (n: SealedNote): SealedNote => ({
  id: n.id,
  title: n.title,
  content: n.content,
  tags: [...n.tags],
  wrappedDEK: n.wrappedDEK,
  isEncrypted: n.isEncrypted,
});

/** One notes.worker.ts: starts on first use and answers its requests in order. */
class NotesWorkerHandle {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly name: string) {}

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./notes.worker.ts', import.meta.url), {
      type: 'module',
      name: this.name,
    });
    worker.addEventListener('message', (event: MessageEvent<NotesWorkerResponse>) => {
      const msg = event.data;
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.ok) p.resolve(msg.result);
      else p.reject(new CryptoOperationError(msg.error.code, msg.error.message));
    });
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      const error = new CryptoOperationError(
        'UNSUPPORTED_ENVIRONMENT',
        'The encryption worker could not start. Please reload the page.',
      );
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
      this.worker?.terminate();
      this.worker = null;
    });
    this.worker = worker;
    return worker;
  }

  call(req: DistributiveOmit<NotesWorkerRequest, 'id'>): Promise<NotesWorkerResult> {
    const id = this.nextId++;
    return new Promise<NotesWorkerResult>((resolve, reject) => {
      let worker: Worker;
      try {
        worker = this.ensureWorker();
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ ...req, id } as NotesWorkerRequest);
    });
  }

  terminate(): void {
    this.worker?.terminate();
    this.worker = null;
  }
}

/** Decryption workers: one per spare core, at least 2 and at most 4. */
function defaultWorkerCount(): number {
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2;
  return Math.min(4, Math.max(2, cores - 1));
}

/** Below this many notes per worker a batch is not split (a message round trip is not free). */
const MIN_SLICE = 25;

/**
 * Talks to notes.worker.ts. Decryption is spread over a small pool of workers (each batch is
 * split into contiguous slices, one per worker, and the answers are joined back in order), since
 * decrypting a large vault is CPU-bound; everything else goes to the first worker. The workers
 * start on first use.
 */
export class WorkerNotesCrypto implements NotesCrypto {
  private readonly workers: NotesWorkerHandle[];

  constructor(workerCount: number = defaultWorkerCount()) {
    const count = Math.max(1, Math.floor(workerCount));
    this.workers = Array.from(
      { length: count },
      (_, i) => new NotesWorkerHandle(i === 0 ? 'vault-notes' : `vault-notes-${i + 1}`),
    );
  }

  private call(req: DistributiveOmit<NotesWorkerRequest, 'id'>): Promise<NotesWorkerResult> {
    return this.workers[0]!.call(req);
  }

  async decryptBatch(key: CryptoKey, notes: readonly SealedNote[]): Promise<DecryptOutcome[]> {
    const sealed = notes.map(sealedOnly);
    const slices = Math.max(1, Math.min(this.workers.length, Math.floor(sealed.length / MIN_SLICE)));
    const size = Math.ceil(sealed.length / slices);
    const answers = await Promise.all(
      Array.from({ length: slices }, (_, i) =>
        this.workers[i]!.call({ op: 'decrypt', key, notes: sealed.slice(i * size, (i + 1) * size) }),
      ),
    );
    return (answers as DecryptOutcome[][]).flat();
  }

  async encrypt(key: CryptoKey, noteId: string | undefined, plain: NotePlain): Promise<SealedNoteFields> {
    const req = noteId
      ? ({ op: 'encrypt', key, noteId, plain } as const)
      : ({ op: 'encrypt', key, plain } as const);
    return (await this.call(req)) as SealedNoteFields;
  }

  async update(key: CryptoKey, note: SealedNote, plain: NotePlain): Promise<SealedNoteFields> {
    return (await this.call({ op: 'update', key, note: sealedOnly(note), plain })) as SealedNoteFields;
  }

  async sealBackup(password: string, json: string, kdfParams?: KdfParams): Promise<EncryptedBackupEnvelope> {
    const req = kdfParams
      ? ({ op: 'sealBackup', password, json, kdfParams } as const)
      : ({ op: 'sealBackup', password, json } as const);
    return (await this.call(req)) as EncryptedBackupEnvelope;
  }

  async openBackup(password: string, envelope: unknown): Promise<string> {
    return (await this.call({ op: 'openBackup', password, envelope })) as string;
  }

  terminate(): void {
    for (const w of this.workers) w.terminate();
  }
}

/**
 * The same operations on the calling thread, through the worker's own dispatcher (so failures
 * look exactly alike). Loaded lazily: the main bundle does not carry the crypto code.
 * Used where no Worker exists (jsdom tests) and by tests that want the real crypto in-thread.
 */
export class InlineNotesCrypto implements NotesCrypto {
  private async call(req: DistributiveOmit<NotesWorkerRequest, 'id'>): Promise<NotesWorkerResult> {
    const { handleNotesRequest } = await import('./notes-dispatch');
    const answer = await handleNotesRequest({ ...req, id: 0 } as NotesWorkerRequest);
    if (!answer.ok) throw new CryptoOperationError(answer.error.code, answer.error.message);
    return answer.result;
  }

  async decryptBatch(key: CryptoKey, notes: readonly SealedNote[]): Promise<DecryptOutcome[]> {
    return (await this.call({ op: 'decrypt', key, notes: notes.map(sealedOnly) })) as DecryptOutcome[];
  }

  async encrypt(key: CryptoKey, noteId: string | undefined, plain: NotePlain): Promise<SealedNoteFields> {
    const req = noteId
      ? ({ op: 'encrypt', key, noteId, plain } as const)
      : ({ op: 'encrypt', key, plain } as const);
    return (await this.call(req)) as SealedNoteFields;
  }

  async update(key: CryptoKey, note: SealedNote, plain: NotePlain): Promise<SealedNoteFields> {
    return (await this.call({ op: 'update', key, note: sealedOnly(note), plain })) as SealedNoteFields;
  }

  async sealBackup(password: string, json: string, kdfParams?: KdfParams): Promise<EncryptedBackupEnvelope> {
    const req = kdfParams
      ? ({ op: 'sealBackup', password, json, kdfParams } as const)
      : ({ op: 'sealBackup', password, json } as const);
    return (await this.call(req)) as EncryptedBackupEnvelope;
  }

  async openBackup(password: string, envelope: unknown): Promise<string> {
    return (await this.call({ op: 'openBackup', password, envelope })) as string;
  }
}

let shared: NotesCrypto | null = null;

/** The app's notes crypto: the worker in browsers, in-thread where Workers do not exist. */
export function defaultNotesCrypto(): NotesCrypto {
  if (!shared) shared = typeof Worker === 'undefined' ? new InlineNotesCrypto() : new WorkerNotesCrypto();
  return shared;
}
