#!/usr/bin/env node
// `npm start`: the whole product on http://localhost:8080, from a fresh clone.
import { ensureScanner, localEnv, prepare, startServices, waitHealthy } from './lib/stack.mjs';
import { log, paint } from './lib/util.mjs';

const env = localEnv({ LOG_PRETTY: process.env.LOG_PRETTY ?? (process.stdout.isTTY ? 'true' : 'false') });

try {
  await prepare(env);
} catch (error) {
  console.error(`\n${error instanceof Error ? error.message : error}`);
  process.exit(1);
}

const scanner = await ensureScanner(env);
const stack = startServices(env);
let exiting = false;
async function shutdown(code) {
  if (exiting) return;
  exiting = true;
  log('stopping...');
  await stack.stop();
  await scanner.stop();
  log('stopped');
  process.exit(code);
}
// A crashed service is restarted by the runner (startServices); one that cannot stay up stops it all.
stack.onGiveUp(() => shutdown(1));
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

const url = `http://localhost:${env.GATEWAY_PORT}`;
try {
  await waitHealthy(`http://127.0.0.1:${env.GATEWAY_PORT}`);
  log(paint(32, `Vault is running at ${url}  (API docs: ${url}/api/docs; Ctrl-C stops)`));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  await shutdown(1);
}
