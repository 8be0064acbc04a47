import { describe, expect, it } from 'vitest';
import { tablesCreated, tablesWritten } from './write-statements.ts';

describe('reading SQL for the tables it writes', () => {
  it('finds inserts, updates, deletes and truncates, across lines and in any case, but not reads', () => {
    const text = `insert into admin.features (name) values ($1);
      UPDATE admin.projects set x = 1; delete
        from admin.tags where 1 = 1; truncate table admin.banners;
      select * from admin.users join admin.roles on true; with moved as (delete from insights.metric_hours returning 1) select 1`;
    expect(tablesWritten(text)).toEqual([
      'admin.banners',
      'admin.features',
      'admin.projects',
      'admin.tags',
      'insights.metric_hours',
    ]);
  });
  it('finds the tables a migration creates, in the service schema', () => {
    expect(
      tablesCreated('signals', 'create table signals (id int);\ncreate table if not exists action_runs (id int);'),
    ).toEqual(['signals.signals', 'signals.action_runs']);
  });
});
