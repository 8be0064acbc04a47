-- Guardrails: a safeguard that compares the users who get the change with those who do not. `comparison` holds its
-- settings (null for a threshold), `comparison_baseline` the cumulative figures at its first look in the current
-- milestone (later looks subtract them), `last_comparison` what its last look saw and decided.
alter table safeguards add column comparison jsonb;
alter table safeguards add column comparison_baseline jsonb;
alter table safeguards add column last_comparison jsonb;

-- A progression that waits for evidence moves on only once every guardrail of its plan called the milestone safe.
alter table milestone_progressions add column wait_for_guardrails boolean not null default false;
