import { describe, expect, it } from 'vitest';
import { readFilters, searchQuery, writeFilters } from './flag-filters.ts';

describe('flag filters', () => {
  it('reads defaults from an empty address and writes nothing back', () => {
    const filters = readFilters(new URLSearchParams());
    expect(filters).toMatchObject({
      query: '',
      sortBy: 'createdAt',
      sortOrder: 'desc',
      page: 1,
      pageSize: 25,
      archived: false,
    });
    expect(writeFilters(filters).toString()).toBe('');
  });

  it('round-trips a filtered view through the address', () => {
    const address = new URLSearchParams(
      'q=checkout&type=release,kill-switch&tag=team:web&state=stale&status=production:enabled&archived=true&sort=name&order=desc&page=3&size=100',
    );
    expect(writeFilters(readFilters(address)).toString()).toBe(address.toString());
  });

  it('ignores values it does not know', () => {
    expect(readFilters(new URLSearchParams('sort=secret&size=7&page=-2&state=odd'))).toMatchObject({
      sortBy: 'createdAt',
      pageSize: 25,
      page: 1,
      state: '',
    });
  });

  it('asks the search API in its own grammar, paged', () => {
    const filters = readFilters(
      new URLSearchParams('q=%20dark%20&type=release&tag=team:web,simple:x&state=active&page=2&size=50'),
    );
    expect(searchQuery('web', filters)).toEqual({
      project: 'IS:web',
      query: 'dark',
      type: 'IS_ANY_OF:release',
      tag: 'INCLUDE_ANY_OF:team:web,simple:x',
      state: 'IS:active',
      sortBy: 'createdAt',
      sortOrder: 'desc',
      limit: 50,
      offset: 50,
    });
  });
});
