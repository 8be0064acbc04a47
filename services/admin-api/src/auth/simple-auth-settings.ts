import { z } from 'zod';
import { jsonSetting } from '../settings/json-setting.ts';

export const SimpleAuthSettings = z.object({ disabled: z.boolean() });

/** Whether password sign-in is turned off; on unless an admin turned it off. */
export const simpleAuthSetting = jsonSetting('unleash.auth.simple', SimpleAuthSettings, { disabled: false });
export const loadSimpleAuthSettings = simpleAuthSetting.load;
export const saveSimpleAuthSettings = simpleAuthSetting.save;
