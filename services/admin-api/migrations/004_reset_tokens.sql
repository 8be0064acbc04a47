-- Up Migration
-- Password reset links: only a hash of the token is kept; a token works once, until it expires.
create table reset_tokens (
  token_hash text primary key,
  user_id integer not null references users (id) on delete cascade,
  created_by text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index reset_tokens_user on reset_tokens (user_id);
