-- Up Migration
-- The OpenID subject a user signed in with; once linked, the provider's subject finds the user, whatever the email.
alter table users add column oidc_subject text;
create unique index users_oidc_subject on users (oidc_subject) where oidc_subject is not null;
