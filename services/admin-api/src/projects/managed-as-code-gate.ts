import type { EventType } from '@bunting/contracts';
import { DomainError } from '@bunting/platform';
import type { ChangeGate } from '../events/changes.ts';
import { managedAsCodeStore } from './managed-as-code-store.ts';

/** What a project's files hold (flags, their strategies, variants, tags, dependencies, segments), as events. */
const FROM_FILES: ReadonlySet<EventType> = new Set<EventType>([
  'feature-created',
  'feature-deleted',
  'feature-updated',
  'feature-metadata-updated',
  'feature-variants-updated',
  'feature-environment-variants-updated',
  'feature-project-change',
  'feature-archived',
  'feature-revived',
  'feature-tagged',
  'feature-untagged',
  'feature-strategy-update',
  'feature-strategy-add',
  'feature-strategy-remove',
  'feature-type-updated',
  'strategy-order-changed',
  'feature-environment-enabled',
  'feature-environment-disabled',
  'feature-dependency-added',
  'feature-dependency-removed',
  'feature-dependencies-removed',
  'segment-created',
  'segment-updated',
  'segment-deleted',
]);

/** A hand edit of a project whose flags live in files. */
export class ManagedAsCodeRefusal extends DomainError {
  constructor(project: string, repository: string, path: string | null) {
    super(
      403,
      'NoAccessError',
      `Project "${project}" is managed as code in ${repository}${path ? ` (${path})` : ''}: change its files there, and the ` +
        'pipeline applies them. Changes made here would be undone by the next apply, so they are refused.',
    );
  }
}

/**
 * In the unit of work beside change control: a change to what a managed project's files hold is refused unless its
 * runner is the project's pipeline (its service account), the system (a release plan moving on), or it carries out
 * an approved change request (which the pipeline opens in gated environments).
 */
export const managedAsCodeGate: ChangeGate = {
  before: async () => null,
  async check(tx, { runner, approved, drafts }) {
    const projects = [
      ...new Set(drafts.flatMap((draft) => (draft.project && FROM_FILES.has(draft.type) ? [draft.project] : []))),
    ];
    if (projects.length === 0 || 'system' in runner) return;
    for (const settings of await managedAsCodeStore.forProjects(tx, projects)) {
      if (approved.some((scope) => scope.project === settings.project)) continue;
      const pipeline =
        runner.kind === 'service-account' && runner.userId !== null && runner.userId === settings.writerUserId;
      if (!pipeline) throw new ManagedAsCodeRefusal(settings.project, settings.repository, settings.path);
    }
  },
};
