import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { httpClient, isolate, startServiceProcess } from '@bunting/test-stack';
import { round } from './stats.ts';

/**
 * `npm run bench:flags-as-code`: how long `bunting plan` and `apply` take for a project of `CODE_FLAGS` flags (default
 * 5,000), each on in development with a gradual rollout and a constraint and off in production, against an
 * all-in-one process: the first plan and apply (everything to create), a plan with nothing to do, a change to one
 * flag in ten, and an export.
 */
const count = Number(process.env.CODE_FLAGS ?? 5000);
const adminToken = '*:*.flags-as-code-admin';
const cli = fileURLToPath(new URL('../../cli/src/bin.ts', import.meta.url));
const isolation = await isolate();
const server = await startServiceProcess('all', {
  ...isolation.env,
  LOG_LEVEL: 'error',
  INIT_ADMIN_API_TOKENS: adminToken,
});

function bunting(args: readonly string[]): Promise<{ seconds: number; code: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      [cli, ...args],
      { env: { ...process.env, BUNTING_URL: server.url, BUNTING_TOKEN: adminToken }, maxBuffer: 256 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        if (code === 1) reject(new Error(stderr));
        else resolve({ seconds: round((performance.now() - started) / 1000, 1), code });
      },
    ),
  );
}

function projectFile(description: (index: number) => string): string {
  const lines = ['project: code', 'flags:'];
  for (let index = 0; index < count; index++) {
    lines.push(
      `  flag-${index}:`,
      `    description: ${description(index)}`,
      '    environments:',
      '      development:',
      '        enabled: true',
      '        strategies:',
      '          - name: flexibleRollout',
      `            parameters: { rollout: ${index % 100}, stickiness: default }`,
      '            constraints: [{ contextName: region, operator: IN, values: [eu, us] }]',
      '      production:',
      '        enabled: false',
    );
  }
  return `${lines.join('\n')}\n`;
}

try {
  await httpClient(server.url, { authorization: adminToken }).post('/api/admin/projects', { id: 'code', name: 'code' });
  const dir = await mkdtemp(join(tmpdir(), 'bunting-bench-'));
  const file = join(dir, 'code.yaml');
  await writeFile(
    file,
    projectFile((index) => `Flag ${index}`),
  );
  const firstPlan = await bunting(['plan', '--dir', dir]);
  const firstApply = await bunting(['apply', '--dir', dir]);
  const emptyPlan = await bunting(['plan', '--dir', dir]);
  await writeFile(
    file,
    projectFile((index) => (index % 10 === 0 ? `Flag ${index}, changed` : `Flag ${index}`)),
  );
  const tenthApply = await bunting(['apply', '--dir', dir]);
  const exported = await bunting([
    'export',
    '--project',
    'code',
    '--out',
    await mkdtemp(join(tmpdir(), 'bunting-bench-')),
  ]);
  if (emptyPlan.code !== 0) throw new Error('the plan after apply was not empty');
  console.table([
    {
      flags: count,
      'plan, all new (s)': firstPlan.seconds,
      'apply, all new (s)': firstApply.seconds,
      'plan, no change (s)': emptyPlan.seconds,
      'apply, 1 in 10 changed (s)': tenthApply.seconds,
      'export (s)': exported.seconds,
    },
  ]);
} finally {
  await server.stop();
  await isolation.cleanup();
}
