import { server, type Caller, type Body, type Result } from './calls.js';

export const mods = (c: Caller) => ({
  list: (id: number): Result<'listMods'> => c.call('listMods', { params: server(id) }),
  setEnabled: (id: number, body: Body<'setEnabledMods'>): Result<'setEnabledMods'> =>
    c.call('setEnabledMods', { params: server(id), body }),
  /** A launcher preset (its HTML, as text or a Blob) against the server's mods; `apply` enables its installed mods. */
  importPreset: async (id: number, preset: string | Blob, options: { apply?: boolean } = {}): Result<'importModPreset'> => {
    // A form, in a browser and in Node alike: a browser's fetch cannot stream a request body over HTTP/1.1.
    const form = new FormData();
    form.append('file', typeof preset === 'string' ? new Blob([preset], { type: 'text/html' }) : preset, 'preset.html');
    return c.call('importModPreset', { params: server(id), query: options.apply ? { apply: true } : {}, body: form });
  },
  /** The enabled client mods as a launcher preset (HTML). */
  exportPreset: (id: number): Result<'exportModPreset'> => c.call('exportModPreset', { params: server(id) }),
});
