#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build` (run by `npm install`).
import { main } from '../dist/cli/main.js';

process.exitCode = await main(process.argv);
