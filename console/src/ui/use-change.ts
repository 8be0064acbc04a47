import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidate, type ReadPath } from '../api/endpoint.ts';
import { notifyFailed, notifySaved } from './notify.ts';

type Options<Input, Output> = {
  /** The endpoints whose answers the change makes stale: every page showing them asks again. */
  refresh: readonly ReadPath[];
  /** The word when it worked (none: nothing said). */
  done?: string | ((output: Output, input: Input) => string);
  /** The title of the refusal's notice (none: the caller shows the refusal itself, as a form does at its fields). */
  failed?: string;
  onSuccess?: (output: Output, input: Input) => unknown;
  /** Names the change's mutations, for a control that shows which of them are under way. */
  mutationKey?: readonly unknown[];
};

/**
 * A change through the API: the call, a word that it worked, and the endpoints it affects fetched again, also after
 * a refusal (a conflict means what is shown is out of date).
 */
export function useChange<Input = void, Output = unknown>(
  call: (input: Input) => Promise<Output>,
  options: Options<Input, Output>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    ...(options.mutationKey ? { mutationKey: options.mutationKey } : {}),
    mutationFn: call,
    onSuccess: async (output, input) => {
      if (options.done) notifySaved(typeof options.done === 'string' ? options.done : options.done(output, input));
      await options.onSuccess?.(output, input);
    },
    ...(options.failed ? { onError: (error: unknown) => notifyFailed(error, options.failed) } : {}),
    onSettled: () => invalidate(queryClient, ...options.refresh),
  });
}
