import { z } from 'zod';
import { ClientSegment, EnvironmentSnapshot } from './client-api.ts';
import { SdkToken } from './published-views.ts';

/**
 * The configuration feed: what admin-api writes, in the transaction of each change, for the SDK edges to serve. Per
 * environment, one message per revision on its delta subject (Unleash's delta events, or a note that the revision is
 * a hydration), and now and then a hydration: the whole environment at a revision, in gzipped parts. The SDK tokens
 * have a feed of their own, shaped the same. A replica that starts or falls behind reads the last hydration and the
 * deltas after it from the stream; it never asks admin-api.
 *
 * Versioned by `v` and by the subjects' `feed1` token: a change an older edge cannot read goes to `feed2` subjects,
 * written beside `feed1` for the release that brings it, so edges of both versions follow during a rolling upgrade.
 */
export const FEED_VERSION = 1;

/** A flag as the edge keeps it: what SDKs are given, with its project and its tags (SDKs may ask for flags by tag). */
const FeedFeature = EnvironmentSnapshot.shape.features.element;

/** Unleash's delta events without their event ids (the revision is the message's). */
export const FeedEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('feature-updated'), feature: FeedFeature }),
  z.object({ type: z.literal('feature-removed'), featureName: z.string(), project: z.string() }),
  z.object({ type: z.literal('segment-updated'), segment: ClientSegment }),
  z.object({ type: z.literal('segment-removed'), segmentId: z.number() }),
]);
export type FeedEvent = z.infer<typeof FeedEvent>;

/** One revision of one environment: its changes, or (`hydration`) the whole environment in the hydration of that revision. */
export const FeedDelta = z.object({
  v: z.literal(FEED_VERSION),
  environment: z.string(),
  revision: z.number().int().min(1),
  events: z.array(FeedEvent),
  hydration: z.boolean().optional(),
});
export type FeedDelta = z.infer<typeof FeedDelta>;

/** Where a hydration's parts are, and what they hold once joined and gunzipped (`FeedHydrationBody`). */
export const FeedHydration = z.object({
  v: z.literal(FEED_VERSION),
  /** The environment; none for the SDK tokens' feed. */
  environment: z.string().optional(),
  revision: z.number().int().min(0),
  parts: z.number().int().min(1),
  /** When admin-api made it: one older than the stream keeps messages is made again before it goes. */
  createdAt: z.string(),
});
export type FeedHydration = z.infer<typeof FeedHydration>;

/** One gzipped piece of a hydration's body, base64 (the outbox keeps JSON). */
export const FeedHydrationPart = z.object({
  v: z.literal(FEED_VERSION),
  part: z.number().int().min(1),
  data: z.string(),
});

export const FeedHydrationBody = z.object({ features: z.array(FeedFeature), segments: z.array(ClientSegment) });
export type FeedHydrationBody = z.infer<typeof FeedHydrationBody>;

/** The SDK tokens' feed: every token as the edge keeps it (a hash and its scope), changed by revision. */
export const TokenFeedEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('token-updated'), token: SdkToken }),
  z.object({ type: z.literal('token-removed'), hash: z.string() }),
]);
export type TokenFeedEvent = z.infer<typeof TokenFeedEvent>;

export const TokenFeedDelta = z.object({
  v: z.literal(FEED_VERSION),
  revision: z.number().int().min(1),
  events: z.array(TokenFeedEvent),
  hydration: z.boolean().optional(),
});
export type TokenFeedDelta = z.infer<typeof TokenFeedDelta>;

export const TokenFeedBody = z.object({ tokens: z.array(SdkToken) });
export type TokenFeedBody = z.infer<typeof TokenFeedBody>;

/** What a feed is of: one environment's configuration, or the SDK tokens. */
export type FeedScope = { environment: string } | 'tokens';

/**
 * A name as one subject token: an environment's name (URL-friendly: letters, digits, `-`, `_`, `.`, `~`) with every
 * other character than letters, digits, `-` and `_` (NATS gives `.`, `*` and `>` meaning) written as `~` and its code.
 */
export const feedSubjectToken = (name: string) =>
  name.replace(/[^A-Za-z0-9_-]/g, (character) => `~${character.codePointAt(0)!.toString(16)}`);
