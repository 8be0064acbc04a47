import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Empty, Failed, Loading } from './states.tsx';

type Props<Data> = {
  query: UseQueryResult<Data>;
  /** What is loading, for the spinner's accessible name. */
  loading: string;
  /** Said when there is nothing to show (`isEmpty`), with an optional hint below. */
  empty?: string;
  emptyHint?: ReactNode;
  isEmpty?: (data: Data) => boolean;
  children: (data: Data) => ReactNode;
};

/** What a page shows of one query: a spinner while it loads, the refusal when it fails, a word when it is empty, else the data. */
export function QueryView<Data>({ query, loading, empty, emptyHint, isEmpty, children }: Props<Data>) {
  if (query.isPending) return <Loading label={loading} />;
  if (query.isError) return <Failed error={query.error} />;
  if (empty && isEmpty?.(query.data)) return <Empty title={empty}>{emptyHint}</Empty>;
  return <>{children(query.data)}</>;
}
