import type { INestMicroservice } from '@nestjs/common';
import type { CreateNoteBody } from '@vault/contracts';
import { sealedValue, startRpcTestApp, type RpcTestApp } from '@vault/server-kit/testing';
import { randomUUID } from 'node:crypto';
import { startNotesService } from '../../../src/bootstrap';
import { loadNotesConfig, type NotesConfig } from '../../../src/config/notes.config';
import { notesDatabaseConfig } from '../../../src/repositories/connections';

export {
  context,
  freePort,
  sealedValue,
  sleep,
  testAppPerFile,
  type TestUser,
} from '@vault/server-kit/testing';

/** The real notes microservice (server-kit's startRpcTestApp). */
export type NotesTestApp = RpcTestApp<NotesConfig, INestMicroservice>;

export function startNotesTestApp(label: string): Promise<NotesTestApp> {
  return startRpcTestApp({
    service: 'notes',
    label,
    loadConfig: loadNotesConfig,
    databaseConfig: (config) => notesDatabaseConfig(config.database),
    start: startNotesService,
    stop: (app) => app.close(),
  });
}

/** A wrapped 32-byte note key. */
export const wrappedKey = (): string => sealedValue(32);

/** A valid create body with a fresh client-made id. */
export function noteBody(overrides: Partial<CreateNoteBody> = {}): CreateNoteBody {
  return {
    id: randomUUID(),
    title: sealedValue(20),
    content: sealedValue(200),
    tags: [sealedValue(30)],
    wrappedDEK: wrappedKey(),
    ...overrides,
  };
}

/** The sealed fields of an update (no id: the route carries it). */
export function sealedFieldsOf(body: CreateNoteBody): Omit<CreateNoteBody, 'id'> {
  const { id: _id, ...fields } = body;
  return fields;
}
