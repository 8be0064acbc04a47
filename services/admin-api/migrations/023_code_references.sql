-- Up Migration
-- Where code uses flags, per repository and branch, as the last scan of that branch found it; and the commits that
-- removed a flag's last reference there.
create table code_references (
  repository text not null,
  branch text not null,
  feature_name text not null,
  path text not null,
  line integer not null,
  context jsonb not null default '[]',
  commit text not null,
  recorded_at timestamptz not null default now(),
  primary key (repository, branch, feature_name, path, line)
);
create index code_references_feature on code_references (feature_name);

create table code_reference_extinctions (
  repository text not null,
  branch text not null,
  feature_name text not null,
  commit text not null,
  author text,
  removed_at timestamptz not null,
  primary key (repository, branch, feature_name)
);
