-- Up Migration
-- Which of the web UI's one-time screens and tips (Unleash's "splash" ids) each user has dismissed.
create table user_splash (
  user_id integer not null references users(id) on delete cascade,
  splash_id text not null,
  primary key (user_id, splash_id)
);
