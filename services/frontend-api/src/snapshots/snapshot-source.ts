import type { CompiledEnvironment } from './compiled-environment.ts';
import type { ChangesSince } from './revision-changes.ts';

/** What the SDK edge's routes read snapshots from, whether the cluster's feed or a standalone edge's upstream fills it. */
export type SnapshotStore = {
  /** The compiled environment if this edge has it: the request path's only lookup. */
  current: (environment: string) => CompiledEnvironment | undefined;
  /** An environment not held yet: starts getting it and waits a while; 503 when it cannot be had now. */
  ensure: (environment: string) => Promise<CompiledEnvironment>;
  /** What changed in an environment since a revision this edge installed; null when unknown. */
  changesSince: (environment: string, revision: number) => ChangesSince | null;
  /** Calls `listener` with each newer revision of an environment this edge installs. */
  subscribe: (environment: string, listener: (compiled: CompiledEnvironment) => void) => () => void;
  /**
   * Each environment served: its revision, when it was installed, how long it took to compile and then to hand to
   * every listener (each open stream written its change); 0 until that is done.
   */
  held: () => { environment: string; revision: number; installedAt: number; compileMs: number; notifyMs: number }[];
  /** Revisions installed since start, by environment and how each came. */
  installs: () => { environment: string; how: InstallKind; count: number }[];
};

/** How a revision came: whole (a hydration, an upstream's full answer), as a delta applied to the one held, or kept from before a restart. */
export type InstallKind = 'whole' | 'delta' | 'kept';
