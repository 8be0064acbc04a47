-- Up Migration
-- The web UI's feedback prompts each user answered or asked never to see again (Unleash's user_feedback).
create table user_feedback (
  user_id integer not null references users(id) on delete cascade,
  feedback_id text not null,
  given timestamptz,
  never_show boolean not null default false,
  primary key (user_id, feedback_id)
);
