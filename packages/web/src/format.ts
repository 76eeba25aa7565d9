/** A machine name as a heading or label: `password_admin` → `Password admin`. */
export const humanise = (name: string): string => name.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase());

/** A time as the reader's locale writes it; a dash for none. */
export const when = (iso: string | null): string => (iso ? new Date(iso).toLocaleString() : '–');

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
