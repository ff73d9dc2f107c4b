import { Client } from 'pg';
import { createTestDatabase, createTestRedis, testEndpoints } from '../../src/testing';
import { ensureDatabase } from '../../src/database';

describe('medium-test infrastructure', () => {
  it('uses the services named by the environment when no Docker engine answers', async () => {
    const endpoints = await testEndpoints();
    expect(['env', 'testcontainers']).toContain(endpoints.source);
  });

  it('gives each caller its own empty database and drops it afterwards', async () => {
    const a = await createTestDatabase('kit');
    const b = await createTestDatabase('kit');
    expect(a.name).not.toBe(b.name);
    const ca = new Client({ connectionString: a.url });
    await ca.connect();
    await ca.query('CREATE TABLE only_in_a (id int)');
    await ca.end();
    const cb = new Client({ connectionString: b.url });
    await cb.connect();
    const seen = await cb.query("SELECT to_regclass('public.only_in_a') AS t");
    await cb.end();
    expect(seen.rows[0].t).toBeNull();
    await a.drop();
    await b.drop();
    const admin = new Client({ connectionString: (await testEndpoints()).databaseUrl });
    await admin.connect();
    const left = await admin.query('SELECT 1 FROM pg_database WHERE datname = ANY($1)', [[a.name, b.name]]);
    await admin.end();
    expect(left.rowCount).toBe(0);
  });

  it('gives each caller a private Redis key space and removes it on cleanup', async () => {
    const one = await createTestRedis('kit');
    const two = await createTestRedis('kit');
    await one.client.set('k', '1');
    expect(await two.client.get('k')).toBeNull();
    expect(await one.client.get('k')).toBe('1');
    await one.cleanup();
    await two.cleanup();
    const probe = await createTestRedis('kit');
    const raw = probe.client.duplicate({ keyPrefix: '' });
    expect(await raw.exists(`${one.prefix}k`)).toBe(0);
    raw.disconnect();
    await probe.cleanup();
  });

  it('creates a missing database once, even when asked twice', async () => {
    const scratch = await createTestDatabase('kit');
    const url = new URL(scratch.url);
    url.pathname = `/${scratch.name}_ensure`;
    await Promise.all([ensureDatabase(url.toString()), ensureDatabase(url.toString())]);
    const c = new Client({ connectionString: url.toString() });
    await c.connect();
    await c.end();
    const admin = new Client({ connectionString: (await testEndpoints()).databaseUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE "${scratch.name}_ensure" WITH (FORCE)`);
    await admin.end();
    await scratch.drop();
  });
});
