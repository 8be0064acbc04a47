import type { ContextField } from '@bunting/contracts';

/** The stickiness a rollout or variant may use: Unleash's built-in ones and every context field marked for it. */
export function stickinessOptions(fields: readonly ContextField[]): string[] {
  return [
    ...new Set([
      'default',
      'userId',
      'sessionId',
      'random',
      ...fields.filter((field) => field.stickiness).map((field) => field.name),
    ]),
  ];
}
