import { RemoteMcpSettings } from '@bunting/contracts';
import { jsonSetting } from '../settings/json-setting.ts';

/** The remote MCP server is on unless an admin turns it off (it acts only with a user's own token). */
const remoteMcpSetting = jsonSetting('mcp.remote', RemoteMcpSettings, { enabled: true });
export const loadRemoteMcp = remoteMcpSetting.load;
export const saveRemoteMcp = remoteMcpSetting.save;
