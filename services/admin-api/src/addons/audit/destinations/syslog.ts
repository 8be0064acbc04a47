import { isIP, connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { EventType, SyslogParameters } from '@bunting/contracts';
import { SIGN_INS, auditRecord, idOf, timeOf, type AuditDestination, type AuditItem } from './destination.ts';
import { cefOf } from './cef.ts';
import { syslogFrame } from './syslog-frame.ts';

const TIMEOUT_MS = 10_000;

/**
 * Writes frames on one connection and waits until the collector has read them all: after our end of the stream,
 * a collector closes its own only once it has read to the end. Syslog has no acknowledgement of its own, so this
 * is as close to "received" as the protocol allows (RELP would say more).
 */
function deliver(options: { host: string; port: number; tls: boolean; ca?: string }, frames: Buffer[]) {
  return new Promise<void>((resolve, reject) => {
    let socket: Socket;
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    const write = () => {
      socket.end(Buffer.concat(frames));
    };
    socket = options.tls
      ? tlsConnect(
          {
            host: options.host,
            port: options.port,
            ...(isIP(options.host) ? {} : { servername: options.host }),
            ca: options.ca,
          },
          write,
        )
      : tcpConnect({ host: options.host, port: options.port }, write);
    socket.setTimeout(TIMEOUT_MS, () => fail(new Error(`no answer in ${TIMEOUT_MS / 1000} s`)));
    socket.on('error', fail);
    socket.on('data', () => undefined);
    socket.on('close', (hadError) => {
      if (!hadError) resolve();
    });
  });
}

/** Notice for what removes something or a refused sign-in, informational otherwise. */
function severityOf(item: AuditItem): 5 | 6 {
  if (item.kind === 'access') return item.access.outcome === 'failure' ? 5 : 6;
  return /-(deleted|removed|archived)$|^drop-/.test(item.event.type) ? 5 : 6;
}

/** Syslog over TLS (RFC 5425) with octet counting, each event a CEF or JSON message. */
export const syslogDestination: AuditDestination = {
  service: 'Syslog collector',
  parameters: SyslogParameters,
  definition: {
    name: 'syslog',
    displayName: 'Syslog over TLS (audit)',
    description:
      'Streams the audit log to a syslog collector (RFC 5424 over TLS) as CEF for ArcSight or QRadar, or as JSON.',
    documentationUrl: 'https://github.com/bunting-flags/bunting/blob/main/docs/audit-streaming.md#syslog',
    parameters: [
      { name: 'host', displayName: 'Collector host', type: 'text', required: true, sensitive: false },
      { name: 'port', displayName: 'Port', placeholder: '6514', type: 'text', required: true, sensitive: false },
      {
        name: 'format',
        displayName: 'Message format',
        placeholder: 'cef',
        type: 'text',
        required: false,
        sensitive: false,
        description: 'cef (the default) or json.',
      },
      {
        name: 'tls',
        displayName: 'TLS',
        placeholder: 'true',
        type: 'text',
        required: false,
        sensitive: false,
        description: 'true (the default); false only inside a network you trust.',
      },
      {
        name: 'caCertificate',
        displayName: 'CA certificate (PEM)',
        type: 'textfield',
        required: false,
        sensitive: false,
        description: 'When the collector’s certificate comes from your own authority.',
      },
      {
        name: 'appName',
        displayName: 'App name',
        placeholder: 'bunting',
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
    const { host, port, format, tls, caCertificate, appName } = SyslogParameters.parse(parameters);
    const frames = items.map((item) =>
      syslogFrame({
        time: timeOf(item),
        host: context.host,
        appName: appName ?? 'bunting',
        access: item.kind === 'access',
        msgId: item.kind === 'access' ? 'sign-in' : 'audit',
        id: idOf(item),
        type: item.kind === 'access' ? `${item.access.method}:${item.access.action}` : item.event.type,
        severity: severityOf(item),
        text: format === 'json' ? JSON.stringify(auditRecord(item)) : cefOf(item, context.version),
      }),
    );
    try {
      await deliver({ host, port, tls: tls !== 'false', ca: caCertificate || undefined }, frames);
    } catch (error) {
      throw new Error(`Syslog collector ${host}:${port}: ${(error as Error).message}`, { cause: error });
    }
  },
};
