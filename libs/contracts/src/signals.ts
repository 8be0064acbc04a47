import { z } from 'zod';
import { CONSTRAINT_OPERATORS } from './constraints.ts';

export const SignalEndpointName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-zA-Z0-9_-]+$/, 'must be URL-safe: letters, digits, _ and -');

export const CreateSignalEndpoint = z.object({
  name: SignalEndpointName,
  description: z.string().max(1000).nullable().optional(),
  enabled: z.boolean().optional(),
});
export const UpdateSignalEndpoint = CreateSignalEndpoint.partial();

export const SignalEndpointToken = z.object({
  id: z.number(),
  name: z.string(),
  signalEndpointId: z.number(),
  createdAt: z.string(),
  createdByUserId: z.number().nullable(),
});
export const SignalEndpoint = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  enabled: z.boolean(),
  createdAt: z.string(),
  createdByUserId: z.number().nullable(),
  tokens: z.array(SignalEndpointToken),
});
export type SignalEndpoint = z.infer<typeof SignalEndpoint>;

export const CreateSignalEndpointToken = z.object({ name: z.string().min(1).max(255) });

/** A received signal as it travels on the signals stream to the action runner. */
export const ReceivedSignal = z.object({
  id: z.number(),
  endpointId: z.number(),
  endpointName: z.string(),
  tokenName: z.string().nullable(),
  payload: z.unknown(),
  createdAt: z.string(),
});
export type ReceivedSignal = z.infer<typeof ReceivedSignal>;

/** What a signal endpoint answers (202) to a signal it accepted: the signal's id. */
export const SignalAccepted = z.object({ id: z.number() });

/** A filter on a path into the payload ("data.severity"), with the operators constraints use. */
export const PayloadFilter = z.object({
  operator: z.enum(CONSTRAINT_OPERATORS),
  value: z.string().max(1000).optional(),
  values: z.array(z.string().max(1000)).max(100).optional(),
  inverted: z.boolean().optional(),
  caseInsensitive: z.boolean().optional(),
});
export type PayloadFilter = z.infer<typeof PayloadFilter>;

export const ACTION_TYPES = ['ENABLE_FEATURE', 'DISABLE_FEATURE'] as const;
export const ActionInput = z.object({
  action: z.enum(ACTION_TYPES),
  sortOrder: z.number().int().optional(),
  executionParams: z.object({
    project: z.string().min(1).max(100),
    environment: z.string().min(1).max(100),
    featureName: z.string().min(1).max(255),
  }),
});

export const CreateActionSet = z.object({
  name: z.string().min(1).max(255),
  description: z.string().max(1000).nullable().optional(),
  enabled: z.boolean().optional(),
  /** The service account the actions run as. */
  actorId: z.number().int().min(1),
  match: z.object({
    source: z.literal('signal-endpoint'),
    sourceId: z.number().int().min(1),
    payload: z.record(z.string().min(1).max(255), PayloadFilter).optional(),
  }),
  actions: z.array(ActionInput).min(1).max(20),
});
export type CreateActionSet = z.infer<typeof CreateActionSet>;

// Answers: what the routes of this resource send.

/** POST base: an action set as stored (its service account's token never leaves admin paths). */
export const ActionSetView = CreateActionSet.omit({ enabled: true, description: true }).extend({
  id: z.number(),
  project: z.string(),
  description: z.string().nullable(),
  enabled: z.boolean(),
  match: CreateActionSet.shape.match.extend({ source: z.string() }),
  createdAt: z.string(),
  createdByUserId: z.number().nullable(),
});

/** GET base */
export const ActionSetList = z.object({ actions: z.array(ActionSetView) });

/** One run of an action set for a signal: how each action went. */
export const ActionSetRun = z.object({
  id: z.number(),
  actionSetId: z.number(),
  signalId: z.number(),
  state: z.string(),
  actions: z.array(z.unknown()),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});

/** GET ${base}/:id/events */
export const ActionSetEvents = z.object({ actionSetEvents: z.array(ActionSetRun).readonly() });

/** GET /api/admin/signal-endpoints/:id */
export const SignalEndpointDetail = SignalEndpoint;

/** GET /api/admin/signal-endpoints */
export const SignalEndpointList = z.object({ signalEndpoints: z.array(SignalEndpoint) });

/** POST /api/admin/signal-endpoints */
export const SignalEndpointView = SignalEndpoint;

/** GET /api/admin/signal-endpoints/:id/tokens */
export const SignalEndpointTokenList = z.object({ signalEndpointTokens: z.array(SignalEndpointToken) });

/** POST /api/admin/signal-endpoints/:id/tokens: the token with its secret, shown this once. */
export const CreatedSignalEndpointToken = SignalEndpointToken.extend({ token: z.string() });

/** A signal as the admin pages list it. */
export const StoredSignal = z.object({
  id: z.number(),
  source: z.string(),
  sourceId: z.number(),
  tokenName: z.string().nullable(),
  payload: z.unknown(),
  createdAt: z.string(),
});

/** GET /api/admin/signal-endpoints/:id/signals */
export const EndpointSignals = z.object({ signalEndpointSignals: z.array(StoredSignal).readonly() });

/** GET /api/admin/signals */
export const SignalList = z.object({ signals: z.array(StoredSignal).readonly() });
