-- Up Migration
create table signal_endpoints (
  id serial primary key,
  name text not null unique,
  description text,
  enabled boolean not null default true,
  created_by_user_id integer,
  created_at timestamptz not null default now()
);

create table signal_endpoint_tokens (
  id serial primary key,
  endpoint_id integer not null references signal_endpoints (id) on delete cascade,
  name text not null,
  secret_hash text not null unique,
  created_by_user_id integer,
  created_at timestamptz not null default now()
);

create table signals (
  id bigserial primary key,
  endpoint_id integer not null references signal_endpoints (id) on delete cascade,
  token_id integer references signal_endpoint_tokens (id) on delete set null,
  token_name text,
  payload jsonb,
  created_at timestamptz not null default now()
);
create index signals_endpoint on signals (endpoint_id, id desc);

create table action_sets (
  id serial primary key,
  project text not null,
  name text not null,
  description text,
  enabled boolean not null default true,
  actor_id integer not null,
  actor_token text not null,
  match jsonb not null,
  actions jsonb not null,
  created_by_user_id integer,
  created_at timestamptz not null default now()
);
create index action_sets_source on action_sets ((match ->> 'sourceId'));

create table action_runs (
  id bigserial primary key,
  action_set_id integer not null references action_sets (id) on delete cascade,
  signal_id bigint not null,
  state text not null,
  actions jsonb not null default '[]',
  created_at timestamptz not null default now(),
  finished_at timestamptz,
  unique (action_set_id, signal_id)
);
