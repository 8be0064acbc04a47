import type { Principal } from '@bunting/contracts';
import { changeRequestGate } from '../change-request-settings/change-request-gate.ts';
import type { ProposeAdvance } from '../release-plans/release-plan-service.ts';
import { changeRequestService } from './change-request-service.ts';

/**
 * Who proposes moving a guarded plan on: the system, named so reviewers see where the request came from. It may
 * propose any flag change (as the progression it acts for was approved to) but, holding no user, never approve,
 * reject or schedule one: people decide.
 */
const GUARDRAILS: Principal = {
  kind: 'api-token',
  key: 'system:guardrails',
  name: 'Guardrails',
  userId: null,
  tokenType: 'admin',
  environment: '*',
  projects: ['*'],
  permissions: ['ADMIN'],
  projectPermissions: {},
  environmentPermissions: {},
  rootRole: null,
};

/**
 * Where the environment requires change requests, a guarded progression's "safe" becomes a change request to start
 * the next milestone, sent to review with the guardrails' readings as its first comment; null elsewhere.
 */
export const proposeGuardedAdvance: ProposeAdvance = async (change, proposal) => {
  const scope = { project: proposal.project, environment: proposal.environment };
  if (!(await changeRequestGate.isOn(change.tx, scope))) return null;
  const id = await changeRequestService.propose(change, GUARDRAILS, scope, [
    {
      action: 'startMilestone',
      feature: proposal.featureName,
      payload: { milestoneId: proposal.milestoneId, planId: proposal.planId },
    },
  ]);
  await changeRequestService.setTitle(change, GUARDRAILS, proposal.project, id, proposal.title);
  await changeRequestService.comment(change, GUARDRAILS, proposal.project, id, proposal.evidence);
  await changeRequestService.setState(change, GUARDRAILS, proposal.project, id, { state: 'In review' });
  return id;
};
