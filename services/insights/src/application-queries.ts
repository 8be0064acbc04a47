import { z } from 'zod';
import { sql, type DatabasePool } from '@bunting/platform';

const ProjectApplication = z.object({ name: z.string(), environments: z.array(z.string()), sdkVersion: z.string().nullable(), instances: z.array(z.string()) });

/** "unleash-client-node:6.12.1" as the SDK's name and version. */
function sdkOf(sdkVersion: string | null) {
  if (!sdkVersion) return [];
  const at = sdkVersion.lastIndexOf(':');
  return [{ name: at > 0 ? sdkVersion.slice(0, at) : sdkVersion, versions: at > 0 ? [sdkVersion.slice(at + 1)] : [] }];
}

/** The applications that evaluated flags of one project, by the metrics they sent. */
export async function projectApplications(db: DatabasePool, projectId: string, page: { query?: string | undefined; offset?: number | undefined; limit?: number | undefined; sortOrder?: 'asc' | 'desc' | undefined }) {
  const rows = await db.any(sql.type(ProjectApplication)`
    select m.app_name as name, array_agg(distinct m.environment order by m.environment) as environments, a.sdk_version as "sdkVersion",
      coalesce((select array_agg(distinct i.instance_id order by i.instance_id) from insights.application_instances i where i.app_name = m.app_name), '{}') as instances
    from insights.metric_hours m join insights.feature_projects p on p.feature_name = m.feature_name
    left join insights.applications a on a.app_name = m.app_name
    where p.project = ${projectId} group by m.app_name, a.sdk_version order by m.app_name`);
  const matching = rows.filter((row) => !page.query || row.name.toLowerCase().includes(page.query.toLowerCase()));
  if (page.sortOrder === 'desc') matching.reverse();
  const offset = page.offset ?? 0;
  return {
    total: matching.length,
    applications: matching.slice(offset, offset + (page.limit ?? 50)).map((row) => ({ name: row.name, environments: row.environments, instances: row.instances, sdks: sdkOf(row.sdkVersion) })),
  };
}

const Seen = z.object({ name: z.string(), appName: z.string(), environment: z.string(), seenAt: z.string() });

/** Flags SDKs reported in the last week that the configuration does not have. */
export async function unknownFlags(db: DatabasePool, known: ReadonlySet<string>) {
  const seen = await db.any(sql.type(Seen)`
    select feature_name as name, app_name as "appName", environment,
      to_char(max(hour) at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "seenAt"
    from insights.metric_hours where hour >= now() - interval '7 days'
    group by feature_name, app_name, environment order by feature_name, app_name, environment`);
  const flags = new Map<string, { name: string; lastSeenAt: string; lastEventAt: null; reports: Map<string, { environment: string; seenAt: string }[]> }>();
  for (const row of seen) {
    if (known.has(row.name)) continue;
    const flag = flags.get(row.name) ?? { name: row.name, lastSeenAt: row.seenAt, lastEventAt: null, reports: new Map() };
    if (row.seenAt > flag.lastSeenAt) flag.lastSeenAt = row.seenAt;
    flag.reports.set(row.appName, [...(flag.reports.get(row.appName) ?? []), { environment: row.environment, seenAt: row.seenAt }]);
    flags.set(row.name, flag);
  }
  return {
    unknownFlags: [...flags.values()].map((flag) => ({
      ...flag,
      reports: [...flag.reports].map(([appName, environments]) => ({ appName, environments })),
    })),
  };
}
