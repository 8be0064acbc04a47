import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '@bunting/platform';
import { featureSetOf } from '../snapshots/feature-set.ts';
import { filePersistence } from './edge-persistence.ts';

const log = createLogger('silent', 'persistence-test');
const flag = (name: string, enabled: boolean) => ({
  name,
  project: 'default',
  enabled,
  type: 'release',
  strategies: [{ name: 'default', constraints: [], parameters: {} }],
  variants: [],
});
const scope = 'development\u0000default';
const dirs: string[] = [];
const newDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'bunting-edge-persistence-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the edge's persisted scopes", () => {
  it('give back where each feed was and its flags after a restart', async () => {
    const dir = newDir();
    const before = await filePersistence(dir, log);
    before.saveScope(
      scope,
      'development',
      { lastEventId: '41' },
      featureSetOf({ features: [flag('a', true)], segments: [] }),
    );
    await before.close();

    const restored = (await (await filePersistence(dir, log)).load()).scopes.get(scope);
    expect(restored?.position).toEqual({ lastEventId: '41' });
    const set = await restored!.read();
    expect(set?.features.get('a')?.enabled).toBe(true);
  });

  it('do not resume from flags that are not the ones saved with the position', async () => {
    const dir = newDir();
    const first = await filePersistence(dir, log);
    first.saveScope(
      scope,
      'development',
      { lastEventId: '41' },
      featureSetOf({ features: [flag('a', true)], segments: [] }),
    );
    await first.close();
    const older = join(newDir(), 'scope');
    const scopeFile = readdirSync(dir).find((name) => name.startsWith('scope-'))!;
    copyFileSync(join(dir, scopeFile), older);

    const second = await filePersistence(dir, log);
    await second.load();
    second.saveScope(
      scope,
      'development',
      { lastEventId: '42' },
      featureSetOf({ features: [flag('a', false)], segments: [] }),
    );
    await second.close();
    // The write of the flags failed, the position's did not: the older flags are there with the newer position.
    copyFileSync(older, join(dir, scopeFile));

    const restored = (await (await filePersistence(dir, log)).load()).scopes.get(scope);
    expect(restored?.position).toEqual({ lastEventId: '42' });
    expect(await restored!.read()).toBeUndefined();
  });

  it('forget a scope no longer followed', async () => {
    const dir = newDir();
    const before = await filePersistence(dir, log);
    before.saveScope(
      scope,
      'development',
      { deltaEtag: '"r1"' },
      featureSetOf({ features: [flag('a', true)], segments: [] }),
    );
    await before.close();
    const again = await filePersistence(dir, log);
    await again.load();
    again.dropScope(scope);
    await again.close();

    expect((await (await filePersistence(dir, log)).load()).scopes.size).toBe(0);
    expect(readdirSync(dir).filter((name) => name.startsWith('scope-'))).toEqual([]);
  });

  it('give back an environment as the flags of its scopes, at the revision it was installed at', async () => {
    const dir = newDir();
    const before = await filePersistence(dir, log);
    before.saveScope(
      scope,
      'development',
      { lastEventId: '7' },
      featureSetOf({ features: [flag('a', true)], segments: [] }),
    );
    before.saveScope(
      'development\u0000other',
      'development',
      {},
      featureSetOf({ features: [flag('b', true)], segments: [] }),
    );
    before.saveScope(
      'production\u0000default',
      'production',
      {},
      featureSetOf({ features: [flag('c', true)], segments: [] }),
    );
    before.saveRevision('development', 12);
    await before.close();

    const { environments } = await (await filePersistence(dir, log)).load();
    expect(environments.map(({ environment, revision }) => ({ environment, revision }))).toEqual([
      { environment: 'development', revision: 12 },
    ]);
    const kept = await environments[0]!.read();
    expect(kept?.revision).toBe(12);
    expect(kept?.snapshot.features.map((feature) => feature.name).sort()).toEqual(['a', 'b']);
  });

  it('read an environment kept whole by an edge of before, and remove it once a scope of it is kept', async () => {
    const dir = newDir();
    const snapshot = { environment: 'development', features: [flag('old', true)], segments: [] };
    writeFileSync(join(dir, 'environment-development.json.gz'), gzipSync(JSON.stringify({ revision: 3, snapshot })));
    writeFileSync(join(dir, 'revisions.json.gz'), gzipSync(JSON.stringify({ development: 3 })));

    const upgraded = await filePersistence(dir, log);
    const { environments } = await upgraded.load();
    expect((await environments[0]!.read())?.snapshot.features.map((feature) => feature.name)).toEqual(['old']);
    upgraded.saveScope(scope, 'development', {}, featureSetOf({ features: [flag('new', true)], segments: [] }));
    await upgraded.close();
    expect(readdirSync(dir)).not.toContain('environment-development.json.gz');
  });
});
