import type { CodeReferenceUpload, FlagCodeReferences } from '@bunting/contracts';
import type { Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { cleanupStore, codeReferenceStore } from './code-reference-store.ts';

/** A link to a line on the hosts whose addresses Bunting knows; none for others. */
export function lineUrl(repository: string, branch: string, path: string, line: number): string | null {
  const address = /^https?:\/\//.test(repository)
    ? repository.replace(/\.git$/, '')
    : `https://${repository.replace(/\.git$/, '')}`;
  let host: string;
  try {
    host = new URL(address).host;
  } catch {
    return null;
  }
  const file = path.split('/').map(encodeURIComponent).join('/');
  const ref = encodeURIComponent(branch);
  if (host === 'github.com') return `${address}/blob/${ref}/${file}#L${line}`;
  if (host === 'gitlab.com') return `${address}/-/blob/${ref}/${file}#L${line}`;
  if (host === 'bitbucket.org') return `${address}/src/${ref}/${file}#lines-${line}`;
  return null;
}

/**
 * Code references are what a scan saw, like SDK metrics: not configuration, so no event (the spec's list has none),
 * but written in one transaction so a reader sees one scan or the next, never half of each.
 */
export const codeReferenceService = {
  async record(change: Change, upload: CodeReferenceUpload) {
    await codeReferenceStore.replaceBranch(change.tx, upload);
    const flags = [...new Set(upload.references.map((reference) => reference.flag))];
    await codeReferenceStore.clearExtinctions(change.tx, upload.repository, upload.branch, flags);
    await codeReferenceStore.recordExtinctions(
      change.tx,
      upload.repository,
      upload.branch,
      upload.extinctions.filter((extinction) => !flags.includes(extinction.flag)),
    );
    return { references: upload.references.length, flags: flags.length };
  },

  /** Flags that look safe to remove (see CleanupCandidates), the longest unused first. */
  async cleanupCandidates(db: Queryable, days: number, project: string | null) {
    const rows = await cleanupStore.candidates(db, days, project);
    return {
      days,
      scannedBranches: await cleanupStore.scannedBranches(db),
      flags: rows.map((row) => ({
        name: row.name,
        project: row.project,
        createdAt: row.createdAt,
        lastSeenAt: row.lastSeenAt,
        lifecycleStage: row.lifecycleStage,
        reason:
          row.lifecycleStage === 'completed'
            ? `completed${row.lifecycleStatus ? ` (${row.lifecycleStatus})` : ''}`
            : row.stale
              ? 'marked stale'
              : 'potentially stale',
      })),
    };
  },

  async flagsOf(db: Queryable, repository: string, branch: string): Promise<string[]> {
    return [...(await codeReferenceStore.flagsOf(db, repository, branch))];
  },

  async forFlag(db: Queryable, flag: string): Promise<FlagCodeReferences> {
    const references = await codeReferenceStore.forFlag(db, flag);
    return {
      references: references.map((reference) => ({
        flag: reference.flag,
        path: reference.path,
        line: reference.line,
        context: reference.context,
        repository: reference.repository,
        branch: reference.branch,
        commit: reference.commit,
        url: lineUrl(reference.repository, reference.branch, reference.path, reference.line),
        recordedAt: reference.recordedAt,
      })),
      extinctions: [...(await codeReferenceStore.extinctionsOf(db, flag))],
    };
  },
};
