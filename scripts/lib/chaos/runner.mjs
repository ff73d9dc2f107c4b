#!/usr/bin/env node
// A runner in a process of its own, for the tests of what happens when the runner itself dies
// (scripts/lib/chaos/supervision.mjs): it starts the services a JSON argument names with
// startServices, as `npm start` does, and reports their process ids on stdout as JSON lines
// (`{"pids": {...}}`), besides the runner's own log lines. SIGTERM stops it as Ctrl-C stops npm start.
import { join } from 'node:path';
import { setInterval } from 'node:timers';
import { startServices } from '../stack.mjs';
import { ROOT } from '../util.mjs';

const { services, env = {}, policy = {}, logDir } = JSON.parse(process.argv[2]);
const stack = startServices(env, {
  services: services.map((s) => ({ ...s, main: join(ROOT, s.main) })),
  policy,
  logDir,
  quiet: true,
});
let last = '';
const report = () => {
  const line = JSON.stringify({ pids: stack.pids() });
  if (line !== last) console.log(line);
  last = line;
};
setInterval(report, 50).unref();
stack.onGiveUp(async () => {
  await stack.stop();
  process.exit(1);
});
process.on('SIGTERM', async () => {
  await stack.stop();
  process.exit(0);
});
report();
