import { randomUUID } from 'node:crypto';
import type { FeatureLinkInput } from '@bunting/contracts';
import { NotFoundError, ValidationError, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import type { FeatureRow } from '../feature-state/feature-lookup.ts';
import { featureLinkStore, type FeatureLinkRow } from './feature-link-store.ts';

/** Unleash's limit on links per flag. */
const MAX_LINKS = 10;

/** An address as stored: without a scheme it is taken as https (as Unleash's UI does); only http(s) is kept. */
function address(url: string): string {
  const trimmed = url.trim();
  if (/^https?:\/\//i.test(trimmed)) return trimmed;
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed)) throw ValidationError.field('url', 'must be an http or https address');
  return `https://${trimmed}`;
}

async function requireLink(db: Queryable, feature: string, id: string): Promise<FeatureLinkRow> {
  const link = await featureLinkStore.get(db, feature, id);
  if (!link) throw new NotFoundError(`Could not find link ${id} of feature flag ${feature}`);
  return link;
}

/**
 * Links from a flag to its ticket, docs or dashboards. The spec's closed event list has no link events, so each
 * change is recorded as feature-metadata-updated (what Unleash writes for a flag's other metadata), with the
 * flag's links before and after.
 */
export const featureLinkService = {
  async add(change: Change, feature: FeatureRow, input: FeatureLinkInput): Promise<FeatureLinkRow> {
    const before = [...(await featureLinkStore.forFeatures(change.tx, [feature.name]))];
    if (before.length >= MAX_LINKS) throw ValidationError.field('url', `a flag holds at most ${MAX_LINKS} links`);
    const link = {
      id: randomUUID(),
      feature: feature.name,
      url: address(input.url),
      title: input.title?.trim() || null,
    };
    await featureLinkStore.insert(change.tx, link);
    emitLinks(change, feature, before, [...before, link]);
    return link;
  },

  async update(change: Change, feature: FeatureRow, id: string, input: FeatureLinkInput): Promise<FeatureLinkRow> {
    const before = [...(await featureLinkStore.forFeatures(change.tx, [feature.name]))];
    const current = await requireLink(change.tx, feature.name, id);
    const link = { ...current, url: address(input.url), title: input.title?.trim() || null };
    if (link.url === current.url && link.title === current.title) return current;
    await featureLinkStore.update(change.tx, link);
    emitLinks(
      change,
      feature,
      before,
      before.map((item) => (item.id === id ? link : item)),
    );
    return link;
  },

  async remove(change: Change, feature: FeatureRow, id: string): Promise<void> {
    const before = [...(await featureLinkStore.forFeatures(change.tx, [feature.name]))];
    await requireLink(change.tx, feature.name, id);
    await featureLinkStore.delete(change.tx, feature.name, id);
    emitLinks(
      change,
      feature,
      before,
      before.filter((item) => item.id !== id),
    );
  },
};

function emitLinks(
  change: Change,
  feature: FeatureRow,
  before: readonly FeatureLinkRow[],
  after: readonly FeatureLinkRow[],
) {
  const shown = (links: readonly FeatureLinkRow[]) => links.map(({ id, url, title }) => ({ id, url, title }));
  change.emit({
    type: 'feature-metadata-updated',
    project: feature.project,
    featureName: feature.name,
    data: { name: feature.name, links: shown(after) },
    preData: { name: feature.name, links: shown(before) },
  });
}
