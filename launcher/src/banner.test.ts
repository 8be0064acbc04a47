import { describe, expect, it } from 'vitest';
import { startupBanner } from './banner.ts';

describe('the start-up banner', () => {
  const banner = (env: Record<string, string>) => startupBanner({ targets: ['admin-api'], port: '4242', env });

  it('names the default admin and its password on a default install', () => {
    expect(banner({})).toContain('admin / unleash4all');
  });

  it('never prints the default password when another was configured, and names the configured user', () => {
    const text = banner({ UNLEASH_DEFAULT_ADMIN_USERNAME: 'root', UNLEASH_DEFAULT_ADMIN_PASSWORD: 's3cret-value' });
    expect(text).toContain('root / (the password in UNLEASH_DEFAULT_ADMIN_PASSWORD)');
    expect(text).not.toContain('unleash4all');
    expect(text).not.toContain('s3cret-value');
  });

  it('offers no default admin when it is disabled', () => {
    const text = banner({ DISABLE_DEFAULT_ADMIN_USER: 'true' });
    expect(text).toContain('No default admin user');
    expect(text).not.toContain('unleash4all');
  });

  it("gives the web console's address where admin-api serves it", () => {
    expect(banner({})).toContain('Web console: http://localhost:4242/');
    expect(banner({ CONSOLE_DIR: 'off' })).toContain('Web console: off');
    expect(startupBanner({ targets: ['frontend-api'], port: '4242', env: {} })).not.toContain('Web console');
  });

  it('says nothing of signing in when admin-api is not among the targets', () => {
    expect(startupBanner({ targets: ['frontend-api'], port: '4242', env: {} })).not.toContain('Sign in');
  });
});
