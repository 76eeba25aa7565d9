import { defineEndpoint } from '../endpoint.js';
import { Type } from '../typebox.js';
import { ApiKey, ApiKeyIdParams, ApiKeyQuery, CreateApiKeyRequest, CreatedApiKey, Session, SessionIdParams } from './api-keys.js';

/** One's API keys and open sign-in sessions. */
export const apiKeyEndpoints = {
  listApiKeys: defineEndpoint({
    operationId: 'listApiKeys', method: 'GET', path: '/auth/keys', tag: 'auth',
    summary: "One's API keys (everyone's for an admin with ?all=true)", access: 'any', scope: 'account', query: ApiKeyQuery, status: 200,
    response: Type.Array(ApiKey),
  }),
  createApiKey: defineEndpoint({
    operationId: 'createApiKey', method: 'POST', path: '/auth/keys', tag: 'auth',
    summary: 'Make an API key with some of one\'s rights; the key is shown once', access: 'any', scope: 'account',
    body: CreateApiKeyRequest, status: 201, response: CreatedApiKey, errors: ['VALIDATION_ERROR', 'FORBIDDEN'],
  }),
  revokeApiKey: defineEndpoint({
    operationId: 'revokeApiKey', method: 'DELETE', path: '/auth/keys/{key_id}', tag: 'auth',
    summary: 'Revoke an API key (one\'s own; an admin, anyone\'s): refused at once everywhere', access: 'any', scope: 'account',
    params: ApiKeyIdParams, status: 204, errors: ['NOT_FOUND'],
  }),
  listSessions: defineEndpoint({
    operationId: 'listSessions', method: 'GET', path: '/auth/sessions', tag: 'auth',
    summary: "One's open sign-in sessions: when, from where, with what", access: 'any', scope: 'account', status: 200,
    response: Type.Array(Session),
  }),
  endSession: defineEndpoint({
    operationId: 'endSession', method: 'DELETE', path: '/auth/sessions/{session_id}', tag: 'auth',
    summary: 'End one of one\'s sessions: its token is refused at once', access: 'any', scope: 'account', params: SessionIdParams,
    status: 204, errors: ['NOT_FOUND'],
  }),
  endAllSessions: defineEndpoint({
    operationId: 'endAllSessions', method: 'DELETE', path: '/auth/sessions', tag: 'auth',
    summary: 'Sign out everywhere: every one of one\'s sessions ends, this one too', access: 'any', scope: 'account', status: 204,
  }),
} as const;
