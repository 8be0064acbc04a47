import { describe, expect, it } from 'vitest';
import { filesUnder, read, servicesWithMigrations, sliceOf } from './source-files.ts';
import { tablesCreated, tablesWritten } from './write-statements.ts';

/**
 * One rule set for every service (the dependency rules are in .dependency-cruiser.cjs): SQL is written only in
 * stores, and each table is written only by the store of the slice that owns it, as the service's
 * table-owners.json says. A new table is added to that map with its migration.
 */
const sources = (service: string) =>
  filesUnder(`services/${service}/src`, (name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
const SQL = /\bsql\s*\.|\bsql`/;
const schemaOf = (service: string) => service.replace(/-api$/, '').replace(/-/g, '_');

describe('every service', () => {
  it('keeps every SQL statement in a *-store.ts file', () => {
    const offenders = filesUnder('services', (name) => name.endsWith('.ts') && !name.endsWith('.test.ts')).filter(
      (file) => file.split('/')[2] === 'src' && !file.endsWith('-store.ts') && SQL.test(read(file)),
    );
    expect(offenders).toEqual([]);
  });

  for (const service of servicesWithMigrations()) {
    describe(service, () => {
      const owners = JSON.parse(read(`services/${service}/table-owners.json`)) as Record<string, string>;

      it('names an owning slice for every table its migrations create', () => {
        const created = filesUnder(`services/${service}/migrations`, (name) => name.endsWith('.sql')).flatMap((file) =>
          tablesCreated(schemaOf(service), read(file)),
        );
        expect(created.filter((table) => owners[table] === undefined)).toEqual([]);
      });

      it('writes each table only from the store of the slice that owns it, naming the table in full', () => {
        const wrong: string[] = [];
        for (const file of sources(service).filter((name) => name.endsWith('-store.ts'))) {
          const text = read(file);
          if (/\b(insert\s+into|update|delete\s+from)\s+\$\{/i.test(text))
            wrong.push(`${file} writes a table named at run time`);
          for (const table of tablesWritten(text)) {
            if (owners[table] !== sliceOf(file))
              wrong.push(`${file} writes ${table}, owned by ${owners[table] ?? 'no slice (not in table-owners.json)'}`);
          }
        }
        expect(wrong).toEqual([]);
      });
    });
  }
});

describe('the launcher', () => {
  it('hardens the prototypes before it loads any service code', () => {
    const main = read('launcher/src/main.ts');
    const staticImports = [...main.matchAll(/^import .* from '([^']+)';$/gm)].map((match) => match[1]);
    // Static imports run before the module's body: only the hardening itself (and Node's own modules) may come first.
    expect(staticImports.filter((name) => !name!.startsWith('node:'))).toEqual(['@bunting/platform/prototype-safety']);
    expect(main.indexOf('hardenPrototypes();')).toBeGreaterThan(0);
    expect(main.indexOf('hardenPrototypes();')).toBeLessThan(main.indexOf("await import('./launch.ts')"));
  });
});

describe("admin-api's writes", () => {
  const stores = filesUnder('services/admin-api/src', (name) => name.endsWith('-store.ts'));
  const WRITES = /\b(insert\s+into|update|delete\s+from)\s+admin\./i;

  it('go through the unit of work: a store method that writes takes its transaction (WriteTx), never the pool', () => {
    const wrong: string[] = [];
    for (const file of stores) {
      const lines = read(file).split('\n');
      // The store object's members, at two spaces: `name(db: ...) {`, `async name(...)`, `name: (db: ...) =>`.
      const members = lines.flatMap((line, index) =>
        /^ {2}(async\s+)?\w+(<[^>]*>)?(\(|: \()/.test(line) ? [index] : [],
      );
      members.forEach((start, position) => {
        const body = lines.slice(start, members[position + 1] ?? lines.length).join('\n');
        // The signature, which the formatter may spread over several lines.
        const head = body.slice(0, body.indexOf('{\n') + 1 || undefined);
        if (WRITES.test(body) && !/\(\s*\w+: WriteTx\b/.test(head))
          wrong.push(
            `${file}:${start + 1} writes through ${/\(\s*\w+: (\w+)/.exec(head)?.[1] ?? 'an untyped connection'}`,
          );
      });
    }
    expect(wrong).toEqual([]);
  });

  it('made outside a change are record keeping by background work, never by a route', () => {
    const routes = filesUnder('services/admin-api/src', (name) => name.endsWith('-routes.ts'));
    expect(routes.filter((file) => /recordKeeping|\.transaction\(/.test(read(file)))).toEqual([]);
  });
});
