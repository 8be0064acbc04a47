export { createBuntingMcpServer, viaLabel, SERVER_INFO } from './server.ts';
export { VIA_HEADER, toolClient } from './bunting-api.ts';
