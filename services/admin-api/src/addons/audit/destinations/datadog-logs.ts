import { DATADOG_SITES, DatadogLogsParameters, EventType, type DomainEvent } from '@bunting/contracts';
import { auditRecord, batches, post, summaryOf, type AuditDestination } from './destination.ts';

function tagsOf(event: DomainEvent, extra: string | undefined): string {
  return [
    `event_type:${event.type}`,
    ...(event.project ? [`project:${event.project}`] : []),
    ...(event.environment ? [`environment:${event.environment}`] : []),
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
    ],
    events: EventType.options,
  },
  async send(parameters, events, context) {
    const { site, apiKey, url, service, tags } = DatadogLogsParameters.parse(parameters);
    const logs = events.map((event) =>
      JSON.stringify({
        ddsource: 'bunting',
        ddtags: tagsOf(event, tags),
        hostname: context.host,
        service: service ?? 'bunting',
        message: summaryOf(event),
        date: event.createdAt,
        evt: { id: event.uuid, name: event.type, outcome: 'success' },
        usr: {
          name: event.createdBy,
          ...(event.createdByUserId === null ? {} : { id: String(event.createdByUserId) }),
        },
        bunting: auditRecord(event),
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
