import { z } from 'zod';
import { textOrNumber } from './common.ts';

const TagPart = z.string().trim().min(2).max(50);
const TagTypePart = TagPart.regex(/^[a-zA-Z0-9~_.-]+$/, 'must be URL friendly');

export const Tag = z.object({ value: TagPart, type: TagPart });
export type Tag = z.infer<typeof Tag>;
/** A tag as answered: with its tag type's colour (null when the type has none). */
export const ColoredTag = Tag.extend({ color: z.string().nullable().optional() });

export const CreateTag = z.object({
  value: textOrNumber(TagPart),
  type: TagTypePart,
  color: z
    .string()
    .regex(/^#[0-9A-Fa-f]{6}$/)
    .nullable()
    .optional(),
});

export const TagsList = z.object({ version: z.number().int(), tags: z.array(ColoredTag) });
export const TagWithVersion = z.object({ version: z.number().int(), tag: ColoredTag });

export const UpdateFeatureTags = z.object({
  addedTags: z.array(CreateTag),
  removedTags: z.array(CreateTag),
});

export const ProjectTagsBulk = z.object({
  features: z.array(z.string().min(1)).min(1),
  tags: UpdateFeatureTags,
});

export const TagTypeName = z
  .string()
  .min(2)
  .max(50)
  .regex(/^[a-zA-Z0-9~_.-]+$/, 'must be URL friendly');

/** Unleash turns a number given for a tag type's text fields into its text. */
const TagTypeText = (max: number) =>
  z.preprocess((value) => (typeof value === 'number' ? String(value) : value), z.string().max(max));

export const TagType = z.object({
  name: z.string(),
  description: z.string().nullable().optional(),
  icon: z.string().nullable().optional(),
  color: z.string().nullable().optional(),
});
export type TagType = z.infer<typeof TagType>;

export const CreateTagType = z.object({
  name: TagTypeName,
  description: TagTypeText(1000).optional(),
  icon: TagTypeText(100).nullable().optional(),
  color: z
    .string()
    .regex(/^#[0-9A-Fa-f]{6}$/)
    .nullable()
    .optional(),
});
export const UpdateTagType = CreateTagType.omit({ name: true });
export const ValidateTagType = z.object({ name: TagTypeName });

// Answers: what the routes of this resource send.

/** POST /api/admin/features/:featureName/tags */
export const FeatureTagView = Tag;

/** PUT /api/admin/features/:featureName/tags */
export const FeatureTagList = z.object({ version: z.number(), tags: z.array(ColoredTag.required({ color: true })) });

/** POST /api/admin/tag-types: a tag type with every field present. */
export const TagTypeView = TagType.required();

/** GET /api/admin/tag-types */
export const TagTypeList = z.object({ version: z.number(), tagTypes: z.array(TagTypeView).readonly() });

/** POST /api/admin/tag-types/validate */
export const TagTypeValidation = z.object({ valid: z.boolean(), tagType: TagType.pick({ name: true }) });

/** GET /api/admin/tag-types/:name */
export const TagTypeAnswer = z.object({ version: z.number(), tagType: TagTypeView });
