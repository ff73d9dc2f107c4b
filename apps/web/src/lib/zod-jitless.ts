/**
 * zod (used by @vault/contracts) probes `new Function("")` to decide whether it may compile fast
 * parsers. Under this app's CSP (no 'unsafe-eval') the probe is refused and reported as a
 * `securitypolicyviolation`, even though zod catches it. Jitless mode skips the probe. The flag
 * is read when a schema is created, so main.tsx imports this module before anything else.
 */
import { config } from 'zod';

config({ jitless: true });
