import { declareSettings, list } from '../setting-specs.js';

/** Adapters to load besides the discovered packages. */
export interface PluginSettings {
  /** Extra adapter modules to load besides the discovered packages. */
  plugins: string[];
}

export const pluginSettings = declareSettings<PluginSettings>({
  feature: 'plugins',
  defaults: { plugins: [] },
  specs: [
    {
      key: 'plugins',
      env: 'GARRISON_PLUGINS',
      shownDefault: 'none',
      meaning: 'comma-separated paths of extra adapter modules or package folders',
      parse: list,
    },
  ],
});
