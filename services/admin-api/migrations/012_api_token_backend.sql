-- Up Migration
-- Unleash 8 names server-SDK tokens "backend"; a token made with that name keeps it in answers, and works as a
-- client token everywhere (the type column stays admin, client or frontend for every consumer).
alter table api_tokens add column named_backend boolean not null default false;
