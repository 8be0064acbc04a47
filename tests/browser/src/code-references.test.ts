import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { sql } from '@bunting/platform';
import { startTestStack, type TestStack } from '@bunting/test-stack';
import { launchBrowser, openPage, screenshot, seriousViolations, signIn } from './browser.ts';

/** A flag's code references on its page, as a developer deciding whether it can go reads them. */
let stack: TestStack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  stack = await startTestStack();
  await stack.admin.post('/api/admin/projects/default/features', { name: 'new-checkout' });
  const recorded = await stack.admin.post('/api/admin/code-references', {
    repository: 'github.com/acme/shop',
    branch: 'main',
    commit: '4f1c2a9e0b7d',
    references: [
      {
        flag: 'new-checkout',
        path: 'src/checkout/page.tsx',
        line: 42,
        context: [
          'export function Page() {',
          "  const on = useFlag('new-checkout');",
          '  return on ? <New /> : <Old />;',
        ],
      },
    ],
    extinctions: [],
  });
  expect(recorded.status, recorded.text).toBe(200);
  await stack.admin.post('/api/admin/code-references', {
    repository: 'gitlab.example.org/shop/api',
    branch: 'main',
    commit: '9d8e7f',
    references: [],
    extinctions: [
      { flag: 'new-checkout', commit: '9d8e7f6a5b4c3d2e', author: 'Ada', removedAt: '2026-11-30T10:00:00Z' },
    ],
  });
  browser = await launchBrowser();
  page = await openPage(browser, stack.url);
  await page.goto('/projects/default/features/new-checkout');
  await signIn(page, 'admin', 'unleash4all');
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.dispose();
});

it("shows a flag's references with links to the lines, and where its last reference was removed", async () => {
  const table = page.getByRole('table', { name: 'Code references' });
  await table.waitFor();
  const link = table.getByRole('link', { name: 'src/checkout/page.tsx:42' });
  expect(await link.getAttribute('href')).toBe('https://github.com/acme/shop/blob/main/src/checkout/page.tsx#L42');
  expect(await table.textContent()).toContain("const on = useFlag('new-checkout');");
  await page.getByText('Last reference in gitlab.example.org/shop/api (main) removed on 2026-11-30 by Ada').waitFor();
  await page.getByRole('heading', { name: 'Code references' }).scrollIntoViewIfNeeded();
  await screenshot(page, 'code-references');
  expect(JSON.stringify(await seriousViolations(page), null, 1)).toBe('[]');
});

it('lists the flags that look safe to remove across projects, and says why', async () => {
  await stack.admin.post('/api/admin/projects/default/features', { name: 'old-experiment', type: 'experiment' });
  await stack.admin.post('/api/admin/projects/default/features/old-experiment/lifecycle/complete', {
    status: 'discarded',
  });
  // Forty days pass.
  await stack.db.query(
    sql.unsafe`update admin.features set created_at = now() - interval '40 days' where name = 'old-experiment'`,
  );
  await page.getByRole('link', { name: 'Cleanup', exact: true }).click();
  await page.getByRole('heading', { name: 'Flags to clean up', level: 1 }).waitFor();
  const row = page.getByRole('table', { name: 'Flags to clean up' }).getByRole('row', { name: /old-experiment/ });
  await row.waitFor();
  expect(await row.textContent()).toContain('completed (discarded)');
  expect(await row.textContent()).toContain('never');
  // new-checkout is used in code (and not done): it is not listed.
  expect(await page.getByRole('table', { name: 'Flags to clean up' }).textContent()).not.toContain('new-checkout');
  await screenshot(page, 'cleanup');
  expect(JSON.stringify(await seriousViolations(page), null, 1)).toBe('[]');
});
