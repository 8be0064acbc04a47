-- Up Migration
-- Release templates: named, ordered milestones, each a complete set of strategies (kept as JSON, as a flag's
-- strategy fields), with a transition condition to the next. A template of a project has `project`; a global one not.
create table release_templates (
  id text primary key,
  name text not null,
  description text,
  project text references projects (id) on delete cascade,
  created_by_user_id integer not null,
  created_at timestamptz not null default now(),
  archived_at timestamptz
);
create unique index release_templates_name on release_templates (coalesce(project, ''), lower(name)) where archived_at is null;

create table release_template_milestones (
  id text primary key,
  template_id text not null references release_templates (id) on delete cascade,
  name text not null,
  sort_order integer not null,
  interval_minutes integer check (interval_minutes >= 1),
  strategies jsonb not null default '[]'
);
create index release_template_milestones_template on release_template_milestones (template_id);

-- A release plan: a template applied to one flag environment (one plan a flag environment), with its own copy of
-- the milestones. The active milestone's strategies are the flag's strategies there tagged with its id.
create table release_plans (
  id text primary key,
  template_id text not null,
  name text not null,
  description text,
  feature_name text not null references features (name) on delete cascade,
  environment text not null references environments (name) on delete cascade,
  created_by_user_id integer not null,
  created_at timestamptz not null default now(),
  active_milestone_id text,
  unique (feature_name, environment)
);

create table release_plan_milestones (
  id text primary key,
  plan_id text not null references release_plans (id) on delete cascade,
  name text not null,
  sort_order integer not null,
  strategies jsonb not null default '[]',
  started_at timestamptz
);
create index release_plan_milestones_plan on release_plan_milestones (plan_id);

-- Automatic progression: the target starts `interval_minutes` after the source started; `executed_at` once it has
-- (exactly once, whichever replica), `paused_at` while a safeguard holds the plan.
create table milestone_progressions (
  source_milestone text primary key references release_plan_milestones (id) on delete cascade,
  target_milestone text not null references release_plan_milestones (id) on delete cascade,
  interval_minutes integer not null check (interval_minutes >= 1),
  executed_at timestamptz,
  paused_at timestamptz,
  paused_by text
);

-- Safeguards: an impact-metric query and a trigger, on a plan (pauses its progressions) or on a flag environment
-- without one (turns the flag off there).
create table safeguards (
  id text primary key,
  plan_id text references release_plans (id) on delete cascade,
  feature_name text not null references features (name) on delete cascade,
  environment text not null references environments (name) on delete cascade,
  metric_id text not null,
  metric jsonb not null,
  operator text not null check (operator in ('>', '<')),
  threshold float8 not null,
  triggered_at timestamptz,
  triggered_value float8,
  evaluated_at timestamptz,
  last_error text,
  created_at timestamptz not null default now()
);
create index safeguards_feature on safeguards (feature_name, environment);
create index safeguards_plan on safeguards (plan_id);

-- The milestone a strategy belongs to while that milestone is active (null for the flag's own strategies).
alter table feature_strategies add column milestone_id text;
