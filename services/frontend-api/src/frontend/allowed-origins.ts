import { FrontendSettingsView } from '@bunting/contracts';
import { askView, type Logger, type Messaging } from '@bunting/platform';

const SETTING_EVENTS = ['setting-created', 'setting-updated', 'setting-deleted'] as const;
const REFRESH_MS = 30_000;

export type AllowedOrigins = { current: () => readonly string[]; stop: () => void };

/**
 * The origins CORS allows on the frontend API: what an admin set through /api/admin/ui-config/cors, else the
 * deployment's FRONTEND_API_ORIGINS. Asked of admin-api at start, after every settings change, and every 30 s
 * in case admin-api was not answering when a change came.
 */
export function watchAllowedOrigins(messaging: Messaging, fallback: readonly string[], log: Logger): AllowedOrigins {
  let current = fallback;
  const refresh = async () => {
    try {
      current = (await askView(messaging, FrontendSettingsView, {})).frontendApiOrigins ?? fallback;
    } catch (error) {
      log.debug({ err: error }, 'frontend settings unavailable; keeping the allowed origins as they are');
    }
  };
  const subscriptions = SETTING_EVENTS.map((type) =>
    messaging.nc.subscribe(messaging.names.eventSubject(type), { callback: () => void refresh() }),
  );
  const timer = setInterval(() => void refresh(), REFRESH_MS);
  timer.unref();
  void refresh();
  return {
    current: () => current,
    stop: () => {
      clearInterval(timer);
      for (const subscription of subscriptions) subscription.unsubscribe();
    },
  };
}
