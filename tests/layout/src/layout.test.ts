import { describe, expect, it } from 'vitest';
import { filesUnder, read, servicesWithMigrations, sliceOf } from './source-files.ts';
import { tablesCreated, tablesWritten } from './write-statements.ts';

/**
 * One rule set for every service (the dependency rules are in .dependency-cruiser.cjs): SQL is written only in
 * stores, and each table is written only by the store of the slice that owns it, as the service's
 * table-owners.json says. A new table is added to that map with its migration.
 */
const sources = (service: string) => filesUnder(`services/${service}/src`, (name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
const SQL = /\bsql\s*\.|\bsql`/;
const schemaOf = (service: string) => service.replace(/-api$/, '').replace(/-/g, '_');

describe('every service', () => {
  it('keeps every SQL statement in a *-store.ts file', () => {
    const offenders = filesUnder('services', (name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .filter((file) => file.split('/')[2] === 'src' && !file.endsWith('-store.ts') && SQL.test(read(file)));
    expect(offenders).toEqual([]);
  });

  for (const service of servicesWithMigrations()) {
    describe(service, () => {
      const owners = JSON.parse(read(`services/${service}/table-owners.json`)) as Record<string, string>;

      it('names an owning slice for every table its migrations create', () => {
        const created = filesUnder(`services/${service}/migrations`, (name) => name.endsWith('.sql')).flatMap((file) => tablesCreated(schemaOf(service), read(file)));
        expect(created.filter((table) => owners[table] === undefined)).toEqual([]);
      });

      it('writes each table only from the store of the slice that owns it, naming the table in full', () => {
        const wrong: string[] = [];
        for (const file of sources(service).filter((name) => name.endsWith('-store.ts'))) {
          const text = read(file);
          if (/\b(insert\s+into|update|delete\s+from)\s+\$\{/i.test(text)) wrong.push(`${file} writes a table named at run time`);
          for (const table of tablesWritten(text)) {
            if (owners[table] !== sliceOf(file)) wrong.push(`${file} writes ${table}, owned by ${owners[table] ?? 'no slice (not in table-owners.json)'}`);
          }
        }
        expect(wrong).toEqual([]);
      });
    });
  }
});
