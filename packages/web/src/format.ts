/** A machine name as a heading or label: `password_admin` → `Password admin`. */
export const humanise = (name: string): string => name.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase());

/** A time as the reader's locale writes it; a dash for none. */
export const when = (iso: string | null): string => (iso ? new Date(iso).toLocaleString() : '–');

/** A service's message with its times (ISO 8601, as the API writes them) as the console writes times (`format`). */
export const localTimes = (text: string, format: (iso: string) => string = when): string =>
  text.replace(/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})/g, (iso) => format(iso));

/** A size as people read it: 1.4 MB, 512 B. */
export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** Servers by their names (a server since deleted, or not yet read, by its id). */
export const serverNames = (ids: readonly number[], servers: readonly { id: number; name: string }[] | undefined): string =>
  ids.map((id) => servers?.find((s) => s.id === id)?.name ?? `server ${id}`).join(', ');

/** The option values set on a rotation entry (or a plan's step), as shown after its name: ` (Hard)`, or nothing. */
export function optionsSuffix(entry: Record<string, unknown>, skip: readonly string[] = ['name']): string {
  const set = Object.entries(entry)
    .filter(([key, value]) => !skip.includes(key) && typeof value === 'string' && value !== '')
    .map(([, value]) => value);
  return set.length ? ` (${set.join(', ')})` : '';
}
