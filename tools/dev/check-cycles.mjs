#!/usr/bin/env node
// Part of lint: fails when any two source files import each other, directly or around a loop.
// Nx's module boundaries catch cycles between projects; this catches them between files. Type-only
// imports count (no --transform, which would drop them): a circle of types is still a circle.
import { join } from 'node:path';
import { ROOT } from './lib/bootstrap.mjs';
import { run } from './lib/run.mjs';

const SOURCES = ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts', 'tools/*/src/**/*.ts', 'tests/*/src/**/*.ts'];
const code = await run(join(ROOT, 'node_modules', '.bin', 'dpdm'), ['--no-warning', '--no-tree', '--exit-code', 'circular:1', ...SOURCES], { cwd: ROOT });
process.exit(code);
