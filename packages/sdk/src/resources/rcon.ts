import { server, type Caller, type Result } from './calls.js';

export const rcon = (c: Caller) => ({
  say: (id: number, message: string): Result<'rconSay'> => c.call('rconSay', { params: server(id), body: { message } }),
  command: (id: number, command: string): Result<'rconCommand'> => c.call('rconCommand', { params: server(id), body: { command } }),
});
