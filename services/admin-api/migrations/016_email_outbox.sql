-- Up Migration
-- E-mail waiting to be sent, written in the transaction of the change that causes it (the outbox): a crash
-- between the commit and the sending loses nothing. A replica claims a row for a while, sends it and marks it
-- sent; a failure is tried again later, with back-off, until it is given up.
create table email_outbox (
  id bigserial primary key,
  kind text not null,
  recipient text not null,
  subject text not null,
  text_body text not null,
  html_body text not null,
  -- Whose account the mail is about (their emailSent is set when a welcome mail goes out).
  user_id integer references users (id) on delete set null,
  -- The same Message-ID for every attempt, so a mail sent twice (a crash after sending, before marking) is one.
  message_id text not null unique,
  created_at timestamptz not null default now(),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  claimed_until timestamptz,
  sent_at timestamptz,
  failed_at timestamptz,
  last_error text
);
create index email_outbox_due on email_outbox (next_attempt_at) where sent_at is null and failed_at is null;
create index email_outbox_user on email_outbox (user_id, kind, created_at);
