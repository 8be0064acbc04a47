import type { Tag } from '@bunting/contracts';
import { NameExistsError, NotFoundError, ValidationError, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import type { FeatureRow } from '../feature-state/feature-lookup.ts';
import { tagStore, tagTypeStore, type TagTypeRow } from './tag-store.ts';

function cleanTag(tag: { type: string; value: string }): Tag {
  return { type: tag.type.trim(), value: tag.value.trim() };
}

async function requireTagType(db: Queryable, name: string, field = 'type') {
  const tagType = await tagTypeStore.get(db, name);
  if (!tagType) throw ValidationError.field(field, `tag type ${name} does not exist`);
  return tagType;
}

function tagTypeState(tagType: TagTypeRow) {
  return { name: tagType.name, description: tagType.description, icon: tagType.icon, color: tagType.color };
}

export const tagService = {
  /** 409 when a tag type of that name exists. */
  async validateTagTypeName(db: Queryable, name: string) {
    if (await tagTypeStore.get(db, name)) throw new NameExistsError(`A tag type with the name ${name} already exists`);
  },

  async createTagType(
    { tx, emit }: Change,
    input: {
      name: string;
      description?: string | undefined;
      icon?: string | null | undefined;
      color?: string | null | undefined;
    },
  ) {
    if (await tagTypeStore.get(tx, input.name))
      throw new NameExistsError(`A tag type with the name ${input.name} already exists`);
    const tagType = {
      name: input.name,
      description: input.description ?? null,
      icon: input.icon ?? null,
      color: input.color ?? null,
    };
    await tagTypeStore.insert(tx, tagType);
    emit({ type: 'tag-type-created', data: tagTypeState(tagType) });
    return tagType;
  },

  async updateTagType(
    { tx, emit }: Change,
    name: string,
    input: { description?: string | undefined; icon?: string | null | undefined; color?: string | null | undefined },
  ) {
    const before = await tagTypeStore.get(tx, name);
    if (!before) throw new NotFoundError(`Could not find tag type ${name}`);
    const after = {
      name,
      description: input.description ?? before.description,
      icon: input.icon === undefined ? before.icon : input.icon,
      color: input.color === undefined ? before.color : input.color,
    };
    if (JSON.stringify(after) !== JSON.stringify(tagTypeState(before))) {
      await tagTypeStore.update(tx, after);
      emit({ type: 'tag-type-updated', data: tagTypeState(after), preData: tagTypeState(before) });
    }
    return after;
  },

  async deleteTagType({ tx, emit }: Change, name: string) {
    const before = await tagTypeStore.get(tx, name);
    if (!before) throw new NotFoundError(`Could not find tag type ${name}`);
    await tagTypeStore.delete(tx, name);
    emit({ type: 'tag-type-deleted', preData: tagTypeState(before) });
  },

  /** Creates the tag if it is new (tag-created); returns whether it was. */
  async ensureTag({ tx, emit }: Change, input: Tag): Promise<boolean> {
    const tag = cleanTag(input);
    await requireTagType(tx, tag.type);
    if (!(await tagStore.insert(tx, tag))) return false;
    emit({ type: 'tag-created', data: { type: tag.type, value: tag.value } });
    return true;
  },

  async createTag(change: Change, input: Tag) {
    const tag = cleanTag(input);
    if (!(await tagService.ensureTag(change, tag))) {
      throw new NameExistsError(`The tag ${tag.type}:${tag.value} already exists`);
    }
    return tag;
  },

  async deleteTag({ tx, emit }: Change, tag: Tag) {
    if (!(await tagStore.exists(tx, tag))) return;
    await tagStore.delete(tx, tag);
    emit({ type: 'tag-deleted', data: { type: tag.type, value: tag.value } });
  },

  async attach(change: Change, feature: FeatureRow, input: Tag, options: { emitTagged?: boolean } = {}) {
    const tag = cleanTag(input);
    await tagService.ensureTag(change, tag);
    if (!(await tagStore.attach(change.tx, feature.name, tag, change.actor.createdByUserId))) return tag;
    if (options.emitTagged ?? true) {
      change.emit({
        type: 'feature-tagged',
        project: feature.project,
        featureName: feature.name,
        data: { type: tag.type, value: tag.value },
      });
    }
    return tag;
  },

  async detach(change: Change, feature: FeatureRow, input: Tag) {
    const tag = cleanTag(input);
    if (!(await tagStore.isAttached(change.tx, feature.name, tag))) return;
    const tagsBefore = await tagStore.forFeature(change.tx, feature.name);
    await tagStore.detach(change.tx, feature.name, tag);
    change.emit({
      type: 'feature-untagged',
      project: feature.project,
      featureName: feature.name,
      preData: { type: tag.type, value: tag.value },
      tags: tagsBefore,
    });
  },
};
