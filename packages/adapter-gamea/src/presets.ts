import { parse, type HTMLElement } from 'node-html-parser';
import { ApiError, type LauncherPreset, type LauncherPresetFormat, type PresetMod } from '@garrison/core';

/**
 * The game launcher's mod lists: the HTML it exports as a preset (`arma:Type` `preset`, with a name) or as
 * the list of loaded mods (`list`). Workshop mods carry only their id (in the link's `?id=`), local mods
 * their folder (`data-meta="local:<folder>|<path>|"`), DLC their store app id.
 */
const KINDS = ['preset', 'list'];
const WORKSHOP_ID = /[?&]id=(\d{1,20})\b/;
const STORE_APP = /store\.steampowered\.com\/app\/(\d{1,10})/;

const refuse = (reason: string): never => {
  throw new ApiError('VALIDATION_ERROR', `not a launcher preset: ${reason}`);
};

function localFolder(link: HTMLElement | null): string | null {
  const meta = link?.getAttribute('data-meta');
  const m = meta ? /^local:([^|]*)\|([^|]*)/.exec(meta) : null;
  if (!m) return null;
  // The folder: the last part of its path (`C:\\…\\@VULTURE[Tech Mod]\\`); the launcher's first part is the
  // mod's name, which need not be its folder's. Failing a path, that name.
  const folder = m[2]
    .replace(/[\\/]+$/, '')
    .split(/[\\/]/)
    .pop()!
    .trim();
  return folder || m[1].trim() || null;
}

function parsePreset(document: string): LauncherPreset {
  const root = parse(document, { comment: false });
  const kind = root.querySelector('meta[name="arma:Type"]')?.getAttribute('content')?.trim() ?? refuse('it has no <meta name="arma:Type">');
  if (!KINDS.includes(kind)) refuse(`its arma:Type is ${JSON.stringify(kind.slice(0, 40))}, not preset or list`);
  const name = root.querySelector('meta[name="arma:PresetName"]')?.getAttribute('content')?.trim() || null;
  const mods: PresetMod[] = [];
  for (const row of root.querySelectorAll('tr[data-type="ModContainer"]')) {
    const display = row.querySelector('[data-type="DisplayName"]')?.text.trim() ?? '';
    const link = row.querySelector('[data-type="Link"]');
    const local =
      row.querySelector('.from-local') || link?.getAttribute('data-meta')?.startsWith('local:')
        ? (localFolder(link) ?? (display.startsWith('@') ? display : null))
        : null;
    const id = local ? null : (WORKSHOP_ID.exec(link?.getAttribute('href') ?? '')?.[1] ?? null);
    if (!local && !id) continue; // a row with neither: nothing to match it by
    mods.push({ name: display || local || id!, workshop_id: id, local_folder: local });
  }
  const dlc = root.querySelectorAll('tr[data-type="DlcContainer"]').flatMap((row) => {
    const app = STORE_APP.exec(row.querySelector('[data-type="Link"]')?.getAttribute('href') ?? '')?.[1];
    return app ? [{ app_id: app, name: row.querySelector('[data-type="DisplayName"]')?.text.trim() || app }] : [];
  });
  return { kind, name, mods, dlc };
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]};`);

// A row as the launcher writes it: one cell a line, indented to sit in its table.
const presetRow = (cells: string[]) =>
  `        <tr data-type="ModContainer">\n${cells.map((cell) => `          ${cell}\n`).join('')}        </tr>`;

function renderPreset(name: string, mods: PresetMod[]): string {
  const rows = mods.map((mod) => {
    const displayName = `<td data-type="DisplayName">${escape(mod.name)}</td>`;
    if (mod.workshop_id) {
      const link = `https://steamcommunity.com/sharedfiles/filedetails/?id=${mod.workshop_id}`;
      return presetRow([
        displayName,
        '<td><span class="from-steam">Steam</span></td>',
        `<td><a href="${link}" data-type="Link">${link}</a></td>`,
      ]);
    }
    const folder = escape(mod.local_folder ?? mod.name);
    return presetRow([
      displayName,
      '<td><span class="from-local">Local</span></td>',
      `<td><span data-type="Link" data-meta="local:${folder}|${folder}|"></span></td>`,
    ]);
  });
  const howToLoad = "To load this preset, drag this file onto the launcher window, or import it from the launcher's Mods tab.";
  return `<?xml version="1.0" encoding="utf-8"?>
<html>
  <!--Created by Garrison-->
  <head>
    <meta name="arma:Type" content="preset" />
    <meta name="arma:PresetName" content="${escape(name)}" />
    <meta name="generator" content="Garrison" />
    <title>Preset ${escape(name)}</title>
  </head>
  <body>
    <h1>Preset <strong>${escape(name)}</strong></h1>
    <p class="before-list"><em>${howToLoad}</em></p>
    <div class="mod-list">
      <table>
${rows.join('\n')}
      </table>
    </div>
    <div class="dlc-list">
      <table>
      </table>
    </div>
  </body>
</html>
`;
}

export const launcherPreset: LauncherPresetFormat = {
  parse: parsePreset,
  render: renderPreset,
  mediaType: 'text/html',
  extension: '.html',
};
