/* eslint-disable no-restricted-properties -- test helpers read the test environment directly */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { existsSync } from 'node:fs';
import { Client } from 'pg';
import Redis from 'ioredis';

/**
 * Medium-test infrastructure (docs/architecture.md "Test tiers"): real PostgreSQL and
 * Redis. With a Docker engine, testcontainers starts them; without one (these machines),
 * the services named by DATABASE_URL / REDIS_URL are used. Every test file gets its own
 * database and its own Redis key prefix, so files never see each other's data.
 */

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

interface Endpoints {
  databaseUrl: string;
  redisUrl: string;
  source: 'env' | 'testcontainers';
}

let endpoints: Promise<Endpoints> | undefined;

function dockerAnswers(): Promise<boolean> {
  const socket = process.env.DOCKER_HOST?.startsWith('unix://')
    ? process.env.DOCKER_HOST.slice('unix://'.length)
    : '/var/run/docker.sock';
  if (!existsSync(socket)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const req = request({ socketPath: socket, path: '/_ping', timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => {
      req.destroy();
      resolve(false);
    });
    req.end();
  });
}

async function startContainers(): Promise<Endpoints> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const pg = await new GenericContainer('postgres:15-alpine')
    .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
    .withExposedPorts(5432)
    .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
    .start();
  const redis = await new GenericContainer('redis:7-alpine').withExposedPorts(6379).start();
  return {
    databaseUrl: `postgres://postgres@${pg.getHost()}:${pg.getMappedPort(5432)}/postgres`,
    redisUrl: `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`,
    source: 'testcontainers',
  };
}

/** Where the test services are: containers when Docker answers and no URL is forced. */
export function testEndpoints(): Promise<Endpoints> {
  endpoints ??= (async () => {
    const forced = process.env.DATABASE_URL || process.env.REDIS_URL;
    if (!forced && process.env.VAULT_TEST_NO_DOCKER !== '1' && (await dockerAnswers())) {
      return startContainers();
    }
    return {
      databaseUrl: process.env.DATABASE_URL || DEFAULT_DATABASE_URL,
      redisUrl: process.env.REDIS_URL || DEFAULT_REDIS_URL,
      source: 'env',
    };
  })();
  return endpoints;
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh, empty database for one test file. */
export async function createTestDatabase(label = 'test'): Promise<TestDatabase> {
  const { databaseUrl } = await testEndpoints();
  const name = `vault_${label.replace(/[^a-z0-9]/gi, '').toLowerCase()}_${randomBytes(5).toString('hex')}`;
  const admin = new Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new Client({ connectionString: databaseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface TestRedis {
  url: string;
  prefix: string;
  /** A client already scoped to the prefix. */
  client: Redis;
  /** Deletes every key under the prefix and closes the client. */
  cleanup(): Promise<void>;
}

/** A private Redis key space for one test file. */
export async function createTestRedis(label = 'test'): Promise<TestRedis> {
  const { redisUrl } = await testEndpoints();
  const prefix = `vault-test:${label}:${randomBytes(5).toString('hex')}:`;
  const client = new Redis(redisUrl, { keyPrefix: prefix, maxRetriesPerRequest: 2 });
  return {
    url: redisUrl,
    prefix,
    client,
    async cleanup() {
      const raw = new Redis(redisUrl);
      let cursor = '0';
      do {
        const [next, keys] = await raw.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
        cursor = next;
        if (keys.length > 0) await raw.del(...keys);
      } while (cursor !== '0');
      raw.disconnect();
      client.disconnect();
    },
  };
}
