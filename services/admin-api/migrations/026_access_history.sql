-- Up Migration
-- Sign-in history: every sign-in attempt and every credential granted, refused or taken away, with where it came from.
create table access_history (
  id bigserial primary key,
  uuid uuid not null default gen_random_uuid() unique,
  at timestamptz not null default now(),
  user_id integer,
  name text,
  method text not null,
  action text not null,
  outcome text not null,
  detail text,
  address text,
  user_agent text
);
create index access_history_at on access_history (at);
create index access_history_user on access_history (user_id, at);

-- Secrets of deleted API tokens and personal access tokens (their hashes): using one again is recorded as such.
create table revoked_credentials (
  hash text primary key,
  kind text not null,
  name text,
  user_id integer,
  revoked_at timestamptz not null default now()
);

-- Where each audit destination stands in the sign-in history (-1: not started).
alter table audit_positions add column access_position bigint not null default -1;
