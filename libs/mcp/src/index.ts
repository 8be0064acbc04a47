export { createBuntingMcpServer, viaLabel, SERVER_INFO } from './server.ts';
export { ApiRefused, VIA_HEADER, ask, httpCaller, parseBody, type ApiAnswer, type ApiCaller } from './api-caller.ts';
