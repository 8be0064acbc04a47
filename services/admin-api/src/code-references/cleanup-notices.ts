import { SYSTEM_ACTOR } from '@bunting/contracts';
import { repeatEvery, type Logger } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { cleanupMessage } from '../email/email-messages.ts';
import type { Changes } from '../events/changes.ts';
import { projectReadModel } from '../projects/project-read-model.ts';
import { cleanupStore } from './code-reference-store.ts';

type Rules = { unusedDays: number; periodDays: number };

/**
 * Reminds of flags that are stale or look safe to remove, once per flag per period, through the integrations
 * (Slack, Teams, webhooks: the closed event list's feature-potentially-stale-on, with the reason and `reminder`) and
 * by e-mail to each project's owners. The claim and the events are one transaction: whichever replica claims a flag
 * reminds of it, and only that one.
 */
export async function sendCleanupNotices(
  { changes, mail, baseUrl }: { changes: Changes; mail: AdminDeps['mail']; baseUrl: string },
  rules: Rules,
): Promise<number> {
  return changes.run({ system: SYSTEM_ACTOR }, async (change) => {
    const due = await cleanupStore.claimDue(change.tx, rules.unusedDays, rules.periodDays);
    const byProject = new Map<string, { name: string; reason: string }[]>();
    for (const flag of due) {
      const reason = flag.safe
        ? `looks safe to remove: no code references, not evaluated for ${rules.unusedDays} days, ${flag.lifecycleStage === 'completed' ? `completed${flag.lifecycleStatus ? ` (${flag.lifecycleStatus})` : ''}` : flag.stale ? 'marked stale' : 'potentially stale'}`
        : flag.stale
          ? 'marked stale'
          : 'potentially stale';
      change.emit({
        type: 'feature-potentially-stale-on',
        project: flag.project,
        featureName: flag.name,
        data: { name: flag.name, reminder: true, reason },
      });
      byProject.set(flag.project, [...(byProject.get(flag.project) ?? []), { name: flag.name, reason }]);
    }
    for (const [project, flags] of byProject) {
      const owners = (await projectReadModel.requireProject(change.tx, project)).owners;
      for (const owner of owners) {
        if (owner.ownerType !== 'user' || !owner.email) continue;
        await mail.queue(
          change,
          cleanupMessage({ email: owner.email, name: owner.name }, project, flags, `${baseUrl}/cleanup`, baseUrl),
        );
      }
    }
    return due.length;
  });
}

export function startCleanupNotices(
  deps: { changes: Changes; mail: AdminDeps['mail']; baseUrl: string; log: Logger },
  rules: Rules & { checkMs: number },
) {
  return repeatEvery(
    async () => {
      const count = await sendCleanupNotices(deps, rules);
      if (count > 0) deps.log.info({ count }, 'cleanup reminders sent');
    },
    rules.checkMs,
    { log: deps.log, what: 'cleanup reminders' },
  );
}
