import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

/** A real SMTP server (the smtp-server package) that keeps what it receives, parsed; stopped and started by tests. */
export type SmtpPeer = {
  port: number;
  received: ParsedMail[];
  /** Mail received for `address`. */
  to: (address: string) => ParsedMail[];
  close: () => Promise<void>;
};

const recipients = (mail: ParsedMail) =>
  (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((address) =>
    address.value.map((entry) => entry.address?.toLowerCase()),
  );

/** Listens on `port` (0: any); `received` carries over from a server stopped before. */
export function startSmtpPeer(port = 0, received: ParsedMail[] = []): Promise<SmtpPeer> {
  const server = new SMTPServer({
    // A plain local server: no TLS to offer, no sign-in to ask for.
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        received.push(mail);
        callback();
      }, callback);
    },
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : port,
        received,
        to: (wanted) => received.filter((mail) => recipients(mail).includes(wanted.toLowerCase())),
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

/** The password link a mail carries (welcome and reset mails). */
export const resetLinkIn = (mail: ParsedMail) =>
  /https?:\/\/\S+\/reset-password\?token=[\w-]+/.exec(mail.text ?? '')?.[0];
