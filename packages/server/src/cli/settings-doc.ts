import { SETTINGS, shownDefault } from '../settings.js';

const START = "<!-- The settings table: written by `npm run settings-table` from each feature's settings.ts; edit those, not it. -->";
const END = '<!-- End of the settings table. -->';

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** Every setting as docs/configuration.md shows it: its flag, variable, default and meaning; as help, those with a flag first. */
function settingsTable(): string {
  const rows = [...SETTINGS.filter((s) => s.flag), ...SETTINGS.filter((s) => !s.flag)].map((s) => {
    const shown = s.doc?.default ?? s.shownDefault ?? `\`${shownDefault(s)}\``;
    return `| ${s.flag ? `\`--${s.flag}\` ` : ''}| \`${s.env}\` | ${cell(shown)} | ${cell(s.doc?.meaning ?? s.meaning)} |`;
  });
  return ['| flag | environment | default | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

/** `doc` with the table between its markers written anew; the prose around them is kept as it is. */
export function withSettingsTable(doc: string): string {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END, start);
  if (start < 0 || end < 0) throw new Error(`the settings table's markers are missing: ${START} … ${END}`);
  return `${doc.slice(0, start)}${START}\n\n${settingsTable()}\n\n${doc.slice(end)}`;
}
