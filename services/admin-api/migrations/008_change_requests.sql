-- Up Migration
-- Change requests: per project environment, whether changes need approval, and how many approvals.
create table change_request_settings (
  project_id text not null references projects (id) on delete cascade,
  environment text not null references environments (name) on delete cascade,
  enabled boolean not null,
  required_approvals integer not null default 1,
  primary key (project_id, environment)
);

create table change_requests (
  id serial primary key,
  project_id text not null references projects (id) on delete cascade,
  environment text not null references environments (name) on delete cascade,
  state text not null,
  title text,
  created_by_user_id integer,
  created_by_name text not null,
  created_by_image_url text,
  created_at timestamptz not null default now(),
  -- The last time each state was entered, as Unleash shows it ({"Draft": "...", "In review": "..."}).
  state_timestamps jsonb not null default '{}',
  scheduled_at timestamptz,
  schedule_status text,
  schedule_reason text,
  scheduled_by_user_id integer,
  scheduled_by_name text
);
create index change_requests_project on change_requests (project_id, id desc);
-- One draft per author, project and environment: changes made through the API join it.
create unique index change_requests_one_draft on change_requests (project_id, environment, created_by_user_id, created_by_name) where state = 'Draft';
-- What the scheduler looks for.
create index change_requests_due on change_requests (scheduled_at) where state = 'Scheduled' and schedule_status = 'pending';

create table change_request_changes (
  id serial primary key,
  change_request_id integer not null references change_requests (id) on delete cascade,
  feature text,
  action text not null,
  payload jsonb not null default '{}',
  -- The state of what the change touches when it was drafted: applying it after that changed is a conflict.
  snapshot jsonb,
  created_by_user_id integer,
  created_by_name text not null,
  created_by_image_url text,
  created_at timestamptz not null default now()
);
create index change_request_changes_request on change_request_changes (change_request_id, id);
create index change_request_changes_feature on change_request_changes (feature) where feature is not null;

create table change_request_approvals (
  change_request_id integer not null references change_requests (id) on delete cascade,
  user_id integer not null,
  username text not null,
  image_url text,
  created_at timestamptz not null default now(),
  primary key (change_request_id, user_id)
);

create table change_request_rejections (
  change_request_id integer not null references change_requests (id) on delete cascade,
  user_id integer not null,
  username text not null,
  image_url text,
  created_at timestamptz not null default now(),
  primary key (change_request_id, user_id)
);

create table change_request_comments (
  id serial primary key,
  change_request_id integer not null references change_requests (id) on delete cascade,
  text text not null,
  created_by_user_id integer,
  created_by_name text not null,
  created_by_image_url text,
  created_at timestamptz not null default now()
);

create table change_request_reviewers (
  change_request_id integer not null references change_requests (id) on delete cascade,
  user_id integer not null references users (id) on delete cascade,
  primary key (change_request_id, user_id)
);

-- Banners: messages shown to every user of the console.
create table banners (
  id serial primary key,
  message text not null,
  enabled boolean not null default true,
  variant text not null default 'info',
  sticky boolean not null default false,
  icon text,
  link text,
  link_text text,
  dialog_title text,
  dialog text,
  created_at timestamptz not null default now()
);
