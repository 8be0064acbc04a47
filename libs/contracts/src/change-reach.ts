import type { EVENT_TYPES } from './event-types.ts';

type EventType = (typeof EVENT_TYPES)[number];

/**
 * Which environments a change reaches: the one answer to that question, read by the change-request gate (a change
 * reaching a gated environment needs a review) and by whatever tells the SDK edges (what they must serve anew).
 * Pure: a reach that depends on data (where a segment is used, which environments a project has) names what to
 * look up.
 */
export type ReachedPlaces =
  | { kind: 'none' }
  /** One environment of one project (the project may be unknown to an edge, which holds every project). */
  | { kind: 'environment'; project: string | null; environment: string }
  /** Every environment of these projects. */
  | { kind: 'projects'; projects: string[] }
  /** Every project environment where the segment is used. */
  | { kind: 'segment'; segmentId: number }
  /** One environment, in every project. */
  | { kind: 'environment-everywhere'; environment: string }
  /** Anything: an import or a drop of everything of a kind. */
  | { kind: 'everything' };

export type ChangeReach = {
  places: ReachedPlaces;
  /**
   * Whether the change can alter an answer SDKs compute or a field they are given. False for what is only added and
   * answers as its absence did: a flag created off everywhere (Unleash allows creating flags where change requests
   * are on), a segment nobody uses yet, a new environment, a tag (read only by SDKs that filter by tag). The gate
   * refuses only changes that alter answers; the edges serve every change.
   */
  changesAnswers: boolean;
  /** The one flag the change is about, when it is about one: an edge may read that flag alone. */
  flag: string | null;
};

type ReachedEvent = {
  /** An `EventType`, or one this version does not know (which reaches nothing it serves). */
  type: string;
  project?: string | null;
  environment?: string | null;
  featureName?: string | null;
  data?: Record<string, unknown> | null;
  preData?: Record<string, unknown> | null;
};

type Rule = 'its-environment' | 'its-project' | 'its-segment' | 'the-environment-everywhere' | 'everything';

/** Events that change what SDKs are served, and how; every other one (users, tokens, access, settings...) reaches none. */
const RULES: Partial<Record<EventType, { rule: Rule; changesAnswers: boolean; oneFlag?: boolean }>> = {
  'feature-strategy-add': { rule: 'its-environment', changesAnswers: true, oneFlag: true },
  'feature-strategy-update': { rule: 'its-environment', changesAnswers: true, oneFlag: true },
  'feature-strategy-remove': { rule: 'its-environment', changesAnswers: true, oneFlag: true },
  'strategy-order-changed': { rule: 'its-environment', changesAnswers: true, oneFlag: true },
  'feature-environment-enabled': { rule: 'its-environment', changesAnswers: true, oneFlag: true },
  'feature-environment-disabled': { rule: 'its-environment', changesAnswers: true, oneFlag: true },
  'feature-environment-variants-updated': { rule: 'its-environment', changesAnswers: true, oneFlag: true },
  // A flag's metadata in one environment: its release plan, progressions and safeguards, whose milestone strategies
  // are served (a flag's own metadata names no environment and reaches none).
  'feature-metadata-updated': { rule: 'its-environment', changesAnswers: true, oneFlag: true },
  'features-imported': { rule: 'its-environment', changesAnswers: true },
  // Removing an environment from a project wipes its flags' configuration there; adding one adds them switched off.
  'project-environment-removed': { rule: 'its-environment', changesAnswers: true },
  'project-environment-added': { rule: 'its-environment', changesAnswers: false },
  // A flag archived, revived, moved, retyped, marked stale, its variants or dependencies changed: every environment
  // it is in serves it differently (stale, type and impression data are fields SDKs are given).
  'feature-archived': { rule: 'its-project', changesAnswers: true, oneFlag: true },
  'feature-revived': { rule: 'its-project', changesAnswers: true, oneFlag: true },
  'feature-project-change': { rule: 'its-project', changesAnswers: true, oneFlag: true },
  'feature-updated': { rule: 'its-project', changesAnswers: true, oneFlag: true },
  'feature-stale-on': { rule: 'its-project', changesAnswers: true, oneFlag: true },
  'feature-stale-off': { rule: 'its-project', changesAnswers: true, oneFlag: true },
  'feature-variants-updated': { rule: 'its-project', changesAnswers: true, oneFlag: true },
  'feature-dependency-added': { rule: 'its-project', changesAnswers: true, oneFlag: true },
  'feature-dependency-removed': { rule: 'its-project', changesAnswers: true, oneFlag: true },
  'feature-dependencies-removed': { rule: 'its-project', changesAnswers: true, oneFlag: true },
  'feature-created': { rule: 'its-project', changesAnswers: false, oneFlag: true },
  'feature-tagged': { rule: 'its-project', changesAnswers: false, oneFlag: true },
  'feature-untagged': { rule: 'its-project', changesAnswers: false, oneFlag: true },
  'segment-created': { rule: 'its-segment', changesAnswers: false },
  'segment-updated': { rule: 'its-segment', changesAnswers: true },
  'segment-deleted': { rule: 'its-segment', changesAnswers: true },
  'environment-created': { rule: 'the-environment-everywhere', changesAnswers: false },
  'environment-updated': { rule: 'the-environment-everywhere', changesAnswers: true },
  'environment-deleted': { rule: 'the-environment-everywhere', changesAnswers: true },
  'feature-import': { rule: 'everything', changesAnswers: true },
  'feature-tag-import': { rule: 'everything', changesAnswers: false },
  'environment-import': { rule: 'everything', changesAnswers: true },
  'project-import': { rule: 'everything', changesAnswers: true },
  'segment-import': { rule: 'everything', changesAnswers: true },
  'drop-features': { rule: 'everything', changesAnswers: true },
  'drop-environments': { rule: 'everything', changesAnswers: true },
  'drop-projects': { rule: 'everything', changesAnswers: true },
  'drop-feature-tags': { rule: 'everything', changesAnswers: false },
};

const NONE: ChangeReach = { places: { kind: 'none' }, changesAnswers: false, flag: null };

/** What a change (one event) reaches. */
export function reachOf(event: ReachedEvent): ChangeReach {
  const entry = RULES[event.type as EventType];
  if (!entry) return NONE;
  const flag = entry.oneFlag && event.featureName ? event.featureName : null;
  const reach = (places: ReachedPlaces, changesAnswers = entry.changesAnswers): ChangeReach => ({
    places,
    changesAnswers,
    flag,
  });
  switch (entry.rule) {
    case 'its-environment':
      // A flag's own metadata (links, charts) names no environment: it reaches none.
      return event.environment
        ? reach({ kind: 'environment', project: event.project ?? null, environment: event.environment })
        : NONE;
    case 'its-project': {
      const projects = [
        event.project,
        event.data?.project,
        event.preData?.project,
        event.data?.newProject,
        event.data?.oldProject,
      ].filter((project): project is string => typeof project === 'string' && project !== '');
      return projects.length > 0
        ? reach({ kind: 'projects', projects: [...new Set(projects)] })
        : reach({ kind: 'everything' });
    }
    case 'its-segment': {
      const id = Number((event.data ?? event.preData)?.id);
      return Number.isInteger(id) ? reach({ kind: 'segment', segmentId: id }) : reach({ kind: 'everything' });
    }
    case 'the-environment-everywhere': {
      if (!event.environment) return reach({ kind: 'everything' });
      // Renamed, retyped or re-sorted, an environment serves the same; switched off or on, it does not.
      if (event.type === 'environment-updated' && event.data?.enabled === event.preData?.enabled) return NONE;
      return reach({ kind: 'environment-everywhere', environment: event.environment });
    }
    case 'everything':
      return reach({ kind: 'everything' });
  }
}

/** Whether any of the events can change an answer SDKs compute somewhere: the gate's first, cheap question. */
export const changesAnswers = (events: readonly ReachedEvent[]) =>
  events.some((event) => reachOf(event).changesAnswers);
