import { describe, expect, it } from 'vitest';
import { addonTarget, parametersToSend } from './integration-form.ts';

describe('the integration form', () => {
  it('sends the filled fields, leaving empty optional ones out and keeping a required one even when empty', () => {
    const provider = {
      parameters: [
        { name: 'url', required: true },
        { name: 'username', required: false },
        { name: 'emojiIcon', required: false },
      ],
    } as never;
    expect(
      parametersToSend(provider, {
        url: ' https://hooks.slack.test/x ',
        username: '',
        emojiIcon: ':bell:',
        stray: 'x',
      }),
    ).toEqual({ url: 'https://hooks.slack.test/x', emojiIcon: ':bell:' });
    expect(parametersToSend(provider, {})).toEqual({ url: '' });
  });

  it('names an integration by its URL, else by service and channel', () => {
    expect(addonTarget({ id: 1, provider: 'webhook', parameters: { url: 'https://example.test/hook' } })).toBe(
      'https://example.test/hook',
    );
    expect(addonTarget({ id: 2, provider: 'slack', parameters: { url: '*****', defaultChannel: 'releases' } })).toBe(
      'slack: releases',
    );
    expect(addonTarget({ id: 3, provider: 'datadog', parameters: { apiKey: '*****' } })).toBe('datadog #3');
  });
});
