/** What the SDK edge's routes read snapshots from: the cluster's snapshot store, or the standalone edge's. */
import type { CompiledEnvironment } from './compiled-environment.ts';
import type { ChangesSince } from './revision-changes.ts';

export type SnapshotStore = {
  /** The compiled environment if this replica has it: the request path's only lookup. */
  current: (environment: string) => CompiledEnvironment | undefined;
  /** Loads an environment not held yet, from Redis or, failing that, by rebuilding it. */
  ensure: (environment: string) => Promise<CompiledEnvironment>;
  /** What changed in an environment since a revision this replica installed; null when unknown. */
  changesSince: (environment: string, revision: number) => ChangesSince | null;
  /** Calls `listener` with each newer revision of an environment this replica installs. */
  subscribe: (environment: string, listener: (compiled: CompiledEnvironment) => void) => () => void;
  /** A domain event from the stream, in order: configuration changes rebuild the environments they touch. */
  onEvent: (event: unknown, sequence: number) => void;
  /** Starts with everything up to `lastSequence` already in the stream, which any snapshot used must cover. */
  start: (lastSequence: number) => void;
  stop: () => Promise<void>;
  /** The environments this replica serves, with their revision, when each was installed and how long it took to compile. */
  held: () => { environment: string; revision: number; installedAt: number; compileMs: number }[];
  /** Revisions installed since start, by environment and how each came. */
  installs: () => { environment: string; how: InstallKind; count: number }[];
};

/** How a revision came to a replica: built here, patched from a notice, or read from the stored copy. */
export type InstallKind = 'built' | 'patch' | 'copy';
