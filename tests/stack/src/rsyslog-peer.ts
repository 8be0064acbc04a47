import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@bunting/testing';

export type RsyslogPeer = {
  host: string;
  port: number;
  /** The certificate authority that signed the collector's certificate (PEM), for the client to trust. */
  caCertificate: string;
  /** The messages rsyslog wrote to its file so far, one RFC 5424 line each. */
  lines: () => string[];
  stop: () => Promise<void>;
  /** Starts it again on the same port (after stop), keeping what it wrote. */
  start: () => Promise<void>;
  /** Stops it and removes its files. */
  close: () => Promise<void>;
};

function openssl(args: string[]) {
  execFileSync('openssl', args, { stdio: 'ignore' });
}

/**
 * Debian's rsyslogd as a TLS syslog collector (imtcp with the gtls driver, octet-counted frames), writing what it
 * receives to a file in RFC 5424 form; a certificate authority and a server certificate for 127.0.0.1 made by openssl.
 */
export async function startRsyslogPeer(): Promise<RsyslogPeer> {
  const dir = mkdtempSync(join(tmpdir(), 'rsyslog-peer-'));
  const file = (name: string) => join(dir, name);
  openssl(
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', file('ca-key.pem'), '-out', file('ca.pem')].concat([
      '-subj',
      '/CN=bunting-test-ca',
      '-days',
      '2',
    ]),
  );
  openssl(
    ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', file('key.pem'), '-out', file('server.csr')].concat([
      '-subj',
      '/CN=127.0.0.1',
    ]),
  );
  writeFileSync(file('san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(
    ['x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca-key.pem')].concat([
      '-CAcreateserial',
      '-out',
      file('cert.pem'),
      '-days',
      '2',
      '-extfile',
      file('san.ext'),
    ]),
  );
  const port = await freePort();
  writeFileSync(
    file('rsyslog.conf'),
    [
      `global(workDirectory="${dir}" defaultNetstreamDriver="gtls"`,
      `  defaultNetstreamDriverCAFile="${file('ca.pem')}" defaultNetstreamDriverCertFile="${file('cert.pem')}"`,
      `  defaultNetstreamDriverKeyFile="${file('key.pem')}")`,
      'module(load="imtcp" streamDriver.name="gtls" streamDriver.mode="1" streamDriver.authMode="anon")',
      `input(type="imtcp" port="${port}" address="127.0.0.1")`,
      `action(type="omfile" file="${file('received.log')}" template="RSYSLOG_SyslogProtocol23Format")`,
      '',
    ].join('\n'),
  );
  let child: ChildProcess | undefined;

  const start = async () => {
    child = spawn('rsyslogd', ['-n', '-f', file('rsyslog.conf'), '-i', file('rsyslogd.pid')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`rsyslogd exited (${child.exitCode}): ${stderr}`);
      const open = await new Promise<boolean>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.destroy();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      });
      if (open) return;
      if (Date.now() > deadline) throw new Error(`rsyslogd did not listen: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    host: '127.0.0.1',
    port,
    caCertificate: readFileSync(file('ca.pem'), 'utf8'),
    lines: () =>
      existsSync(file('received.log'))
        ? readFileSync(file('received.log'), 'utf8')
            .split('\n')
            .filter((line) => line !== '')
        : [],
    start,
    stop,
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
