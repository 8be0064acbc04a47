-- Up Migration
-- Free text through the event's words. An event's text (type, creator, payload, lower-cased) is cut at blanks and
-- JSON's punctuation into words; a query with none of those characters in it can only occur inside one word, so the
-- events it matches are exactly those holding a word of the dictionary that contains it. Counting and paging them
-- then reads the (word, id) index alone: the trigram path re-reads every candidate row, 10,000 heap pages for a
-- word that one event in a hundred holds, which costs its first read on a connection over 100 ms. Queries with
-- blanks or punctuation keep the trigram path over event_text.
--
-- Words are kept as 64-bit hashes, so a word of any length fits the indexes; two words of one dictionary sharing a
-- hash is a chance of about one in thirty million at a million distinct words.

create function text_words(body text) returns setof text language sql immutable strict parallel safe as $$
  select distinct word from unnest(string_to_array(translate(body, E'\t\n\r"{}[],:', '          '), ' ')) as word where word <> ''
$$;

-- An event's searchable text, as event_text holds it (what migration 003 first wrote inline).
create function text_of(type text, created_by text, data jsonb) returns text language sql immutable parallel safe as $$
  select lower(type || ' ' || created_by || ' ' || coalesce(data::text, ''))
$$;

-- Every word seen, once, to find the words holding a query.
create table event_words (
  hash bigint primary key,
  word text not null
);

-- One row per event and word in it; read through its index only.
create table event_word_ids (
  hash bigint not null,
  id bigint not null
) with (autovacuum_vacuum_insert_scale_factor = 0.01);

-- The words of the text table's events after `after`: this migration's fill and a seeded log's (the bench). The
-- statement that stores events writes their words itself, beside their text.
create function add_words(after bigint) returns void language sql as $$
  insert into event_log.event_word_ids (hash, id)
    select hashtextextended(word, 0), id from event_log.event_text, event_log.text_words(body) as word where id > after;
  insert into event_log.event_words (hash, word)
    select distinct on (hashtextextended(word, 0)) hashtextextended(word, 0), word
    from event_log.event_text, event_log.text_words(body) as word where id > after
    on conflict (hash) do nothing;
$$;
select add_words(0);

create index event_word_ids_by_word on event_word_ids (hash, id);

do $$
declare
  extension_schema text;
begin
  select n.nspname into extension_schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm';
  if extension_schema is null then
    raise notice 'pg_trgm is not installed; free text will read the whole word list';
    return;
  end if;
  execute format('create index event_words_trigrams on event_words using gin (word %I.gin_trgm_ops)', extension_schema);
end
$$;
