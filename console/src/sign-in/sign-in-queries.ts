import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { SignInOption } from '@bunting/contracts';
import { ApiError, answer, api } from '../api/http.ts';

/** What the 401 of /api/admin/user says about signing in: the main method and whether its form is hidden, the others offered. */
export type SignInOptions = {
  type?: string;
  path?: string;
  defaultHidden?: boolean;
  options?: z.infer<typeof SignInOption>[];
};

/** How one may sign in, or null when already signed in. */
export const useSignInOptions = () =>
  useQuery({
    queryKey: ['/api/admin/user', 'sign-in-options'],
    queryFn: async () => {
      try {
        await answer(api.GET('/api/admin/user'));
        return null;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return error.body as SignInOptions;
        throw error;
      }
    },
    retry: false,
  });
