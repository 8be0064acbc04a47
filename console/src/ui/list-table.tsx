import { Table } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { QueryView } from './query-view.tsx';

/** A list answer's item, for tables whose answer is the list itself. */
type ItemOf<Data> = Data extends readonly (infer Item)[] ? Item : never;

type Props<Data, Row> = {
  query: UseQueryResult<Data>;
  /** The table's accessible name ("Tag types"); the spinner says it is loading them. */
  label: string;
  /** The column headings (numbers' right-aligned); an empty one for a column of buttons. */
  columns: readonly (string | { label: string; numeric: true })[];
  /** The rows of the answer, when the answer is not the list itself. */
  rowsOf?: (data: Data) => readonly Row[];
  rowKey: (row: Row) => string | number;
  /** One row's cells (Table.Td each), told where the row stands among them all. */
  cells: (row: Row, index: number, rows: readonly Row[]) => ReactNode;
  /** Said when there are no rows, with an optional hint below. */
  empty: string;
  emptyHint?: ReactNode;
};

const listOf = <Data, Row>(data: Data, rowsOf?: (data: Data) => readonly Row[]) =>
  rowsOf ? rowsOf(data) : (data as unknown as readonly Row[]);

/** A list a query answers, as a table with headings, one row per item; loading, refusal and empty said the same way everywhere. */
export function ListTable<Data, Row = ItemOf<Data>>({
  query,
  label,
  columns,
  rowsOf,
  rowKey,
  cells,
  empty,
  emptyHint,
}: Props<Data, Row>) {
  return (
    <QueryView
      query={query}
      loading={`Loading ${label.toLowerCase()}`}
      empty={empty}
      emptyHint={emptyHint}
      isEmpty={(data) => listOf(data, rowsOf).length === 0}
    >
      {(data) => (
        <Table aria-label={label}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column, index) =>
                typeof column === 'string' ? (
                  <Table.Th key={index}>{column}</Table.Th>
                ) : (
                  <Table.Th key={index} ta="right">
                    {column.label}
                  </Table.Th>
                ),
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {listOf(data, rowsOf).map((row, index, rows) => (
              <Table.Tr key={rowKey(row)}>{cells(row, index, rows)}</Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </QueryView>
  );
}
