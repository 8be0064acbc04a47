/** RFC 5424's facility 13 is "log audit", 10 "security/authorization" (sign-ins); severity 5 notice, 6 informational. */
const FACILITY_LOG_AUDIT = 13;
const FACILITY_AUTHPRIV = 10;

const field = (value: string, max: number) => {
  const printable = value.replace(/[^\x21-\x7e]/g, '_').slice(0, max);
  return printable === '' ? '-' : printable;
};
/** Structured-data parameter values escape `"`, `\` and `]`. */
const sdValue = (value: string) => value.replace(/["\\\]]/g, (char) => `\\${char}`);

/**
 * One RFC 5424 message framed by octet counting (RFC 6587): `<length> <PRI>1 TIMESTAMP HOST APP - MSGID [SD] MSG`.
 * The structured data carries the record's id, so a collector can drop a redelivered copy. 32473 is the private
 * enterprise number RFC 5612 sets aside for examples: Bunting has none of its own.
 */
export function syslogFrame(message: {
  time: string;
  host: string;
  appName: string;
  msgId: string;
  /** A sign-in: the authorization facility instead of log audit. */
  access?: boolean;
  id: string;
  type: string;
  severity: 5 | 6;
  text: string;
}): Buffer {
  const pri = (message.access ? FACILITY_AUTHPRIV : FACILITY_LOG_AUDIT) * 8 + message.severity;
  const sd = `[bunting@32473 id="${sdValue(message.id)}" type="${sdValue(message.type)}"]`;
  const line = `<${pri}>1 ${new Date(message.time).toISOString()} ${field(message.host, 255)} ${field(message.appName, 48)} - ${field(message.msgId, 32)} ${sd} ${message.text}`;
  const body = Buffer.from(line, 'utf8');
  return Buffer.concat([Buffer.from(`${body.length} `), body]);
}
