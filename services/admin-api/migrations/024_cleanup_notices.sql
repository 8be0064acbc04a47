-- Up Migration
-- When each flag was last named in a cleanup reminder: one reminder per flag per period, whichever replica sends it.
create table cleanup_notices (
  feature_name text primary key references features (name) on delete cascade,
  noticed_at timestamptz not null
);
