import { ErrorCodes } from '@garrison/core';
import { routesOf, type FuzzRequest, type OpenApiDoc } from './requests.js';

export interface Secrets {
  /** Never in any answer to anyone: user passwords, the token signing secret. */
  never: string[];
  /** Only in an admin's config preview: the game servers' generated credentials. */
  previewOnly: string[];
}

export interface Answer {
  status: number;
  text: string;
  contentType: string;
}

/** Checks one answer against what must hold for every request; returns the broken rule, or null. */
export function judge(doc: OpenApiDoc, request: FuzzRequest, answer: Answer, secrets: Secrets): string | null {
  const { status, text } = answer;
  const template = routeOf(doc, request);
  let body: any;
  // A file download answers with the file itself, as its route documents.
  const mediaType = answer.contentType.split(';')[0].trim();
  const download =
    status === 200 &&
    ['text/plain', 'text/html', 'application/gzip'].includes(mediaType) &&
    template?.operation.responses?.['200']?.content?.[mediaType];
  if (request.method !== 'HEAD' && status !== 204 && !download) {
    try {
      body = JSON.parse(text);
    } catch {
      return `answer is not JSON: ${text.slice(0, 120)}`;
    }
  }

  if (status >= 500 && !(status === 503 && body?.error?.code === 'RCON_ERROR')) return `a ${status} for a client's request`;

  if (body !== undefined && !(template?.path === '/system/health' && status === 200)) {
    if (typeof body !== 'object' || body === null || typeof body.success !== 'boolean') return 'answer outside the envelope';
    if (body.success) {
      if (status >= 300 || !('data' in body)) return `success envelope with status ${status}`;
    } else {
      if (body.data !== null || typeof body.error?.code !== 'string' || typeof body.error?.message !== 'string')
        return 'malformed failure envelope';
      if (!(body.error.code in ErrorCodes)) return `unknown error code ${body.error.code}`;
      if (status < 400) return `failure envelope with status ${status}`;
      if (status === 401 && body.error.code !== 'UNAUTHORIZED') return `401 with ${body.error.code}`;
      if (status === 403 && body.error.code !== 'FORBIDDEN') return `403 with ${body.error.code}`;
    }
  }

  if (status >= 200 && status < 300) {
    const access = template?.access ?? 'none';
    // The keys are an admin's: a key may do what its scope holds, no more.
    const keyScope = request.identity.startsWith('key:') ? request.identity.slice(4) : null;
    const allowed =
      access === 'public' ||
      (access === 'any' && (request.identity === 'admin' || request.identity === 'viewer')) ||
      (access === 'admin' && request.identity === 'admin') ||
      (keyScope !== null && (access === 'any' || access === 'admin') && template?.scope === keyScope);
    if (!allowed) return `${status} for ${request.identity} on a route for ${access}`;
  }

  for (const secret of secrets.never) if (text.includes(secret)) return 'a password or the signing secret in the answer';
  if (/scrypt\$/.test(text)) return 'a password hash in the answer';
  const mayShowCredentials =
    // An admin, or an admin's key for files (the rendered files are files, with their passwords).
    (request.identity === 'admin' || request.identity === 'key:files') &&
    status === 200 &&
    ['/servers/{server_id}/config/preview', '/servers/{server_id}/config/download/{filename}'].includes(template?.path ?? '');
  if (!mayShowCredentials)
    for (const secret of secrets.previewOnly) if (text.includes(secret)) return 'a game server credential in the answer';
  return null;
}

/** The documented route that the request's method and path land on, if any (HEAD lands on GET). */
function routeOf(doc: OpenApiDoc, request: FuzzRequest) {
  // As the client sends it: `..` and `%2e%2e` segments are resolved before the request leaves.
  const path = new URL(`/api${request.path}`, 'http://fuzz.invalid').pathname.slice('/api'.length);
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  const matches = routesOf(doc).filter((r) => r.method === method && new RegExp(`^${r.path.replace(/\{\w+\}/g, '[^/]+')}/?$`).test(path));
  // A fixed segment wins over a parameter (`/config/schema` over `/config/{section}`), as in the router.
  return matches.sort((a, b) => b.path.split('{').length - a.path.split('{').length).at(-1);
}
