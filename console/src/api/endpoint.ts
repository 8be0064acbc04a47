import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { HttpMethod, PathsWithMethod, RequestBodyJSON, SuccessResponseJSON } from 'openapi-typescript-helpers';
import type { paths } from '@bunting/api-client';
import { answer, api } from './http.ts';

/** An address of the API that answers GET. */
export type ReadPath = PathsWithMethod<paths, 'get'>;
type Operation<Path extends ReadPath> = paths[Path]['get'];
/** The path and query parameters an address takes, as the document declares them. */
export type ParamsOf<Path extends ReadPath> =
  Operation<Path> extends { parameters: infer Parameters }
    ? Pick<Parameters, ('path' | 'query') & keyof Parameters>
    : never;
/** What an address answers with. */
export type AnswerOf<Path extends ReadPath> = SuccessResponseJSON<Operation<Path>>;

/** The JSON body an operation takes, as the document declares it. */
export type BodyOf<Path extends keyof paths, Method extends HttpMethod> = RequestBodyJSON<
  paths[Path][Method & keyof paths[Path]]
>;

/**
 * The cache key of one endpoint with its parameters: the only way the console makes a query key. Every page that
 * reads an endpoint shares its entry, and a change invalidates it by its address (see invalidate).
 */
export const endpointKey = <Path extends ReadPath>(path: Path, params?: ParamsOf<Path>) =>
  params === undefined ? ([path] as const) : ([path, params] as const);

/** A query of one endpoint: its key, and the typed call that answers it. */
export function endpointQuery<Path extends ReadPath>(path: Path, params?: ParamsOf<Path>) {
  return queryOptions({
    queryKey: endpointKey(path, params),
    // openapi-fetch's own parameter types are inferred from a literal init; the document's are checked by ParamsOf.
    // An answer without a body (a check that passed) is cached as null: the cache holds no undefined.
    queryFn: async ({ signal }) =>
      ((await answer(api.GET(path, { params, signal } as never))) ?? null) as AnswerOf<Path>,
  });
}

/** Marks every cached answer of these endpoints (whatever their parameters) stale, so what shows them asks again. */
export function invalidate(queryClient: QueryClient, ...paths: ReadPath[]) {
  return Promise.all(paths.map((path) => queryClient.invalidateQueries({ queryKey: [path] })));
}
