import { useQuery } from '@tanstack/react-query';
import { endpointQuery, type AnswerOf, type BodyOf } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';
import { useChange } from '../ui/use-change.ts';

export type AddonView = AnswerOf<'/api/admin/addons'>['addons'][number];
export type AddonBody = BodyOf<'/api/admin/addons', 'post'>;
export type AddonProvider = AnswerOf<'/api/admin/addons'>['providers'][number];

export const useAddons = () => useQuery(endpointQuery('/api/admin/addons'));

/** How an addon's last deliveries went, asked for every few seconds while it is open. */
export const useAddonDeliveries = (id: number | undefined) =>
  useQuery({
    ...endpointQuery('/api/admin/addons/{id}/events', { path: { id: id ?? 0 } }),
    enabled: id !== undefined,
    refetchInterval: 3000,
  });

const refresh = ['/api/admin/addons'] as const;

export const useSaveAddon = (id: number | undefined) =>
  useChange(
    (body: AddonBody) =>
      id !== undefined
        ? answer(api.PUT('/api/admin/addons/{id}', { params: { path: { id } }, body }))
        : answer(api.POST('/api/admin/addons', { body })),
    { refresh, done: 'Integration saved' },
  );

export const useSwitchAddon = () =>
  useChange(
    (addon: AddonView) =>
      answer(
        api.PUT('/api/admin/addons/{id}', {
          params: { path: { id: addon.id } },
          body: { ...addon, enabled: !addon.enabled },
        }),
      ),
    { refresh, failed: 'Not saved' },
  );

export const useRemoveAddon = () =>
  useChange((id: number) => answer(api.DELETE('/api/admin/addons/{id}', { params: { path: { id } } })), {
    refresh,
    done: 'Webhook removed',
    failed: 'Not removed',
  });

/** Where an audit destination's delivery stands, asked for every few seconds while it is shown. */
export const useAuditStatus = (id: number) =>
  useQuery({
    ...endpointQuery('/api/admin/addons/{id}/audit-status', { path: { id } }),
    refetchInterval: 5000,
  });

export const useAuditReplay = (id: number) =>
  useChange(
    (from: string) =>
      answer(api.POST('/api/admin/addons/{id}/audit-replay', { params: { path: { id } }, body: { from } })),
    {
      refresh: ['/api/admin/addons/{id}/audit-status'],
      done: 'Delivering again from that time',
      failed: 'Not replayed',
    },
  );
