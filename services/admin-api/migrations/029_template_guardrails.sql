-- Release templates carry what a plan made from them watches and waits for: each milestone's progression may wait
-- for the guardrails' evidence, and the template's safeguards (thresholds or comparisons) are set on every plan made
-- from it.
alter table release_template_milestones add column wait_for_guardrails boolean not null default false;
alter table release_templates add column safeguards jsonb not null default '[]';
