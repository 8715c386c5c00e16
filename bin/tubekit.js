#!/usr/bin/env node
// Thin launcher: the CLI is bundled into dist/ by `npm run build` (run by `npm install`).
import { fileURLToPath } from 'node:url';
import { loadBundle } from '../dist/src/launcher/load-bundle.js';

const cli = loadBundle(fileURLToPath(new URL('../dist/cli/tubekit.cjs', import.meta.url)));
process.exitCode = await cli.main(process.argv);
