#!/usr/bin/env node
// Installed from npm, the built file runs (Node strips no types under node_modules); in this repository, the source,
// so a stale build is never what runs here.
import { existsSync } from 'node:fs';

const built = new URL('../dist/bunting-mcp.mjs', import.meta.url);
const installed = import.meta.url.includes('/node_modules/') && existsSync(built);
await import(installed ? built.href : new URL('../src/stdio-main.ts', import.meta.url).href);
