import type { DomainEvent } from '@bunting/contracts';

/** What happened, in words, for the chat and monitoring services events are sent to. */
const ACTIONS: Record<string, string> = {
  'feature-created': 'created',
  'feature-updated': 'updated',
  'feature-metadata-updated': 'changed the details of',
  'feature-project-change': 'moved',
  'feature-archived': 'archived',
  'feature-revived': 'revived',
  'feature-deleted': 'deleted',
  'feature-environment-enabled': 'enabled',
  'feature-environment-disabled': 'disabled',
  'feature-strategy-add': 'added a strategy to',
  'feature-strategy-update': 'changed a strategy of',
  'feature-strategy-remove': 'removed a strategy from',
  'strategy-order-changed': 'reordered the strategies of',
  'feature-environment-variants-updated': 'changed the variants of',
  'feature-variants-updated': 'changed the variants of',
  'feature-stale-on': 'marked as stale',
  'feature-stale-off': 'marked as active',
  'feature-tagged': 'tagged',
  'feature-untagged': 'untagged',
  'feature-completed': 'completed',
  'feature-uncompleted': 'reopened',
  'feature-dependency-added': 'added a dependency to',
  'feature-dependency-removed': 'removed a dependency from',
  'feature-dependencies-removed': 'removed the dependencies of',
};

export type EventText = {
  /** Plain parts, for services that lay a message out themselves. */
  who: string;
  action: string;
  flag: string | null;
  /** Where the flag (or project) can be seen in the console; null when the event is about neither. */
  link: string | null;
};

export function eventText(event: DomainEvent, baseUrl: string): EventText {
  const base = baseUrl.replace(/\/+$/, '');
  const flag = event.featureName ?? null;
  const link =
    flag && event.project
      ? `${base}/projects/${encodeURIComponent(event.project)}/features/${encodeURIComponent(flag)}`
      : event.project
        ? `${base}/projects/${encodeURIComponent(event.project)}`
        : null;
  return {
    who: event.createdBy,
    action: ACTIONS[event.type] ?? `did ${event.type.replaceAll('-', ' ')} on`,
    flag,
    link,
  };
}

const where = (event: DomainEvent) =>
  `${event.environment ? ` in ${event.environment}` : ''}${event.project ? ` (project ${event.project})` : ''}`;

/** Markdown (Teams, Datadog): **who** action [flag](link) in environment. */
export function markdownOf(event: DomainEvent, baseUrl: string): string {
  const text = eventText(event, baseUrl);
  const flag = text.flag ? (text.link ? ` [${text.flag}](${text.link})` : ` ${text.flag}`) : '';
  const action = text.flag ? text.action : event.type.replaceAll('-', ' ');
  return `**${text.who}** ${action}${flag}${where(event)}`;
}

/** Slack's mrkdwn: *who* action <link|flag> in environment. */
export function slackTextOf(event: DomainEvent, baseUrl: string): string {
  const text = eventText(event, baseUrl);
  const flag = text.flag ? (text.link ? ` <${text.link}|${text.flag}>` : ` ${text.flag}`) : '';
  const action = text.flag ? text.action : event.type.replaceAll('-', ' ');
  return `*${text.who}* ${action}${flag}${where(event)}`;
}
