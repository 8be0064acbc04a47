-- Up Migration
-- What an application said of itself when it registered.
alter table applications add column sdk_version text;
alter table applications add column strategies jsonb not null default '[]';
