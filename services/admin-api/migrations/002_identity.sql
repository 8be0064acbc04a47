-- Up Migration
create table roles (
  id serial primary key,
  name text not null unique,
  description text,
  type text not null,
  created_at timestamptz not null default now()
);
insert into roles (id, name, description, type) values
  (1, 'Admin', 'Users with the admin role have superuser access to Unleash and can perform any operation within the Unleash platform.', 'root'),
  (2, 'Editor', 'Users with the editor role have access to most features in Unleash, but can not manage users and roles in the root scope. Editors will be added as project owners when creating projects and get superuser rights within the context of these projects. Users with the editor role will also get access to most permissions on the default project by default.', 'root'),
  (3, 'Viewer', 'Users with the viewer role can only read root resources in Unleash. Viewers can be added to specific projects as project members. Users with the viewer role may not view API tokens.', 'root'),
  (4, 'Owner', 'Users with the project owner role have full control over the project, and can add and manage other users within the project context, manage feature flags within the project, and control advanced project features like archiving and deleting the project.', 'project'),
  (5, 'Member', 'Users with the project member role are allowed to view, create, and update feature flags within a project, but have limited permissions in regards to managing the project''s user access and can not archive or delete the project.', 'project');
select setval('roles_id_seq', 5);

create table role_permissions (
  role_id integer not null references roles (id) on delete cascade,
  permission text not null,
  environment text,
  unique (role_id, permission, environment)
);

create table users (
  id serial primary key,
  name text,
  username text,
  email text,
  image_url text,
  password_hash text,
  root_role_id integer not null default 3 references roles (id),
  login_attempts integer not null default 0,
  seen_at timestamptz,
  created_at timestamptz not null default now(),
  is_service boolean not null default false,
  email_sent boolean not null default false,
  scim_id text
);
create unique index users_email on users (lower(email)) where email is not null;
create unique index users_username on users (lower(username)) where username is not null;

create table project_user_roles (
  project_id text not null references projects (id) on delete cascade,
  user_id integer not null references users (id) on delete cascade,
  role_id integer not null references roles (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (project_id, user_id, role_id)
);

create table groups (
  id serial primary key,
  name text not null unique,
  description text,
  root_role_id integer references roles (id) on delete set null,
  mappings_sso jsonb not null default '[]',
  created_by text,
  created_at timestamptz not null default now()
);

create table group_users (
  group_id integer not null references groups (id) on delete cascade,
  user_id integer not null references users (id) on delete cascade,
  created_by text,
  created_at timestamptz not null default now(),
  primary key (group_id, user_id)
);

create table project_group_roles (
  project_id text not null references projects (id) on delete cascade,
  group_id integer not null references groups (id) on delete cascade,
  role_id integer not null references roles (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (project_id, group_id, role_id)
);

create table personal_access_tokens (
  id serial primary key,
  user_id integer not null references users (id) on delete cascade,
  secret_hash text not null unique,
  description text not null,
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  seen_at timestamptz
);

create table public_signup_tokens (
  secret text primary key,
  name text not null,
  expires_at timestamptz not null,
  enabled boolean not null default true,
  role_id integer not null default 3 references roles (id),
  created_by text,
  created_at timestamptz not null default now()
);

create table public_signup_token_users (
  secret text not null references public_signup_tokens (secret) on delete cascade,
  user_id integer not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (secret, user_id)
);
