/** The tables (schema.table) a piece of SQL writes: insert into, update, delete from, truncate. */
export function tablesWritten(text: string): string[] {
  const written = new Set<string>();
  for (const match of text.matchAll(
    /\b(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?)\s+([a-z_][a-z0-9_]*)\.([a-z_][a-z0-9_]*)/gi,
  )) {
    written.add(`${match[1]!.toLowerCase()}.${match[2]!.toLowerCase()}`);
  }
  return [...written].sort();
}

/** The tables a migration creates, in the service's schema (the migrations run with it as the search path). */
export function tablesCreated(schema: string, text: string): string[] {
  return [...text.matchAll(/\bcreate\s+table\s+(?:if\s+not\s+exists\s+)?(?:[a-z_]+\.)?([a-z_][a-z0-9_]*)/gi)].map(
    (match) => `${schema}.${match[1]!.toLowerCase()}`,
  );
}
