import { useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../api/endpoint.ts';

/** The banners admins put up, the enabled ones. */
export const useShownBanners = () =>
  useQuery({
    ...endpointQuery('/api/admin/banners'),
    select: (data) => data.banners.filter((banner) => banner.enabled),
    staleTime: 60_000,
  });
