import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../../cli/src/bin.ts', import.meta.url));

export type CliRun = { code: number; stdout: string; stderr: string };

/** Runs the `bunting` CLI as a CI job would, in its own process. */
export function bunting(args: readonly string[], env: { url: string; token: string }): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [MAIN, ...args],
      { env: { ...process.env, BUNTING_URL: env.url, BUNTING_TOKEN: env.token, GITHUB_SHA: '' }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A directory holding one project file. */
export async function projectDir(text: string, name = 'project.yaml'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'bunting-cli-'));
  await writeFile(join(dir, name), text);
  return dir;
}

/** A project file a team might write: a segment, a flag rolled out in development, a child flag with variants (on
 * its strategy: Unleash 8 refuses environment variants on new flags). */
export const SHOP = `project: default
segments:
  beta-users:
    description: People who asked for early features
    constraints:
      - contextName: email
        operator: STR_ENDS_WITH
        values: ["@example.com"]
flags:
  checkout-v2:
    description: The new checkout
    tags: ["simple:web"]
    environments:
      development:
        enabled: true
        strategies:
          - name: flexibleRollout
            title: Half of beta users
            parameters: { rollout: 50, stickiness: userId, groupId: checkout-v2 }
            constraints:
              - contextName: appVersion
                operator: SEMVER_GTE
                value: 2.1.0
            segments: [beta-users]
      production:
        enabled: false
        strategies:
          - name: default
  checkout-banner:
    type: experiment
    dependencies:
      - feature: checkout-v2
    environments:
      development:
        enabled: true
        strategies:
          - name: default
            variants:
              - name: blue
                stickiness: userId
                payload: { type: string, value: Try the new checkout }
              - name: green
                stickiness: userId
                payload: { type: string, value: Checkout is faster now }
`;
