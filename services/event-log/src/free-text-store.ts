import { z } from 'zod';
import { sql, type Queryable } from '@bunting/platform';

/** Where an event's text is cut into words: blanks and JSON's punctuation (text_words, migration 005). */
const WORD_BREAKS = /[ \t\n\r"{}[\],:]+/;
/** Past this many words holding a piece of the query, their events are too many to be worth reading word by word. */
const MOST_WORDS = 1_000;

/** The events a free-text query matches, as ids: `select id ...`, each id once. */
export type FreeText =
  { readonly none: true } | { readonly none: false; readonly ids: ReturnType<typeof sql.fragment> };

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/**
 * The events whose text (type, creator and payload) holds the query anywhere, ignoring case. Every piece of the
 * query between blanks and punctuation lies inside one word of such an event, so the events of the words holding
 * its longest piece are all the candidates: a query that is one piece matches exactly those, read from the word
 * index alone; any other is checked against the candidates' text. A query with no piece, or whose piece many
 * words hold, reads the text table through its trigrams.
 */
export async function freeText(db: Queryable, query: string): Promise<FreeText> {
  const pattern = likePattern(query);
  const byText: FreeText = {
    none: false,
    ids: sql.fragment`select id from event_log.event_text where body like lower(${pattern})`,
  };
  const pieces = query.split(WORD_BREAKS).filter((piece) => piece !== '');
  const longest = pieces.reduce((kept, piece) => (piece.length > kept.length ? piece : kept), '');
  if (longest === '') return byText;
  const hashes = await db.anyFirst(sql.type(z.object({ hash: z.string() }))`
    select hash::text from event_log.event_words where word like lower(${likePattern(longest)}) limit ${MOST_WORDS + 1}`);
  if (hashes.length === 0) return { none: true };
  if (hashes.length > MOST_WORDS) return byText;
  // An event holds each of its words once, so one word's ids are distinct as they stand.
  const candidates =
    hashes.length === 1
      ? sql.fragment`select id from event_log.event_word_ids where hash = ${hashes[0]!}::bigint`
      : sql.fragment`select distinct id from event_log.event_word_ids where hash = any(${sql.array(hashes, 'int8')})`;
  if (longest === query) return { none: false, ids: candidates };
  // strpos, not like: the planner would read the trigrams (their cost is what the candidates avoid) and join after.
  return {
    none: false,
    ids: sql.fragment`select id from event_log.event_text where id in (${candidates}) and strpos(body, lower(${query})) > 0`,
  };
}
