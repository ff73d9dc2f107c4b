// Preloaded (`node --require`) into every service the local runner starts (scripts/lib/stack.mjs),
// so that no service outlives its runner, even one killed with SIGKILL, without the services' own
// code knowing: the runner holds the write end of a pipe on the fd VAULT_RUNNER_PIPE_FD names and
// never writes to it; when the runner dies the kernel closes it and the read end here sees its end.
// The service then stops as on SIGTERM (its shutdown hooks close connections), and exits for good
// after a grace period if something holds it.
'use strict';

const fd = Number(process.env.VAULT_RUNNER_PIPE_FD);
// A process this service starts (the admin's test runner) inherits neither the fd nor the duty.
delete process.env.VAULT_RUNNER_PIPE_FD;

if (Number.isInteger(fd) && fd > 2) {
  const { Socket } = require('node:net');
  let gone = false;
  const onRunnerGone = () => {
    if (gone) return;
    gone = true;
    // stdout and stderr were pipes to the runner too: whatever is logged from now on is lost.
    setTimeout(() => process.exit(1), 10_000).unref();
    process.kill(process.pid, 'SIGTERM');
  };
  const pipe = new Socket({ fd, readable: true, writable: false });
  pipe.on('end', onRunnerGone);
  pipe.on('close', onRunnerGone);
  pipe.on('error', onRunnerGone);
  pipe.resume();
  // Never what keeps the service alive: it ends on its own terms as before.
  pipe.unref();
}
