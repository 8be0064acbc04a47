import { SimpleAuthSettings } from '@bunting/contracts';
import { jsonSetting } from '../../settings/json-setting.ts';

/** Whether password sign-in is turned off (Unleash calls it simple auth); on unless an admin turned it off. */
const passwordSetting = jsonSetting('unleash.auth.simple', SimpleAuthSettings, { disabled: false });
export const loadPasswordSettings = passwordSetting.load;
export const savePasswordSettings = passwordSetting.save;
