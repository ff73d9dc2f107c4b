// A stand-in service for the runner's own tests (scripts/lib/chaos/supervision.mjs): it stays up
// and answers a TCP port like a service, or, with CHAOS_FAKE_CRASH=1, fails at once as a service
// with a bad configuration does.
import { createServer } from 'node:net';

if (process.env.CHAOS_FAKE_CRASH === '1') {
  console.error('[fake] invalid configuration: CHAOS_FAKE_CRASH is set');
  process.exit(1);
}
const server = createServer((socket) => socket.end('ok\n'));
server.listen(0, '127.0.0.1', () => console.log(`[fake] up, pid ${process.pid}`));
process.on('SIGTERM', () => {
  console.log('[fake] stopping');
  server.close(() => process.exit(0));
});
