import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { httpClient, isolate, startServiceProcess } from '@bunting/test-stack';
import { ensureConsoleBuilt } from '../../console/scripts/ensure-built.ts';
import { percentile } from './stats.ts';

/**
 * `npm run bench:console`: the web console in headless Chromium against an all-in-one process. How much
 * JavaScript the first page load carries (as sent, brotli, and as gzip would send it), and how long the flags page
 * of a project with 5,000 flags takes to become usable: on a first visit (nothing cached), on a later one, and when
 * moving to it inside the console; and how long a search typed into it takes to answer. Median of five.
 */
const FLAGS = Number(process.env.BENCH_FLAGS ?? 5000);
const ROUNDS = 5;
const median = (samples: number[]) =>
  percentile(
    [...samples].sort((a, b) => a - b),
    50,
  );
const assets = fileURLToPath(new URL('../../console/dist/assets/', import.meta.url));

await ensureConsoleBuilt();
const isolation = await isolate();
const adminToken = '*:*.bench-admin';
const server = await startServiceProcess('all', {
  ...isolation.env,
  LOG_LEVEL: 'error',
  INIT_ADMIN_API_TOKENS: adminToken,
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
try {
  const admin = httpClient(server.url, { authorization: adminToken });
  await admin.post('/api/admin/projects', { id: 'big', name: 'Big' });
  for (let start = 0; start < FLAGS; start += 500) {
    const features = Array.from({ length: Math.min(500, FLAGS - start) }, (_, index) => ({
      name: `flag-${String(start + index).padStart(5, '0')}`,
      type: 'release',
      description: `flag number ${start + index}`,
    }));
    const imported = await admin.post('/api/admin/features-batch/import', {
      project: 'big',
      environment: 'development',
      data: { features, featureStrategies: [], tagTypes: [] },
    });
    if (imported.status !== 200)
      throw new Error(`import answered ${imported.status}: ${JSON.stringify(imported.body)}`);
  }

  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('User name or email').fill('admin');
  await page.getByLabel(/^Password/).fill('unleash4all');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/projects$/);

  const loads: number[] = [];
  const warmLoads: number[] = [];
  const navigations: number[] = [];
  const searches: number[] = [];
  let scripts: { name: string; transferred: number }[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    // A cold load each time: nothing from the browser's cache.
    const fresh = await browser.newContext({ baseURL: server.url, storageState: await context.storageState() });
    const tab = await fresh.newPage();
    const started = Date.now();
    await tab.goto('/projects/big');
    await tab.getByRole('link', { name: `flag-${String(FLAGS - 1).padStart(5, '0')}` }).waitFor({ timeout: 30_000 });
    loads.push(Date.now() - started);
    scripts = await tab.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.endsWith('.js'))
        .map((entry) => ({
          name: new URL(entry.name).pathname.split('/').pop()!,
          transferred: (entry as unknown as { encodedBodySize: number }).encodedBodySize,
        })),
    );
    const typed = Date.now();
    await tab.getByLabel('Search').fill('flag-01234');
    await tab.getByText('1–1 of 1 flags').waitFor({ timeout: 30_000 });
    searches.push(Date.now() - typed);
    // Warm: the same browser again (assets and compiled code cached), a full load and a move from the projects page.
    const again = Date.now();
    await tab.goto('/projects/big');
    await tab.getByRole('link', { name: `flag-${String(FLAGS - 1).padStart(5, '0')}` }).waitFor({ timeout: 30_000 });
    warmLoads.push(Date.now() - again);
    await tab.goto('/projects');
    await tab.getByRole('link', { name: 'Big' }).waitFor();
    const moved = Date.now();
    await tab.getByRole('link', { name: 'Big' }).click();
    await tab.getByRole('link', { name: `flag-${String(FLAGS - 1).padStart(5, '0')}` }).waitFor({ timeout: 30_000 });
    navigations.push(Date.now() - moved);
    await fresh.close();
  }
  const gzipped = await Promise.all(
    scripts.map(
      async (script) =>
        (await stat(`${assets}${script.name}.gz`).catch(() => null))?.size ??
        (await readFile(`${assets}${script.name}`)).length,
    ),
  );
  const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
  console.log(`\nConsole: the flags page of a project with ${FLAGS} flags in headless Chromium, ${ROUNDS} rounds`);
  console.table({
    'first visit: navigation → table shown (median)': `${median(loads)} ms`,
    'later visit (cached): navigation → table shown (median)': `${median(warmLoads)} ms`,
    'from the projects page: click → table shown (median)': `${median(navigations)} ms`,
    'typing a search → its answer shown (median)': `${median(searches)} ms`,
    'JavaScript files loaded': scripts.length,
    'JavaScript as sent (brotli)': kB(scripts.reduce((sum, script) => sum + script.transferred, 0)),
    'JavaScript gzipped': kB(gzipped.reduce((sum, size) => sum + size, 0)),
  });
} finally {
  await browser.close();
  await server.stop();
  await isolation.cleanup();
}
