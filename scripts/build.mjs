#!/usr/bin/env node
// `npm run build`: compiles every project (TypeScript project references), then the web app.
import { buildAll, ensureDependencies } from './lib/util.mjs';

ensureDependencies();
buildAll();
