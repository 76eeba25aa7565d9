/**
 * BattlEye's own config (`beserver_x64.cfg`, `BEServer_x64_active_*.cfg`): one `Key value` per line, not
 * the game's syntax. Read tolerantly: keys in any case, CRLF, `//` comments, blank lines; a line that is
 * not a key and a value is reported with its number.
 */
export interface BattlEyeSetting {
  key: string;
  value: string;
  line: number;
}

export function readBattlEyeCfg(text: string): { settings: Map<string, BattlEyeSetting>; problems: { line: number; message: string }[] } {
  const settings = new Map<string, BattlEyeSetting>();
  const problems: { line: number; message: string }[] = [];
  text
    .replace(/^\uFEFF/, '')
    .split(/\r\n?|\n/)
    .forEach((raw, index) => {
      const line = raw.replace(/\/\/.*$/, '').trim();
      if (!line) return;
      const m = /^([A-Za-z][A-Za-z0-9_]*)\s+(\S.*)$/.exec(line);
      // Said by its number only: what the line holds is not repeated anywhere.
      if (!m) return void problems.push({ line: index + 1, message: 'not a "Key value" line' });
      // The last one wins, as BattlEye reads the file top to bottom.
      settings.set(m[1].toLowerCase(), { key: m[1], value: m[2].trim(), line: index + 1 });
    });
  return { settings, problems };
}
