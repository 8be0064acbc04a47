import { fileURLToPath } from 'node:url';
import { startTelemetry } from '@bunting/platform';
import { localAdminToken } from './local-admin-token.ts';
import { parseTargets } from './services.ts';
import { startStack } from './stack.ts';
import { startupBanner } from './banner.ts';

function targetFromArgs(argv: string[]): string | undefined {
  for (const [index, arg] of argv.entries()) {
    if (arg.startsWith('--target=')) return arg.slice('--target='.length);
    if (arg === '--target') return argv[index + 1];
  }
  return undefined;
}

const target = targetFromArgs(process.argv.slice(2)) ?? process.env.BUNTING_TARGET ?? 'all';
const targets = parseTargets(target);
let printedToken: string | undefined;
if (targets.includes('admin-api') && !process.env.INIT_ADMIN_API_TOKENS) {
  printedToken = localAdminToken(fileURLToPath(new URL('../../.bunting/admin-token', import.meta.url)));
  process.env.INIT_ADMIN_API_TOKENS = printedToken;
}

const stopTelemetry = await startTelemetry(`bunting-${target}`);
const stack = await startStack({ target });
const port = process.env.PORT ?? '4242';
console.log(startupBanner({ targets: stack.targets, port, printedToken, env: process.env }));

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    stack.infrastructure.log.info({ signal }, 'shutting down');
    const begun = performance.now();
    const force = setTimeout(() => process.exit(1), 20_000);
    force.unref();
    stack
      .close()
      .then(() => stopTelemetry())
      .then(
        () => {
          // How long the stop took, for an orchestrator that kills what it waits for too long (Docker: 10 s).
          stack.infrastructure.log.info({ ms: Math.round(performance.now() - begun) }, 'stopped');
          process.exit(0);
        },
        (error) => {
          console.error(error);
          process.exit(1);
        },
      );
  });
}
