-- Up Migration
-- Projects managed as code: where their files are, and the service account whose tokens apply them.
create table project_code_settings (
  project_id text primary key references projects (id) on delete cascade,
  repository text not null,
  path text,
  writer_user_id integer references users (id) on delete set null,
  updated_at timestamptz not null default now()
);
