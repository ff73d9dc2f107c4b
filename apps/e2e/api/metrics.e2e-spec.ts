/**
 * Metrics (docs/metrics.md): every process of the stack serves Prometheus' /metrics on its internal
 * health listener, the gateway's included, and never on the public port. The stack gives each
 * listener a free port (HEALTH_PORT=0, scripts/e2e.mjs) and each service logs the port it bound:
 * the tests read them from the service logs (VAULT_E2E_LOG_DIR), or from VAULT_E2E_METRICS_URLS
 * (`gateway=http://127.0.0.1:9100,auth=...`) when a stack gives them explicitly.
 */
import { SCAN_QUEUE } from '@vault/contracts';
import { metricValue, parseMetrics, type MetricSample } from '@vault/server-kit/testing';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { signUp } from '../support/accounts';
import { e2eEnv } from '../support/env';
import { createNote } from '../support/notes';

/** The stack's processes, by the name of their log file (scripts/lib/stack.mjs), and their service label. */
const PROCESSES = {
  gateway: 'gateway',
  auth: 'auth',
  notes: 'notes',
  files: 'files',
  admin: 'admin',
  scan: 'scan-worker',
} as const;
type ProcessName = keyof typeof PROCESSES;

/** Where each process's ops listener is: VAULT_E2E_METRICS_URLS, else the line each one logged at boot. */
function metricsUrls(): Partial<Record<ProcessName, string>> {
  const given = process.env['VAULT_E2E_METRICS_URLS'];
  if (given) {
    return Object.fromEntries(
      given
        .split(',')
        .map((pair) => pair.trim().split('='))
        .filter(([name, url]) => name && url && name in PROCESSES)
        .map(([name, url]) => [name, url!.replace(/\/+$/, '')]),
    );
  }
  const { logDir } = e2eEnv();
  const urls: Partial<Record<ProcessName, string>> = {};
  for (const name of Object.keys(PROCESSES) as ProcessName[]) {
    const file = logDir ? join(logDir, `${name}.log`) : undefined;
    if (!file || !existsSync(file)) continue;
    // The last start wins (a test may restart a service): "Health probes on http://host:port/health/...".
    const found = [
      ...readFileSync(file, 'utf8').matchAll(/Health probes on http:\/\/([^/:"\s]+):(\d+)\//g),
    ].at(-1);
    if (found) {
      const host = found[1] === '0.0.0.0' || found[1] === '::' ? '127.0.0.1' : found[1];
      urls[name] = `http://${host}:${found[2]}`;
    }
  }
  return urls;
}

describe('metrics on the internal health listeners', () => {
  const urls = metricsUrls();
  const scrape = async (name: ProcessName): Promise<{ res: Response; samples: MetricSample[] }> => {
    const url = urls[name];
    if (!url) {
      throw new Error(
        `${name} has no ops listener the test can find: start the stack with HEALTH_PORT=0 ` +
          '(scripts/e2e.mjs overrides) or pass VAULT_E2E_METRICS_URLS',
      );
    }
    const res = await fetch(`${url}/metrics`);
    return { res, samples: parseMetrics(await res.text()) };
  };

  it.each(Object.entries(PROCESSES) as [ProcessName, string][])(
    '%s serves /metrics in the Prometheus text format, labelled with its service',
    async (name, service) => {
      const { res, samples } = await scrape(name);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(metricValue(samples, 'process_resident_memory_bytes', { service })).toBeGreaterThan(0);
    },
  );

  it('serves no /metrics on the public port', async () => {
    const res = await fetch(`${e2eEnv().baseUrl}/metrics`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toMatch(/process_resident_memory_bytes|<html/i);
  });

  it('counts a request made through the gateway at the gateway and at the service that answered it', async () => {
    const account = await signUp();
    const created = { method: 'POST', route: '/api/notes', status: '201' };
    const gatewayBefore = metricValue((await scrape('gateway')).samples, 'http_requests_total', created);
    const handled = { pattern: 'notes.create', outcome: 'ok' };
    const notesBefore = metricValue(
      (await scrape('notes')).samples,
      'rpc_server_duration_seconds_count',
      handled,
    );

    const { note } = await createNote(account, { title: 'metrics', content: 'counted', tags: [] });

    const gateway = (await scrape('gateway')).samples;
    expect(
      metricValue(gateway, 'http_requests_total', { ...created, service: 'gateway' }),
    ).toBeGreaterThanOrEqual(gatewayBefore + 1);
    expect(
      metricValue(gateway, 'http_request_duration_seconds_count', { method: 'POST', route: '/api/notes' }),
    ).toBeGreaterThan(0);
    expect(metricValue(gateway, 'rpc_client_duration_seconds_count', handled)).toBeGreaterThan(0);
    const notes = (await scrape('notes')).samples;
    expect(
      metricValue(notes, 'rpc_server_duration_seconds_count', { ...handled, service: 'notes' }),
    ).toBeGreaterThanOrEqual(notesBefore + 1);

    // No identifier of the account or the note became a label value anywhere.
    const secrets = [account.user.id, account.identity.email, account.identity.username, note.id];
    for (const name of Object.keys(PROCESSES) as ProcessName[]) {
      const values = (await scrape(name)).samples.flatMap((s) => Object.values(s.labels));
      expect({ name, leaked: values.filter((v) => secrets.some((secret) => v.includes(secret))) }).toEqual({
        name,
        leaked: [],
      });
    }
  });

  it('shows the depth of the scan queue where it is produced and consumed', async () => {
    for (const name of ['files', 'scan'] as const) {
      const { samples } = await scrape(name);
      expect({ name, up: metricValue(samples, 'queue_depth_up', { queue: SCAN_QUEUE }) }).toEqual({
        name,
        up: 1,
      });
    }
  });
});
