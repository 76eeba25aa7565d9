/**
 * A cron expression whose times are all `shiftS` seconds later (earlier when negative), when the shift can
 * be written as one; otherwise null. Written for the migration that made a schedule's time its action's
 * time (019): `0 4 * * *` moved by 900 s is `15 4 * * *`.
 *
 * Only the time-of-day fields (seconds, minutes, hours) change: the times of day the expression names are
 * moved, and the result must again be every combination of a set of seconds, minutes and hours. A time
 * moved past midnight (either way) changes its day, which only an expression run every day can take
 * (day of month, month and weekday all `*`); otherwise null. Names, `L`, `W`, `#`, `?` and the `@daily`
 * nicknames in the time fields are not read: null.
 */
export function shiftCron(cron: string, shiftS: number): string | null {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) return null;
  const withSeconds = fields.length === 6;
  const [sec, min, hour, ...days] = withSeconds ? fields : ['0', ...fields];
  const seconds = expand(sec, 59);
  const minutes = expand(min, 59);
  const hours = expand(hour, 23);
  if (!seconds || !minutes || !hours) return null;
  const everyDay = days.every((d) => d === '*');
  const moved = new Set<number>();
  for (const h of hours) {
    for (const m of minutes) {
      for (const s of seconds) {
        const t = h * 3600 + m * 60 + s + shiftS;
        if ((t < 0 || t >= 86_400) && !everyDay) return null;
        moved.add(((t % 86_400) + 86_400) % 86_400);
      }
    }
  }
  const newSeconds = new Set([...moved].map((t) => t % 60));
  const newMinutes = new Set([...moved].map((t) => Math.floor(t / 60) % 60));
  const newHours = new Set([...moved].map((t) => Math.floor(t / 3600)));
  // The moved times are among the combinations; as many of them as combinations: they are all of them.
  if (newSeconds.size * newMinutes.size * newHours.size !== moved.size) return null;
  const time = [field(newMinutes, 59), field(newHours, 23)];
  if (!withSeconds && newSeconds.size === 1 && newSeconds.has(0)) return [...time, ...days].join(' ');
  return [field(newSeconds, 59), ...time, ...days].join(' ');
}

/** The values of one field (`*`, `a`, `a-b`, `*\/n`, `a-b/n`, `a/n`, lists of them), or null when it says more. */
function expand(text: string, max: number): number[] | null {
  const values = new Set<number>();
  for (const part of text.split(',')) {
    const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!match) return null;
    const from = match[1] === '*' ? 0 : Number(match[2]);
    const to = match[1] === '*' || (match[4] && match[3] === undefined) ? max : Number(match[3] ?? match[2]);
    const step = match[4] ? Number(match[4]) : 1;
    if (from > to || to > max || step < 1) return null;
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return [...values].sort((a, b) => a - b);
}

function field(values: Set<number>, max: number): string {
  if (values.size === max + 1) return '*';
  return [...values].sort((a, b) => a - b).join(',');
}
