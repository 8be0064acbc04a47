import { SimpleAuthSettings } from '@bunting/contracts';
import { jsonSetting } from '../settings/json-setting.ts';

/** Whether password sign-in is turned off; on unless an admin turned it off. */
export const simpleAuthSetting = jsonSetting('unleash.auth.simple', SimpleAuthSettings, { disabled: false });
export const loadSimpleAuthSettings = simpleAuthSetting.load;
export const saveSimpleAuthSettings = simpleAuthSetting.save;
