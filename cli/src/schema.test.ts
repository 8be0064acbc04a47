import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { parseProject } from './files.ts';
import { projectSchema } from './schema.ts';

it('publishes the JSON Schema of the project file it reads (npm run build -w @bunting/cli writes it)', async () => {
  const committed = JSON.parse(
    await readFile(new URL('../schema/bunting-project.schema.json', import.meta.url), 'utf8'),
  );
  expect(committed).toEqual(JSON.parse(JSON.stringify(projectSchema())));
  expect(Object.keys(committed.properties)).toEqual(
    expect.arrayContaining(['project', 'environments', 'changeRequests', 'flags', 'segments', 'contextFields']),
  );
  expect(committed.additionalProperties).toBe(false);
});

it('points at the line of a value the file gets wrong, and of a key it does not know', () => {
  const text = 'project: shop\nflags:\n  a:\n    environments:\n      development:\n        enabled: yes-please\n';
  expect(() => parseProject('shop.yaml', text)).toThrow(
    /^shop\.yaml:6: flags\.a\.environments\.development\.enabled: /,
  );
  expect(() => parseProject('shop.yaml', 'project: shop\nflag:\n  a: {}\n')).toThrow(
    /^shop\.yaml:2: Unrecognized key: "flag"/,
  );
  expect(() => parseProject('shop.yaml', 'project: [unclosed\n')).toThrow(/^shop\.yaml:\d+: /);
});
