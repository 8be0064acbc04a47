import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Flag, READ_ONLY, result } from '../tool-kit.ts';

const SDKS = ['node', 'browser', 'react', 'openfeature-node', 'openfeature-web', 'ofrep-http'] as const;

// Signals in a change's description that it is risky to ship without a flag, with why.
const RISKS: readonly [RegExp, string][] = [
  [/payment|checkout|billing|invoice|price|pricing/i, 'touches money: a mistake costs customers'],
  [/auth|login|sign.?in|permission|password|token|session/i, 'touches sign-in or access'],
  [/migrat|schema|database|sql|index/i, 'changes stored data, which a redeploy cannot undo'],
  [/api|endpoint|contract|protocol|sdk/i, 'changes what other systems call'],
  [/performance|cache|queue|batch|concurren|timeout|retry/i, 'changes behaviour under load'],
  [/ui|page|screen|button|layout|design|onboarding/i, 'changes what users see'],
  [/experiment|a\/b|variant|test.*(users|cohort)/i, 'is an experiment: variants measure it'],
];

/** Guidance: whether a change should go behind a flag, and how code reads one. Nothing here changes state. */
export function registerGuidanceTools(server: McpServer) {
  server.registerTool(
    'evaluate_change',
    {
      title: 'Should this change be behind a flag?',
      description:
        'Judges a planned code change (described in words): how risky it is, whether to put it behind a flag, which flag type, and a name ' +
        'to propose. Then: detect_flag (does one exist?), create_flag, wrap_change.',
      inputSchema: {
        description: z.string().min(1).max(4_000).describe('What the change does'),
        linesChanged: z.number().int().min(0).max(1_000_000).optional(),
        namingPattern: z.string().max(255).optional().describe("The project's flag naming pattern, if it has one"),
      },
      outputSchema: z
        .object({
          recommendFlag: z.boolean(),
          risk: z.enum(['low', 'medium', 'high']),
          flagType: z.string(),
          suggestedName: z.string(),
        })
        .loose(),
      annotations: READ_ONLY,
    },
    async ({ description, linesChanged, namingPattern }) => {
      const reasons = RISKS.filter(([pattern]) => pattern.test(description)).map(([, why]) => why);
      const big = (linesChanged ?? 0) > 200;
      const score = reasons.length + (big ? 1 : 0);
      const risk = score >= 2 ? 'high' : score === 1 ? 'medium' : 'low';
      const experiment = /experiment|a\/b|variant/i.test(description);
      const killSwitch = /kill.?switch|disable|circuit|fallback/i.test(description);
      const flagType = experiment ? 'experiment' : killSwitch ? 'kill-switch' : 'release';
      return result({
        recommendFlag: risk !== 'low' || experiment || killSwitch,
        risk,
        reasons: [...reasons, ...(big ? ['is large'] : [])],
        flagType,
        suggestedName: suggestName(description),
        ...(namingPattern
          ? {
              note: `Check the name against the project's pattern ${namingPattern}; create_flag refuses names that do not match.`,
            }
          : {}),
        nextSteps: [
          'detect_flag with words from the change',
          'create_flag',
          'wrap_change for the SDK the code uses',
          'set_flag_rollout, then toggle_flag_environment',
        ],
      });
    },
  );

  server.registerTool(
    'wrap_change',
    {
      title: 'How to put code behind a flag',
      description:
        'A snippet that reads a flag with one of the SDKs Bunting serves (Unleash Node and browser SDKs, React, OpenFeature with OFREP, or ' +
        'plain OFREP over HTTP), with the new code under "on" and the old under "off".',
      inputSchema: {
        flag: Flag,
        sdk: z.enum(SDKS),
        variants: z.boolean().optional().describe('Branch on the variant rather than on/off'),
      },
      outputSchema: z.object({ sdk: z.string(), snippet: z.string() }).loose(),
      annotations: READ_ONLY,
    },
    async ({ flag, sdk, variants }) =>
      result({ sdk, snippet: snippet(sdk, flag, variants ?? false), notes: NOTES[sdk] }),
  );
}

function suggestName(description: string): string {
  const words = description
    .toLowerCase()
    .replace(/[^a-z0-9 ]+/g, ' ')
    .split(/\s+/)
    .filter(
      (word) =>
        word.length > 2 &&
        !['the', 'and', 'for', 'with', 'from', 'this', 'that', 'into', 'add', 'adds', 'new', 'use', 'make'].includes(
          word,
        ),
    );
  return words.slice(0, 4).join('-') || 'new-change';
}

const NOTES: Record<(typeof SDKS)[number], string> = {
  node: "unleash-client with a backend token; url is Bunting's /api.",
  browser: "unleash-proxy-client with a frontend token; url is Bunting's /api/frontend.",
  react: '@unleash/proxy-client-react with a frontend token; wrap the app in <FlagProvider>.',
  'openfeature-node': '@openfeature/server-sdk with an OFREP provider pointed at Bunting (/ofrep) and a backend token.',
  'openfeature-web':
    '@openfeature/web-sdk with an OFREP web provider pointed at Bunting (/ofrep) and a frontend token.',
  'ofrep-http': 'POST /ofrep/v1/evaluate/flags/{key} with the token as Authorization.',
};

function snippet(sdk: (typeof SDKS)[number], flag: string, variants: boolean): string {
  const name = JSON.stringify(flag);
  switch (sdk) {
    case 'node':
      return variants
        ? `const variant = unleash.getVariant(${name}, { userId });\nif (variant.name === 'treatment') {\n  // new code\n} else {\n  // old code\n}`
        : `if (unleash.isEnabled(${name}, { userId })) {\n  // new code\n} else {\n  // old code\n}`;
    case 'browser':
      return variants
        ? `const variant = unleash.getVariant(${name});\nif (variant.name === 'treatment') {\n  // new code\n} else {\n  // old code\n}`
        : `if (unleash.isEnabled(${name})) {\n  // new code\n} else {\n  // old code\n}`;
    case 'react':
      return variants
        ? `const variant = useVariant(${name});\nreturn variant.name === 'treatment' ? <NewThing /> : <OldThing />;`
        : `const enabled = useFlag(${name});\nreturn enabled ? <NewThing /> : <OldThing />;`;
    case 'openfeature-node':
    case 'openfeature-web': {
      const call = sdk === 'openfeature-node' ? 'await client' : 'client';
      return variants
        ? `const { variant } = ${call}.getStringDetails(${name}, 'control');\nif (variant === 'treatment') {\n  // new code\n} else {\n  // old code\n}`
        : `if (${call}.getBooleanValue(${name}, false)) {\n  // new code\n} else {\n  // old code\n}`;
    }
    case 'ofrep-http':
      return `curl -s -X POST "$BUNTING_URL/ofrep/v1/evaluate/flags/${encodeURIComponent(flag)}" \\\n  -H "Authorization: $BUNTING_TOKEN" -H 'content-type: application/json' \\\n  -d '{"context": {"targetingKey": "user-1"}}'`;
  }
}
