import { Inject, Injectable } from '@nestjs/common';
import {
  ConnectionsLifecycleBase,
  connectDatabase as connectServiceDatabase,
  connectRedis,
  type DatabaseConfig,
} from '@vault/server-kit';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import type { NotesConfig } from '../config/notes.config';
import { NoteEntity } from '../entities/note.entity';
import { NOTES_MIGRATIONS } from '../migrations';

/** DI tokens of the service's infrastructure. */
export const NOTES_CONFIG = Symbol('NOTES_CONFIG');
export const NOTES_REDIS = Symbol('NOTES_REDIS');

export const NOTES_SCHEMA = 'notes';

export function notesDatabaseConfig(database: NotesConfig['database']): DatabaseConfig {
  return {
    url: database.url,
    schema: NOTES_SCHEMA,
    entities: [NoteEntity],
    migrations: NOTES_MIGRATIONS,
    poolSize: database.poolSize,
  };
}

export function connectDatabase(database: NotesConfig['database']): Promise<DataSource> {
  return connectServiceDatabase(notesDatabaseConfig(database));
}

export { connectRedis };

/** Closes the pool and the Redis client on SIGTERM/SIGINT (enableShutdownHooks). */
@Injectable()
export class ConnectionsLifecycle extends ConnectionsLifecycleBase {
  constructor(dataSource: DataSource, @Inject(NOTES_REDIS) redis: Redis) {
    super(dataSource, redis);
  }
}
