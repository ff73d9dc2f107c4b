#!/usr/bin/env node
// `npm run build`: compiles every project (TypeScript project references).
import { join } from 'node:path';
import { ROOT, ensureDependencies, run } from './lib/util.mjs';

ensureDependencies();
run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'tsconfig.json']);
