import { z } from 'zod';

/** GET|PUT /api/admin/remote-mcp/settings: whether the remote MCP server at /api/admin/mcp answers (off: 404). */
export const RemoteMcpSettings = z.object({ enabled: z.boolean() });
export type RemoteMcpSettings = z.infer<typeof RemoteMcpSettings>;
