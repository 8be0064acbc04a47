import type { Env } from '@bunting/platform';

/** What `npm start` prints once the stack runs: where it is and how to get in, as true for this configuration. */
export function startupBanner(options: {
  targets: readonly string[];
  port: string;
  printedToken?: string | undefined;
  env: Env;
}): string {
  const { targets, port, printedToken, env } = options;
  const base = `http://localhost:${port}`;
  const lines = [`Bunting is running (${targets.join(', ')}) on ${base}`];
  if (printedToken) {
    lines.push(
      `Admin API token: ${printedToken}`,
      `  e.g. curl -H "Authorization: ${printedToken}" ${base}/api/admin/projects`,
    );
  }
  if (targets.includes('admin-api')) {
    lines.push(env.CONSOLE_DIR === 'off' ? 'Web console: off (CONSOLE_DIR=off)' : `Web console: ${base}/`);
    const disabled = ['1', 'true', 'yes', 'on'].includes((env.DISABLE_DEFAULT_ADMIN_USER ?? '').toLowerCase());
    if (disabled) {
      lines.push(
        'No default admin user (DISABLE_DEFAULT_ADMIN_USER): sign in as a user you created, or with OpenID Connect.',
      );
    } else {
      const username = env.UNLEASH_DEFAULT_ADMIN_USERNAME ?? 'admin';
      const password = env.UNLEASH_DEFAULT_ADMIN_PASSWORD
        ? '(the password in UNLEASH_DEFAULT_ADMIN_PASSWORD)'
        : 'unleash4all';
      lines.push(
        `Sign in: ${username} / ${password} (the admin user a fresh install gets; change the password once in)`,
      );
    }
  }
  lines.push(`Health: ${base}/health   Ready: ${base}/ready`);
  return `\n${lines.join('\n')}\n`;
}
