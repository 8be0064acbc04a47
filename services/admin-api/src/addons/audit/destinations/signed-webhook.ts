import { createHmac } from 'node:crypto';
import { EventType, SignedWebhookParameters } from '@bunting/contracts';
import { CUSTOM_HEADERS, customHeaders } from '../../providers/provider.ts';
import { SIGN_INS, auditRecord, batches, post, type AuditDestination } from './destination.ts';

/**
 * The headers that let a receiver trust a body: `X-Bunting-Signature` is the HMAC-SHA256 of `<timestamp>.<body>`,
 * so a captured request cannot be replayed later with a fresh timestamp; `X-Hub-Signature-256` is GitHub's form (the
 * body alone) for receivers that already check GitHub's webhooks.
 */
export function signatureHeaders(secret: string, body: string, nowSeconds: number): Record<string, string> {
  const timestamp = String(nowSeconds);
  const hmac = (text: string) => createHmac('sha256', secret).update(text).digest('hex');
  return {
    'x-bunting-timestamp': timestamp,
    'x-bunting-signature': `sha256=${hmac(`${timestamp}.${body}`)}`,
    'x-hub-signature-256': `sha256=${hmac(body)}`,
  };
}

/** A webhook whose bodies are signed: `{ events: [...] }`, each event with its id for deduplication. */
export const signedWebhookDestination: AuditDestination = {
  service: 'Signed webhook',
  parameters: SignedWebhookParameters,
  definition: {
    name: 'signed-webhook',
    displayName: 'Signed webhook (audit)',
    description:
      'Streams the audit log to any HTTPS endpoint in order, at least once; every body is signed with a shared secret.',
    documentationUrl: 'https://github.com/bunting-flags/bunting/blob/main/docs/audit-streaming.md#signed-webhook',
    parameters: [
      { name: 'url', displayName: 'Webhook address', type: 'url', required: true, sensitive: false },
      {
        name: 'secret',
        displayName: 'Signing secret',
        type: 'text',
        required: true,
        sensitive: true,
        description: 'At least 16 characters; the receiver checks X-Bunting-Signature with it.',
      },
      CUSTOM_HEADERS,
      SIGN_INS,
    ],
    events: EventType.options,
    audit: true,
  },
  async send(parameters, items) {
    const { url, secret } = SignedWebhookParameters.parse(parameters);
    const records = items.map((item) => JSON.stringify(auditRecord(item)));
    for (const batch of batches(records, (record) => Buffer.byteLength(record) + 1, 100, 1_000_000)) {
      const body = `{"events":[${batch.join(',')}]}`;
      await post(
        'Signed webhook',
        url,
        {
          'content-type': 'application/json',
          ...customHeaders(parameters.customHeaders),
          ...signatureHeaders(secret, body, Math.floor(Date.now() / 1000)),
        },
        body,
      );
    }
  },
};
