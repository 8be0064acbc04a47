import { EventType, SplunkHecParameters } from '@bunting/contracts';
import { CUSTOM_HEADERS, customHeaders } from '../../providers/provider.ts';
import { SIGN_INS, auditRecord, batches, post, timeOf, type AuditDestination } from './destination.ts';

/** Splunk's HTTP Event Collector: events in HEC's envelope, many to a request, `Authorization: Splunk <token>`. */
export const splunkHecDestination: AuditDestination = {
  service: 'Splunk HEC',
  parameters: SplunkHecParameters,
  definition: {
    name: 'splunk-hec',
    displayName: 'Splunk (HTTP Event Collector)',
    description: 'Streams the audit log to Splunk in order, at least once, retried until Splunk takes it.',
    documentationUrl: 'https://docs.splunk.com/Documentation/Splunk/latest/Data/UsetheHTTPEventCollector',
    parameters: [
      {
        name: 'url',
        displayName: 'HEC address',
        placeholder: 'https://splunk.example.com:8088',
        type: 'url',
        required: true,
        sensitive: false,
        description: 'The collector’s base address; events go to /services/collector/event.',
      },
      { name: 'token', displayName: 'HEC token', type: 'text', required: true, sensitive: true },
      { name: 'index', displayName: 'Index', type: 'text', required: false, sensitive: false },
      {
        name: 'sourcetype',
        displayName: 'Source type',
        placeholder: 'bunting:audit',
        type: 'text',
        required: false,
        sensitive: false,
      },
      {
        name: 'source',
        displayName: 'Source',
        placeholder: 'bunting',
        type: 'text',
        required: false,
        sensitive: false,
      },
      CUSTOM_HEADERS,
      SIGN_INS,
    ],
    events: EventType.options,
    audit: true,
  },
  async send(parameters, items, context) {
    const { url, token, index, sourcetype, source } = SplunkHecParameters.parse(parameters);
    const lines = items.map((item) =>
      JSON.stringify({
        time: Date.parse(timeOf(item)) / 1000,
        host: context.host,
        source: source ?? 'bunting',
        // Sign-ins get their own source type, so a search can take one or the other.
        sourcetype: item.kind === 'access' ? `${sourcetype ?? 'bunting'}:access` : (sourcetype ?? 'bunting:audit'),
        ...(index ? { index } : {}),
        event: auditRecord(item),
      }),
    );
    // HEC's default limit on a request is 1 MB.
    for (const batch of batches(lines, (line) => Buffer.byteLength(line) + 1, 500, 800_000)) {
      await post(
        'Splunk HEC',
        `${url.replace(/\/+$/, '')}/services/collector/event`,
        {
          'content-type': 'application/json',
          authorization: `Splunk ${token}`,
          ...customHeaders(parameters.customHeaders),
        },
        batch.join('\n'),
      );
    }
  },
};
