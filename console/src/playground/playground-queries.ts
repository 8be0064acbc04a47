import { useMutation } from '@tanstack/react-query';
import type { BodyOf } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';

/** What every flag answers for a context in some environments (changes nothing, so nothing is refreshed after). */
export const useAdvancedPlayground = () =>
  useMutation({
    mutationFn: (body: BodyOf<'/api/admin/playground/advanced', 'post'>) =>
      answer(api.POST('/api/admin/playground/advanced', { body })),
  });
