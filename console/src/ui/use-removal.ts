import { useMutation, useQueryClient } from '@tanstack/react-query';
import { remove } from '../api/http.ts';
import { notifyFailed, notifySaved } from './notify.ts';

/**
 * Deleting one of the things a page lists: the DELETE, then the lists it appears in fetched again and a word that it
 * went; a refusal is shown with the server's reason.
 */
export function useRemoval<Item>(path: (item: Item) => string, options: { refresh: readonly (readonly unknown[])[]; done: string; failed?: string }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (item: Item) => remove(path(item)),
    onSuccess: () => {
      for (const queryKey of options.refresh) void queryClient.invalidateQueries({ queryKey });
      notifySaved(options.done);
    },
    onError: (error) => notifyFailed(error, options.failed ?? 'Not deleted'),
  });
}
