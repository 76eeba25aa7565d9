import type { EnvelopeKind } from '@garrison/core';

export function successBody(data: unknown, kind: EnvelopeKind = 'standard'): unknown {
  if (kind === 'none') return data;
  if (kind === 'without-error') return { success: true, data };
  return { success: true, data, error: null };
}

export function failureBody(code: string, message: string, extra: Record<string, unknown> = {}) {
  return { success: false, data: null, error: { code, message, ...extra } };
}
