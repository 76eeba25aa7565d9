import type { Actor } from '@garrison/core';

/**
 * Someone at the host's shell (`garrison users create`, `admin reset-password`…): the service acting,
 * on a person's word it cannot name.
 */
export const CLI_ACTOR: Actor = { kind: 'system', id: 'cli', name: 'cli' };
