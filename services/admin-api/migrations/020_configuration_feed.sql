-- Up Migration
-- The configuration feed's revisions: per environment (scope "env:<name>") and for the SDK tokens ("tokens"), the
-- last revision written and the last one written whole (a hydration), and when. A change bumps its environments'
-- rows in its own transaction, so revisions follow commit order.
create table feed_revisions (
  scope text primary key,
  revision bigint not null,
  hydrated_revision bigint not null default 0,
  hydrated_at timestamptz
);
