import { EventType, OcsfParameters } from '@bunting/contracts';
import { CUSTOM_HEADERS, customHeaders } from '../../providers/provider.ts';
import { SIGN_INS, batches, post, type AuditDestination } from './destination.ts';
import { ocsfOf } from './ocsf-mapping.ts';

/** OCSF records, a JSON array to a request, to any HTTPS endpoint (a security lake's collector, Cribl, Vector). */
export const ocsfDestination: AuditDestination = {
  service: 'OCSF endpoint',
  parameters: OcsfParameters,
  definition: {
    name: 'ocsf',
    displayName: 'OCSF over HTTPS (audit)',
    description:
      'Streams the audit log as Open Cybersecurity Schema Framework records to an HTTPS endpoint, in order, at least once.',
    documentationUrl: 'https://github.com/bunting-flags/bunting/blob/main/docs/audit-streaming.md#ocsf',
    parameters: [
      { name: 'url', displayName: 'Endpoint', type: 'url', required: true, sensitive: false },
      {
        name: 'authorization',
        displayName: 'Authorization header',
        type: 'text',
        required: false,
        sensitive: true,
      },
      CUSTOM_HEADERS,
      SIGN_INS,
    ],
    events: EventType.options,
    audit: true,
  },
  async send(parameters, items, context) {
    const { url, authorization } = OcsfParameters.parse(parameters);
    const records = items.map((item) => JSON.stringify(ocsfOf(item, context)));
    for (const batch of batches(records, (record) => Buffer.byteLength(record) + 1, 500, 1_000_000)) {
      await post(
        'OCSF endpoint',
        url,
        {
          'content-type': 'application/json',
          ...(authorization ? { authorization } : {}),
          ...customHeaders(parameters.customHeaders),
        },
        `[${batch.join(',')}]`,
      );
    }
  },
};
