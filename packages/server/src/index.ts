export { startServer, type RunningServer, type StartOptions } from './app.js';
export { resolveSettings, settingsFromEnv, type Settings, type SettingsInput } from './settings.js';
export { PluginLoadError } from './plugins/loader.js';
export { FakeClock, SystemClock, type Clock } from './jobs/clock.js';
