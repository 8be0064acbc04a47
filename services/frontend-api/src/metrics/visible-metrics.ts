import type { BulkMetrics, ClientMetrics } from '@bunting/contracts';
import type { EdgeAccess } from '../access.ts';
import type { CompiledEnvironment } from '../snapshots/compiled-environment.ts';

/** Flags no project of the environment has, kept per post: enough for an SDK ahead of a new flag, not a flood. */
export const UNKNOWN_FLAGS_PER_POST = 100;

/**
 * Whether a token may report on a flag: one of its projects' flags, or (up to a bound) a flag the environment does
 * not have at all. Flags of projects the token cannot see are never counted.
 */
function admission(access: EdgeAccess, environment: CompiledEnvironment) {
  const everyProject = access.projects.includes('*');
  const projects = new Set(access.projects);
  let unknown = 0;
  return (name: string): boolean => {
    const project = environment.projectOf(name);
    if (project !== undefined) return everyProject || projects.has(project);
    unknown += 1;
    return unknown <= UNKNOWN_FLAGS_PER_POST;
  };
}

/** An SDK's bucket of counts, keeping only the flags its token may report on. */
export function visibleBucket(
  body: ClientMetrics,
  access: EdgeAccess,
  environment: CompiledEnvironment,
): ClientMetrics {
  const admit = admission(access, environment);
  const toggles = Object.fromEntries(Object.entries(body.bucket.toggles).filter(([name]) => admit(name)));
  return { ...body, bucket: { ...body.bucket, toggles } };
}

/** A bulk post (Unleash Edge's), keeping only the entries its token may report on. */
export function visibleBulk(body: BulkMetrics, access: EdgeAccess, environment: CompiledEnvironment): BulkMetrics {
  const admit = admission(access, environment);
  return body.metrics ? { ...body, metrics: body.metrics.filter((entry) => admit(entry.featureName)) } : body;
}
