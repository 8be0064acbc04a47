import { describe, expect, it } from 'vitest';
import { frontendContext } from './frontend-context.ts';

describe('frontendContext', () => {
  it('reads root fields, bracketed and nested properties, and any other parameter as a property', () => {
    const context = frontendContext(
      { userId: 'u1', appName: 'web', 'properties[country]': 'NO', plan: 'pro', properties: { tier: 'gold' } },
      '10.0.0.1',
    );
    expect(context).toEqual({
      userId: 'u1',
      appName: 'web',
      remoteAddress: '10.0.0.1',
      properties: { country: 'NO', plan: 'pro', tier: 'gold' },
    });
  });

  it('lets an explicit property win over a bare parameter of the same name, whatever the order', () => {
    expect(frontendContext({ 'properties[country]': 'SE', country: 'NO' }, '::1').properties).toEqual({
      country: 'SE',
    });
    expect(frontendContext({ country: 'NO', 'properties[country]': 'SE' }, '::1').properties).toEqual({
      country: 'SE',
    });
    expect(frontendContext({ country: 'NO', properties: { country: 'DK' } }, '::1').properties).toEqual({
      country: 'DK',
    });
  });

  it('takes the first of repeated parameters and keeps a given remoteAddress', () => {
    expect(frontendContext({ userId: ['a', 'b'], remoteAddress: '192.168.1.1' }, '::1')).toMatchObject({
      userId: 'a',
      remoteAddress: '192.168.1.1',
    });
  });

  it('treats "properties[]" as an ordinary parameter name', () => {
    expect(frontendContext({ 'properties[]': 'x' }, '::1').properties).toEqual({ 'properties[]': 'x' });
  });

  it('keeps empty values, which the SDKs count as present, except an empty currentTime, which means now', () => {
    expect(frontendContext({ userId: '', 'properties[age]': '', currentTime: '' }, '::1')).toEqual({
      userId: '',
      remoteAddress: '::1',
      properties: { age: '' },
    });
  });

  it('refuses a currentTime that is not a date and values over 2000 characters, naming the field', () => {
    expect(() => frontendContext({ currentTime: 'yesterday' }, '::1')).toThrow(/currentTime/);
    expect(() => frontendContext({ 'properties[note]': 'x'.repeat(2001) }, '::1')).toThrow(/properties\.note/);
    expect(() => frontendContext({ userId: 'x'.repeat(2001) }, '::1')).toThrow(/userId/);
  });
});
