import type { BodyOf } from '../api/endpoint.ts';

/** The context the playground sends, as the API takes it. */
type SdkContext = BodyOf<'/api/admin/playground/advanced', 'post'>['context'];
/** A playground context as the form holds it: the standard fields and custom properties as rows. */
export type ContextDraft = {
  appName: string;
  userId: string;
  sessionId: string;
  remoteAddress: string;
  currentTime: string;
  properties: { name: string; value: string }[];
};

export const emptyContext = (): ContextDraft => ({
  appName: 'playground',
  userId: '',
  sessionId: '',
  remoteAddress: '',
  currentTime: '',
  properties: [],
});

const STANDARD = ['userId', 'sessionId', 'remoteAddress', 'currentTime'] as const;

/** The request's context: empty fields left out, custom properties under `properties`. */
export function toRequestContext(draft: ContextDraft): SdkContext {
  const context: SdkContext = { appName: draft.appName.trim() || 'playground' };
  for (const field of STANDARD) {
    const value = draft[field].trim();
    if (value) context[field] = value;
  }
  const properties = Object.fromEntries(
    draft.properties
      .filter((row) => row.name.trim() && row.value.trim())
      .map((row) => [row.name.trim(), row.value.trim()]),
  );
  if (Object.keys(properties).length > 0) context.properties = properties;
  return context;
}

export type SavedContext = { name: string; context: ContextDraft };
const KEY = 'bunting.playground.contexts';
type Store = Pick<Storage, 'getItem' | 'setItem'>;

/** Contexts the user saved, kept in this browser only. Anything unreadable there counts as nothing saved. */
export function loadSaved(store: Store): SavedContext[] {
  try {
    const parsed: unknown = JSON.parse(store.getItem(KEY) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter(
        (entry): entry is SavedContext =>
          typeof entry?.name === 'string' && typeof entry?.context === 'object' && entry.context !== null,
      )
      .map((entry) => ({
        name: entry.name,
        context: {
          ...emptyContext(),
          ...entry.context,
          properties: Array.isArray(entry.context.properties) ? entry.context.properties : [],
        },
      }));
  } catch {
    return [];
  }
}

/** Saves a context under a name, replacing one of the same name; newest first. */
export function saveContext(store: Store, name: string, context: ContextDraft): SavedContext[] {
  const next = [{ name, context }, ...loadSaved(store).filter((entry) => entry.name !== name)];
  store.setItem(KEY, JSON.stringify(next));
  return next;
}

export function forgetContext(store: Store, name: string): SavedContext[] {
  const next = loadSaved(store).filter((entry) => entry.name !== name);
  store.setItem(KEY, JSON.stringify(next));
  return next;
}
