import { describe, expect, it } from 'vitest';
import { readEdgeConfig } from './edge-config.ts';

describe("the edge's configuration", () => {
  it('needs an http(s) upstream and says so', () => {
    expect(() => readEdgeConfig({})).toThrow(/needs UPSTREAM_URL/);
    expect(() => readEdgeConfig({ UPSTREAM_URL: 'not a url' })).toThrow(/not a URL/);
    expect(() => readEdgeConfig({ UPSTREAM_URL: 'ftp://unleash' })).toThrow(/http or https/);
  });

  it('refuses intervals and limits below 1, and numbers that are not whole', () => {
    expect(() => readEdgeConfig({ UPSTREAM_URL: 'http://unleash:4242', EDGE_METRICS_LIMIT: '0' })).toThrow(
      /EDGE_METRICS_LIMIT must be at least 1/,
    );
    expect(() => readEdgeConfig({ UPSTREAM_URL: 'http://unleash:4242', EDGE_POLL_MS: '-5' })).toThrow(/EDGE_POLL_MS/);
    expect(() => readEdgeConfig({ UPSTREAM_URL: 'http://unleash:4242', EDGE_PROBE_MS: 'soon' })).toThrow(
      /EDGE_PROBE_MS must be an integer/,
    );
  });

  it('takes the upstream with or without a trailing slash and the tokens as a list', () => {
    const config = readEdgeConfig({
      UPSTREAM_URL: 'https://flags.example.com/unleash/',
      EDGE_TOKENS: ' *:production.a , default:development.b ',
    });
    expect(new URL('api/client/features', config.upstreamUrl).href).toBe(
      'https://flags.example.com/unleash/api/client/features',
    );
    expect(config.tokens).toEqual(['*:production.a', 'default:development.b']);
    expect(config.metricsLimit).toBe(100_000);
    expect(config.persistDir).toBeUndefined();
  });
});
