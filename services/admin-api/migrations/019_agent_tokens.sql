-- Up Migration
-- Tokens MCP clients get through OAuth: a person's consent, for some scopes, for one endpoint, for a day.
create table agent_tokens (
  id serial primary key,
  user_id integer not null references users (id) on delete cascade,
  client_id text not null,
  client_name text not null,
  scopes text[] not null,
  resource text not null,
  secret_hash text not null unique,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  seen_at timestamptz
);
create index agent_tokens_user on agent_tokens (user_id);
