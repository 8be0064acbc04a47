import { describe, expect, it } from 'vitest';
import { emptyContext, forgetContext, loadSaved, saveContext, toRequestContext } from './playground-context.ts';

function memoryStore(initial?: string) {
  const data = new Map<string, string>(initial === undefined ? [] : [['bunting.playground.contexts', initial]]);
  return {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
  };
}

describe('playground context', () => {
  it('sends only the fields filled in, custom ones as properties', () => {
    const draft = {
      ...emptyContext(),
      userId: ' 42 ',
      properties: [
        { name: 'country', value: 'NO' },
        { name: '', value: 'x' },
        { name: 'plan', value: ' ' },
      ],
    };
    expect(toRequestContext(draft)).toEqual({ appName: 'playground', userId: '42', properties: { country: 'NO' } });
  });

  it('saves contexts by name, newest first, and forgets them', () => {
    const store = memoryStore();
    saveContext(store, 'norway', { ...emptyContext(), userId: '1' });
    saveContext(store, 'sweden', emptyContext());
    expect(
      saveContext(store, 'norway', { ...emptyContext(), userId: '2' }).map((entry) => [
        entry.name,
        entry.context.userId,
      ]),
    ).toEqual([
      ['norway', '2'],
      ['sweden', ''],
    ]);
    expect(forgetContext(store, 'sweden').map((entry) => entry.name)).toEqual(['norway']);
    expect(loadSaved(store)).toHaveLength(1);
  });

  it('treats unreadable storage as nothing saved', () => {
    expect(loadSaved(memoryStore('not json'))).toEqual([]);
    expect(loadSaved(memoryStore('{"a":1}'))).toEqual([]);
    expect(loadSaved(memoryStore('[{"name":"old","context":{"userId":"7"}}]'))[0]!.context).toMatchObject({
      appName: 'playground',
      userId: '7',
      properties: [],
    });
  });
});
