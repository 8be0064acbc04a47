import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { startTestStack, type TestStack } from '@bunting/test-stack';
import { launchBrowser, openPage, screenshot, seriousViolations, signIn } from './browser.ts';

/**
 * Every editor of the flag page, each checked against what the admin API then holds: a custom strategy's declared
 * parameters, constraints of each kind, strategy and environment variants, order, disable, copy and delete,
 * tags, dependencies, stale, archive, revive and delete.
 */

let stack: TestStack;
let browser: Browser;
let page: Page;
const flagPath = '/api/admin/projects/default/features/editing';

type Strategy = {
  id: string;
  name: string;
  title: string | null;
  disabled: boolean;
  parameters: Record<string, string>;
  constraints: unknown[];
  variants: unknown[];
};
async function strategiesIn(environment: string): Promise<Strategy[]> {
  const flag = (await stack.admin.get(flagPath)).body;
  return flag.environments.find((candidate: { name: string }) => candidate.name === environment).strategies;
}

async function choose(scope: Locator, field: string, option: string) {
  await scope.getByRole('combobox', { name: field }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

const development = () => page.getByRole('region', { name: 'development' });

beforeAll(async () => {
  stack = await startTestStack();
  await stack.admin.post('/api/admin/projects/default/features', { name: 'editing', type: 'release' });
  await stack.admin.post('/api/admin/projects/default/features', { name: 'parent-flag', type: 'release' });
  await stack.admin.put('/api/admin/projects/default/features/parent-flag/environments/development/variants', [
    { name: 'blue', weight: 0, weightType: 'variable' },
  ]);
  await stack.admin.post('/api/admin/context', {
    name: 'country',
    legalValues: [{ value: 'NO', description: 'Norway' }, { value: 'SE' }, { value: 'DK' }],
  });
  await stack.admin.post('/api/admin/strategies', {
    name: 'regionRollout',
    description: 'Turns the flag on in some regions',
    parameters: [
      { name: 'regions', type: 'list', required: true },
      { name: 'share', type: 'percentage' },
      { name: 'limit', type: 'number' },
      { name: 'beta', type: 'boolean' },
      { name: 'note', type: 'string', required: true },
    ],
  });
  browser = await launchBrowser();
  page = await openPage(browser, stack.url);
  await page.goto('/projects/default/features/editing');
  await signIn(page, 'admin', 'unleash4all');
  await page.getByRole('heading', { name: 'editing', level: 1 }).waitFor();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.dispose();
});

describe('editing a flag in the console', () => {
  it('adds a custom strategy through the parameters it declares, refusing it until required ones are given', async () => {
    await development().getByRole('button', { name: 'Add strategy in development' }).click();
    await page.getByRole('menuitem', { name: 'regionRollout' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Turns the flag on in some regions').waitFor();
    await dialog.getByRole('button', { name: 'Save strategy' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'need attention' }).waitFor();
    expect(await dialog.getByText('Required').count()).toBe(2);

    await dialog.getByRole('textbox', { name: /^regions/ }).fill('north');
    await dialog.getByRole('textbox', { name: /^regions/ }).press('Enter');
    await dialog.getByRole('textbox', { name: /^regions/ }).fill('south');
    await dialog.getByRole('textbox', { name: /^regions/ }).press('Enter');
    await dialog.getByLabel('share percent').fill('30');
    await dialog.getByLabel('limit').fill('12');
    await dialog.getByLabel('beta').check();
    await dialog.getByLabel(/^note/).fill('pilot');
    await screenshot(page, 'custom-strategy');
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Save strategy' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const [saved] = await strategiesIn('development');
    expect(saved).toMatchObject({
      name: 'regionRollout',
      parameters: { regions: 'north,south', share: '30', limit: '12', beta: 'true', note: 'pilot' },
    });
  });

  it('adds constraints of every kind, checking single values before sending them', async () => {
    await development().getByRole('button', { name: 'Add strategy in development' }).click();
    await page.getByRole('menuitem', { name: 'Standard' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Title').fill('Nordic testers');
    await dialog.getByRole('tab', { name: /Constraints/ }).click();

    // A number: refused beside the field until it is one.
    await dialog.getByRole('button', { name: 'Add constraint' }).click();
    const number = dialog.getByRole('group', { name: 'Constraint 1' });
    await choose(number, 'Context field', 'userId');
    await choose(number, 'Operator', '> (number)');
    await number.getByLabel('Number').fill('ten');
    await number.getByText('"ten" is not a number').waitFor();
    await number.getByLabel('Number').fill('10');

    // A version, inverted.
    await dialog.getByRole('button', { name: 'Add constraint' }).click();
    const version = dialog.getByRole('group', { name: 'Constraint 2' });
    await choose(version, 'Context field', 'appName');
    await choose(version, 'Operator', '= (version)');
    await version.getByLabel('Not').check();
    await version.getByLabel('Version').fill('2.0.0');

    // Text, case-insensitive.
    await dialog.getByRole('button', { name: 'Add constraint' }).click();
    const text = dialog.getByRole('group', { name: 'Constraint 3' });
    await choose(text, 'Context field', 'userId');
    await choose(text, 'Operator', 'ends with');
    await text.getByLabel('Case-insensitive').check();
    await text.getByLabel('Values').fill('@example.com, @example.org');
    await text.getByLabel('Values').press('Enter');

    // A field with legal values offers them.
    await dialog.getByRole('button', { name: 'Add constraint' }).click();
    const country = dialog.getByRole('group', { name: 'Constraint 4' });
    await choose(country, 'Context field', 'country');
    await country.getByRole('combobox', { name: 'Values' }).click();
    await page.getByRole('option', { name: 'NO — Norway' }).click();
    await page.getByRole('option', { name: 'SE', exact: true }).click();
    await page.keyboard.press('Tab');

    // A date from the picker.
    await dialog.getByRole('button', { name: 'Add constraint' }).click();
    const date = dialog.getByRole('group', { name: 'Constraint 5' });
    await choose(date, 'Context field', 'currentTime');
    await choose(date, 'Operator', 'is after (date)');
    await date.getByLabel('Date and time').click();
    await page.getByRole('button', { name: 'Next month' }).click();
    await page.getByRole('button').filter({ hasText: /^15$/ }).first().click();
    await page.getByRole('button', { name: 'Use this date and time' }).click();
    await page.getByRole('button', { name: 'Use this date and time' }).waitFor({ state: 'hidden' });
    await screenshot(page, 'constraints');
    expect(await seriousViolations(page)).toEqual([]);

    await dialog.getByRole('button', { name: 'Save strategy' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const saved = (await strategiesIn('development')).find((strategy) => strategy.title === 'Nordic testers')!;
    expect(saved.constraints).toEqual([
      { contextName: 'userId', operator: 'NUM_GT', value: '10', values: [], inverted: false, caseInsensitive: false },
      {
        contextName: 'appName',
        operator: 'SEMVER_EQ',
        value: '2.0.0',
        values: [],
        inverted: true,
        caseInsensitive: false,
      },
      {
        contextName: 'userId',
        operator: 'STR_ENDS_WITH',
        values: ['@example.com', '@example.org'],
        inverted: false,
        caseInsensitive: true,
      },
      { contextName: 'country', operator: 'IN', values: ['NO', 'SE'], inverted: false, caseInsensitive: false },
      expect.objectContaining({ contextName: 'currentTime', operator: 'DATE_AFTER', inverted: false }),
    ]);
    const after = new Date((saved.constraints[4] as { value: string }).value);
    expect(after.getTime()).toBeGreaterThan(Date.now());
  });

  it('gives a strategy variants, refusing JSON that does not parse', async () => {
    const card = development().getByRole('group', { name: 'Strategy Nordic testers (Standard)' });
    await card.getByRole('button', { name: 'Edit Nordic testers (Standard)' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('tab', { name: /Variants/ }).click();
    await dialog.getByRole('button', { name: 'Add variant' }).click();
    await dialog.getByRole('button', { name: 'Add variant' }).click();
    const first = dialog.getByRole('group', { name: 'Variant 1' });
    await first.getByLabel('Variant name').fill('control');
    await choose(first, 'Weight', 'Fixed');
    await first.getByLabel('Percent').fill('30');
    const second = dialog.getByRole('group', { name: 'Variant 2' });
    await second.getByLabel('Variant name').fill('treatment');
    await second.getByLabel('treatment gets 70 percent').waitFor();
    await choose(second, 'Payload', 'JSON');
    await second.getByLabel('Payload value').fill('{"colour": blue}');
    await second.getByText(/Not valid JSON/).waitFor();
    await dialog.getByRole('button', { name: 'Save strategy' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'see Variants' }).waitFor();
    await second.getByLabel('Payload value').fill('{"colour": "blue"}');
    await dialog.getByRole('button', { name: 'Save strategy' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const saved = (await strategiesIn('development')).find((strategy) => strategy.title === 'Nordic testers')!;
    expect(saved.variants).toEqual([
      { name: 'control', weight: 300, weightType: 'fix', stickiness: 'default' },
      {
        name: 'treatment',
        weight: 700,
        weightType: 'variable',
        stickiness: 'default',
        payload: { type: 'json', value: '{"colour": "blue"}' },
      },
    ]);
  });

  it("sets the environment's variants with an override", async () => {
    await development().getByRole('button', { name: 'Edit variants in development' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Add variant' }).click();
    await dialog.getByRole('button', { name: 'Add variant' }).click();
    await dialog.getByRole('group', { name: 'Variant 1' }).getByLabel('Variant name').fill('old');
    const fresh = dialog.getByRole('group', { name: 'Variant 2' });
    await fresh.getByLabel('Variant name').fill('new');
    await choose(fresh, 'Payload', 'Number');
    await fresh.getByLabel('Payload value').fill('42');
    await fresh.getByRole('button', { name: 'Add override' }).click();
    const override = fresh.getByRole('group', { name: 'Override 1 of new' });
    await override.getByLabel('Values that get this variant').fill('vip-1');
    await override.getByLabel('Values that get this variant').press('Enter');
    await dialog.getByRole('button', { name: 'Save variants' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await development().getByRole('table', { name: 'Variants in development' }).getByText('new').waitFor();
    const variants = (await stack.admin.get(`${flagPath}/environments/development/variants`)).body.variants;
    expect(variants).toEqual([
      {
        name: 'new',
        weight: 500,
        weightType: 'variable',
        stickiness: 'default',
        payload: { type: 'number', value: '42' },
        overrides: [{ contextName: 'userId', values: ['vip-1'] }],
      },
      { name: 'old', weight: 500, weightType: 'variable', stickiness: 'default' },
    ]);
  });

  it('reorders, disables, copies and deletes strategies', async () => {
    expect((await strategiesIn('development')).map((strategy) => strategy.name)).toEqual(['regionRollout', 'default']);
    await development().getByRole('button', { name: 'Move regionRollout down' }).click();
    // The button is there (disabled) while regionRollout is first; it turns enabled once the new order is read back.
    await development().getByRole('button', { name: 'Move regionRollout up', disabled: false }).waitFor();
    expect((await strategiesIn('development')).map((strategy) => strategy.name)).toEqual(['default', 'regionRollout']);

    await development().getByRole('button', { name: 'More actions for regionRollout' }).click();
    await page.getByRole('menuitem', { name: 'Disable strategy' }).click();
    await development().getByRole('group', { name: 'Strategy regionRollout' }).getByText('disabled').waitFor();
    expect((await strategiesIn('development')).find((strategy) => strategy.name === 'regionRollout')!.disabled).toBe(
      true,
    );

    await development().getByRole('button', { name: 'More actions for Nordic testers (Standard)' }).click();
    await page.getByRole('menuitem', { name: 'production' }).click();
    await page
      .getByRole('region', { name: 'production' })
      .getByRole('group', { name: 'Strategy Nordic testers (Standard)' })
      .waitFor();
    const copied = (await strategiesIn('production')).find((strategy) => strategy.title === 'Nordic testers')!;
    const original = (await strategiesIn('development')).find((strategy) => strategy.title === 'Nordic testers')!;
    expect(copied.id).not.toBe(original.id);
    expect({ ...copied, id: '' }).toEqual({ ...original, id: '' });

    await development().getByRole('button', { name: 'Delete regionRollout' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await development().getByRole('group', { name: 'Strategy regionRollout' }).waitFor({ state: 'detached' });
    expect((await strategiesIn('development')).map((strategy) => strategy.name)).toEqual(['default']);
  });

  it('adds and removes tags and a dependency on a parent flag', async () => {
    await page.getByLabel('Tag value').fill('checkout-team');
    await page.getByRole('button', { name: 'Add tag' }).click();
    await page.getByText('simple:checkout-team').waitFor();
    expect((await stack.admin.get('/api/admin/features/editing/tags')).body.tags).toEqual([
      { type: 'simple', value: 'checkout-team', color: null },
    ]);

    await page.getByRole('combobox', { name: 'Parent flag' }).fill('parent');
    await page.getByRole('option', { name: 'parent-flag' }).click();
    // The pills box around the input takes the click that opens the list.
    await page
      .getByRole('combobox', { name: 'With variant' })
      .locator('xpath=ancestor::div[contains(@class, "mantine-MultiSelect-input")]')
      .click();
    await page.getByRole('option', { name: 'blue' }).click();
    await page.keyboard.press('Tab');
    await page.getByRole('button', { name: 'Add dependency' }).click();
    await page.getByRole('table', { name: 'Parent flags' }).getByText('must be on with blue').waitFor();
    expect((await stack.admin.get(flagPath)).body.dependencies).toEqual([
      { feature: 'parent-flag', enabled: true, variants: ['blue'] },
    ]);
    await screenshot(page, 'flag-edited');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Remove dependency on parent-flag' }).click();
    await page.getByText('Depends on no other flag.').waitFor();
    await page.getByRole('button', { name: 'Remove tag simple:checkout-team' }).click();
    await page.getByText('No tags.').waitFor();
    expect((await stack.admin.get(flagPath)).body).toMatchObject({ dependencies: [], tags: [] });
  });

  it('marks the flag stale, archives, revives and deletes it', async () => {
    await page.getByRole('button', { name: 'Mark stale' }).click();
    await page.getByRole('button', { name: 'Mark active' }).waitFor();
    expect((await stack.admin.get(flagPath)).body.stale).toBe(true);

    await page.getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('button', { name: 'Revive' }).waitFor();
    expect((await stack.admin.get(`${flagPath}?archived=true`)).body.archived).toBe(true);

    await page.getByRole('button', { name: 'Revive' }).click();
    await page.getByRole('button', { name: 'Archive' }).waitFor();
    expect((await stack.admin.get(flagPath)).body.archived).toBe(false);

    await page.getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete for good' }).click();
    await page.waitForURL(/\/projects\/default$/);
    expect((await stack.admin.get(flagPath)).status).toBe(404);
  });
});
