-- Up Migration
create table settings (
  name text primary key,
  content jsonb not null,
  updated_at timestamptz not null default now()
);
insert into settings (name, content) values ('instance.id', to_jsonb(gen_random_uuid()::text));

create table environments (
  name text primary key,
  type text not null,
  enabled boolean not null default true,
  protected boolean not null default false,
  sort_order integer not null default 9999,
  created_at timestamptz not null default now()
);
insert into environments (name, type, enabled, protected, sort_order) values
  ('development', 'development', true, false, 2),
  ('production', 'production', true, false, 3);

create table projects (
  id text primary key,
  name text not null,
  description text,
  mode text not null default 'open',
  default_stickiness text not null default 'default',
  feature_limit integer,
  feature_naming_pattern text,
  feature_naming_example text,
  feature_naming_description text,
  created_at timestamptz not null default now(),
  updated_at timestamptz,
  archived_at timestamptz
);
insert into projects (id, name, description) values ('default', 'Default', 'Default project');

create table project_environments (
  project_id text not null references projects (id) on delete cascade,
  environment text not null references environments (name) on delete cascade,
  default_strategy jsonb,
  primary key (project_id, environment)
);
insert into project_environments (project_id, environment) values ('default', 'development'), ('default', 'production');

create table feature_types (
  id text primary key,
  name text not null,
  description text not null,
  lifetime_days integer
);
insert into feature_types (id, name, description, lifetime_days) values
  ('release', 'Release', 'Release feature flags are used to release new features.', 40),
  ('experiment', 'Experiment', 'Experiment feature flags are used to test and verify multiple different versions of a feature.', 40),
  ('operational', 'Operational', 'Operational feature flags are used to control aspects of a rollout.', 7),
  ('kill-switch', 'Kill switch', 'Kill switch feature flags are used to quickly turn on or off critical functionality in your system.', null),
  ('permission', 'Permission', 'Permission feature flags are used to control permissions in your system.', null);

create table features (
  name text primary key,
  project_id text not null references projects (id),
  description text,
  type text not null default 'release',
  stale boolean not null default false,
  impression_data boolean not null default false,
  created_at timestamptz not null default now(),
  created_by_user_id integer,
  created_by_name text,
  archived_at timestamptz,
  lifecycle_stage text not null default 'initial',
  lifecycle_entered_at timestamptz not null default now()
);
create index features_project on features (project_id);

create table feature_environments (
  feature_name text not null references features (name) on delete cascade,
  environment text not null references environments (name) on delete cascade,
  enabled boolean not null default false,
  variants jsonb not null default '[]',
  last_seen_at timestamptz,
  primary key (feature_name, environment)
);

create table segments (
  id serial primary key,
  name text not null unique,
  description text,
  project text,
  constraints jsonb not null default '[]',
  created_by text,
  created_at timestamptz not null default now()
);

create table feature_strategies (
  id text primary key,
  feature_name text not null references features (name) on delete cascade,
  environment text not null references environments (name) on delete cascade,
  strategy_name text not null,
  title text,
  disabled boolean not null default false,
  sort_order integer not null default 0,
  constraints jsonb not null default '[]',
  parameters jsonb not null default '{}',
  variants jsonb not null default '[]',
  created_at timestamptz not null default now()
);
create index feature_strategies_feature on feature_strategies (feature_name, environment);

create table feature_strategy_segments (
  strategy_id text not null references feature_strategies (id) on delete cascade,
  segment_id integer not null references segments (id),
  primary key (strategy_id, segment_id)
);
create index feature_strategy_segments_segment on feature_strategy_segments (segment_id);

create table dependencies (
  child text not null references features (name) on delete cascade,
  parent text not null references features (name) on delete cascade,
  enabled boolean not null default true,
  variants jsonb not null default '[]',
  primary key (child, parent)
);
create index dependencies_parent on dependencies (parent);

create table context_fields (
  name text primary key,
  description text,
  stickiness boolean not null default false,
  sort_order integer not null default 10,
  legal_values jsonb not null default '[]',
  project text,
  created_at timestamptz not null default now()
);
insert into context_fields (name, description, sort_order, stickiness) values
  ('environment', 'Allows you to constrain on application environment', 0, false),
  ('userId', 'Allows you to constrain on userId', 1, false),
  ('appName', 'Allows you to constrain on application name', 2, false),
  ('currentTime', 'Allows you to constrain on date values', 3, false),
  ('sessionId', 'Allows you to constrain on session id', 4, false),
  ('remoteAddress', 'Allows you to constrain on remote address', 5, false);

create table strategies (
  name text primary key,
  title text,
  description text,
  parameters jsonb not null default '[]',
  built_in boolean not null default false,
  deprecated boolean not null default false,
  sort_order integer not null default 9999,
  created_at timestamptz not null default now()
);
insert into strategies (name, title, description, parameters, built_in, deprecated, sort_order) values
  ('default', 'Standard', 'This strategy turns on / off for your entire userbase. Prefer using "Gradual rollout" strategy (100%=on, 0%=off).', '[]', true, false, 1),
  ('flexibleRollout', 'Gradual rollout', 'Roll out to a percentage of your userbase, and ensure that the experience is the same for the user on each visit.',
   '[{"name":"rollout","type":"percentage","description":"","required":false},{"name":"stickiness","type":"string","description":"Used define stickiness. Possible values: default, userId, sessionId, random","required":true},{"name":"groupId","type":"string","description":"Used to define a activation groups, which allows you to correlate across feature flags.","required":true}]', true, false, 0),
  ('userWithId', 'UserIDs', 'Enable the feature for a specific set of userIds.',
   '[{"name":"userIds","type":"list","description":"","required":false}]', true, false, 2),
  ('remoteAddress', 'IPs', 'Enable the feature for a specific set of IP addresses.',
   '[{"name":"IPs","type":"list","description":"List of IPs to enable the feature flag for.","required":true}]', true, false, 3),
  ('applicationHostname', 'Hosts', 'Enable the feature for a specific set of hostnames.',
   '[{"name":"hostNames","type":"list","description":"List of hostnames to enable the feature flag for.","required":false}]', true, false, 4),
  ('gradualRolloutRandom', null, 'Randomly activate the feature flag. No stickiness.',
   '[{"name":"percentage","type":"percentage","description":"","required":false}]', true, true, 5),
  ('gradualRolloutSessionId', null, 'Gradually activate feature flag. Stickiness based on session id.',
   '[{"name":"percentage","type":"percentage","description":"","required":false},{"name":"groupId","type":"string","description":"Used to define a activation groups, which allows you to correlate across feature flags.","required":true}]', true, true, 6),
  ('gradualRolloutUserId', null, 'Gradually activate feature flag for logged in users. Stickiness based on user id.',
   '[{"name":"percentage","type":"percentage","description":"","required":false},{"name":"groupId","type":"string","description":"Used to define a activation groups, which allows you to correlate across feature flags.","required":true}]', true, true, 7);

create table tag_types (
  name text primary key,
  description text,
  icon text,
  color text,
  created_at timestamptz not null default now()
);
insert into tag_types (name, description, icon) values ('simple', 'Used to simplify filtering of features', '#');

create table tags (
  type text not null references tag_types (name) on delete cascade,
  value text not null,
  created_at timestamptz not null default now(),
  primary key (type, value)
);

create table feature_tags (
  feature_name text not null references features (name) on delete cascade,
  tag_type text not null,
  tag_value text not null,
  created_by_user_id integer,
  created_at timestamptz not null default now(),
  primary key (feature_name, tag_type, tag_value),
  foreign key (tag_type, tag_value) references tags (type, value) on delete cascade
);

create table favorite_features (
  principal text not null,
  feature_name text not null references features (name) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (principal, feature_name)
);

create table favorite_projects (
  principal text not null,
  project_id text not null references projects (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (principal, project_id)
);

create table api_tokens (
  id serial primary key,
  secret_hash text not null unique,
  token_name text not null,
  type text not null,
  environment text not null,
  projects text[] not null,
  expires_at timestamptz,
  created_at timestamptz not null default now(),
  seen_at timestamptz,
  alias text
);
