/**
 * The kind a value typed is of, by the shapes the game declares (`pattern` of `identity_kinds`): the first
 * kind it fits, else the game's default (its first). A guess for a form's select: the service checks the value.
 */
export const kindOf = <K extends { pattern?: string }>(kinds: readonly K[], text: string): K | undefined =>
  kinds.find((k) => k.pattern !== undefined && new RegExp(k.pattern).test(text.trim())) ?? kinds[0];
