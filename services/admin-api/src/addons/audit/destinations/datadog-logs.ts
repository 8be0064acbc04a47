import { DATADOG_SITES, DatadogLogsParameters, EventType } from '@bunting/contracts';
import {
  SIGN_INS,
  auditRecord,
  batches,
  idOf,
  post,
  summaryOf,
  timeOf,
  type AuditDestination,
  type AuditItem,
} from './destination.ts';

function tagsOf(item: AuditItem, extra: string | undefined): string {
  const own =
    item.kind === 'access'
      ? [`access_method:${item.access.method}`, `access_action:${item.access.action}`, `outcome:${item.access.outcome}`]
      : [
          `event_type:${item.event.type}`,
          ...(item.event.project ? [`project:${item.event.project}`] : []),
          ...(item.event.environment ? [`environment:${item.event.environment}`] : []),
        ];
  return [
    ...own,
    ...(extra ?? '')
      .split(',')
      .map((tag) => tag.trim())
      .filter(Boolean),
  ].join(',');
}

/** Datadog Logs' v2 intake: a JSON array of logs, with Datadog's reserved attributes and tags from the event. */
export const datadogLogsDestination: AuditDestination = {
  service: 'Datadog Logs',
  parameters: DatadogLogsParameters,
  definition: {
    name: 'datadog-logs',
    displayName: 'Datadog Logs (audit)',
    description: 'Streams the audit log to Datadog Logs in order, at least once, tagged by project and environment.',
    documentationUrl: 'https://docs.datadoghq.com/api/latest/logs/#send-logs',
    parameters: [
      {
        name: 'site',
        displayName: 'Datadog site',
        placeholder: 'datadoghq.com',
        type: 'text',
        required: false,
        sensitive: false,
        description: `One of ${DATADOG_SITES.join(', ')}.`,
      },
      { name: 'apiKey', displayName: 'Datadog API key', type: 'text', required: true, sensitive: true },
      {
        name: 'url',
        displayName: 'Intake address',
        type: 'url',
        required: false,
        sensitive: false,
        description: 'Only behind a proxy: the address to post to instead of the site’s intake.',
      },
      {
        name: 'service',
        displayName: 'Service',
        placeholder: 'bunting',
        type: 'text',
        required: false,
        sensitive: false,
      },
      {
        name: 'tags',
        displayName: 'Extra tags',
        placeholder: 'team:platform,env:prod',
        type: 'text',
        required: false,
        sensitive: false,
      },
      SIGN_INS,
    ],
    events: EventType.options,
    audit: true,
  },
  async send(parameters, items, context) {
    const { site, apiKey, url, service, tags } = DatadogLogsParameters.parse(parameters);
    const logs = items.map((item) =>
      JSON.stringify({
        ddsource: 'bunting',
        ddtags: tagsOf(item, tags),
        hostname: context.host,
        service: service ?? 'bunting',
        message: summaryOf(item),
        date: timeOf(item),
        // Datadog's standard attributes: the event, the user and, for sign-ins, the client.
        ...(item.kind === 'access'
          ? {
              evt: { id: idOf(item), name: 'authentication', outcome: item.access.outcome },
              usr: {
                ...(item.access.name ? { name: item.access.name } : {}),
                ...(item.access.userId === null ? {} : { id: String(item.access.userId) }),
              },
              network: { client: { ip: item.access.address } },
              http: { useragent: item.access.userAgent },
            }
          : {
              evt: { id: idOf(item), name: item.event.type, outcome: 'success' },
              usr: {
                name: item.event.createdBy,
                ...(item.event.createdByUserId === null ? {} : { id: String(item.event.createdByUserId) }),
              },
            }),
        bunting: auditRecord(item),
      }),
    );
    // The intake takes at most 1,000 logs and 5 MB a request.
    for (const batch of batches(logs, (log) => Buffer.byteLength(log) + 1, 1000, 4_000_000)) {
      await post(
        'Datadog Logs',
        url ?? `https://http-intake.logs.${site ?? 'datadoghq.com'}/api/v2/logs`,
        { 'content-type': 'application/json', 'dd-api-key': apiKey },
        `[${batch.join(',')}]`,
      );
    }
  },
};
