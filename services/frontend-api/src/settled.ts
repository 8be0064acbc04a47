/**
 * A handler's outcome without its value: routes that send pre-encoded bytes declare their answer's schema for the
 * document, so the handler may return only nothing (answered at once) or a promise of nothing (answered after an
 * await), never the reply itself.
 */
export function settled(result: unknown): void | Promise<void> {
  if (result instanceof Promise) return result.then(() => undefined);
  return undefined;
}
