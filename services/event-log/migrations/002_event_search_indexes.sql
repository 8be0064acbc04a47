-- Up Migration
-- The log's size, kept as events are stored, so the unfiltered lists do not count a million rows to say how many.
create table event_count (
  singleton boolean primary key default true check (singleton),
  total bigint not null
);
insert into event_count (total) select count(*) from events;

-- Who and when, searched by the event search's filters.
create index events_created_by on events (created_by, id desc);
create index events_created_by_user on events (created_by_user_id, id desc);
create index events_created_at on events (created_at);

-- Free-text search (type, creator and payload) through trigrams. Where pg_trgm cannot be installed the search
-- still works, by reading the table.
do $$
declare
  extension_schema text;
begin
  begin
    create extension if not exists pg_trgm;
  exception when others then
    raise notice 'pg_trgm is not available (%); the event log''s free-text search will read the whole table', sqlerrm;
    return;
  end;
  select n.nspname into extension_schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm';
  execute format('create index events_text on events using gin ((type || '' '' || created_by || '' '' || coalesce(data::text, '''')) %I.gin_trgm_ops)', extension_schema);
end
$$;
